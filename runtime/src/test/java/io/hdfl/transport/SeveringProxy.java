package io.hdfl.transport;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP relay on a loopback port to a broker, whose connections the test can cut (a network drop: the
 * client loses its connection without a DISCONNECT, so the broker publishes its last will) while the
 * relay goes on accepting, so the client reconnects through it.
 */
public final class SeveringProxy implements AutoCloseable {
  private final ServerSocket server;
  private final int target;
  private final List<Socket> open = new CopyOnWriteArrayList<>();

  private SeveringProxy(int target) throws IOException {
    this.target = target;
    server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread acceptor = new Thread(this::accept, "severing-proxy-" + server.getLocalPort());
    acceptor.setDaemon(true);
    acceptor.start();
  }

  /** A relay to the broker on {@code port} of the loopback address. */
  public static SeveringProxy to(int port) throws IOException {
    return new SeveringProxy(port);
  }

  public String uri() {
    return "tcp://127.0.0.1:" + server.getLocalPort();
  }

  /** How many client connections are open through the relay now. */
  public int connections() {
    return open.size() / 2;
  }

  /** Cuts every connection open now, with a reset on both sides. */
  public void sever() {
    for (Socket s : open) {
      drop(s);
    }
  }

  private void accept() {
    while (!server.isClosed()) {
      try {
        Socket client = server.accept();
        Socket broker = new Socket();
        broker.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), target), 5_000);
        client.setTcpNoDelay(true);
        broker.setTcpNoDelay(true);
        open.add(client);
        open.add(broker);
        pump(client, broker);
        pump(broker, client);
      } catch (IOException e) {
        // closed, or the broker refused: the client sees its connection fail and retries
      }
    }
  }

  private void pump(Socket from, Socket to) {
    Thread t = new Thread(() -> {
      byte[] buf = new byte[64 * 1024];
      try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
        int n;
        while ((n = in.read(buf)) >= 0) {
          out.write(buf, 0, n);
          out.flush();
        }
      } catch (IOException e) {
        // severed
      } finally {
        drop(from);
        drop(to);
      }
    }, "severing-proxy-pump");
    t.setDaemon(true);
    t.start();
  }

  private void drop(Socket s) {
    open.remove(s);
    try {
      if (!s.isClosed()) {
        s.setSoLinger(true, 0); // a reset, as a cable pulled mid-stream looks to the other side
      }
      s.close();
    } catch (IOException e) {
      // already closed
    }
  }

  @Override
  public void close() throws IOException {
    server.close();
    sever();
  }
}
