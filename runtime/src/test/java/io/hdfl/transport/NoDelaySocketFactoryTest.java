package io.hdfl.transport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class NoDelaySocketFactoryTest {
  @Test
  void aMessageReachesThePeerWhenFlushedWholeAndInOrder() throws Exception {
    NoDelaySocketFactory factory = new NoDelaySocketFactory();
    try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        Socket client = factory.createSocket()) {
      client.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), server.getLocalPort()));
      assertTrue(client.getTcpNoDelay(), "TCP_NODELAY");
      assertSame(client, factory.lastSocket());
      assertSame(client.getOutputStream(), client.getOutputStream(), "one buffered stream per socket");
      try (Socket peer = server.accept()) {
        InputStream in = peer.getInputStream();
        // written as Paho writes: 1 KB pieces, then one flush
        byte[] small = bytes(40_000, 1);
        OutputStream out = client.getOutputStream();
        for (int off = 0; off < small.length; off += 1024) {
          out.write(small, off, Math.min(1024, small.length - off));
        }
        Thread.sleep(100);
        assertEquals(0, in.available(), "nothing leaves before the flush while the buffer has room");
        out.flush();
        assertArrayEquals(small, in.readNBytes(small.length));

        // a message larger than the buffer still arrives whole and in order
        byte[] large = bytes(5 * NoDelaySocketFactory.BUFFER_BYTES + 123, 2);
        for (int off = 0; off < large.length; off += 1024) {
          out.write(large, off, Math.min(1024, large.length - off));
        }
        out.flush();
        assertArrayEquals(large, in.readNBytes(large.length));
      }
    }
  }

  @Test
  void theConnectingVariantsConnectWithTcpNoDelay() throws Exception {
    NoDelaySocketFactory factory = new NoDelaySocketFactory();
    try (ServerSocket server = new ServerSocket(0, 2, InetAddress.getLoopbackAddress());
        Socket a = factory.createSocket(InetAddress.getLoopbackAddress(), server.getLocalPort());
        Socket b = factory.createSocket("127.0.0.1", server.getLocalPort(), InetAddress.getLoopbackAddress(), 0)) {
      assertTrue(a.isConnected() && b.isConnected());
      assertTrue(a.getTcpNoDelay() && b.getTcpNoDelay());
      try (Socket pa = server.accept(); Socket pb = server.accept()) {
        b.getOutputStream().write(7);
        b.getOutputStream().flush();
        a.getOutputStream().write(9);
        a.getOutputStream().flush();
        int fromA = pa.getPort() == a.getLocalPort() ? pa.getInputStream().read() : pb.getInputStream().read();
        assertEquals(9, fromA);
      }
    }
  }

  private static byte[] bytes(int n, long seed) {
    byte[] b = new byte[n];
    new SplittableRandom(seed).nextBytes(b);
    return b;
  }
}
