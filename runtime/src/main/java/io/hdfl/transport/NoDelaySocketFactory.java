package io.hdfl.transport;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import javax.net.SocketFactory;

/**
 * The plain socket factory of {@link MqttTransport}: sets TCP_NODELAY on every socket it creates,
 * buffers each socket's output so that a message leaves in as few system calls as possible, and
 * remembers the last socket.
 *
 * <ul>
 *   <li>Without TCP_NODELAY, Nagle's algorithm holds back the tail of a large publish until the
 *       broker's delayed ACK: a 400 KB QoS 1 round trip took a 7–48 ms median with it and about 6 ms
 *       without.
 *   <li>Paho writes a message into an 8 KB buffer in 1 KB pieces and flushes once per message, so a
 *       ring model of D=2000 with its ledger lines (about 150 KB) reached the socket as 19 writes,
 *       each a system call and a wake-up of the broker. With {@value #BUFFER_BYTES} bytes buffered here
 *       it takes 3, and a small message (an ack, a ledger line) one, as before.
 * </ul>
 */
final class NoDelaySocketFactory extends SocketFactory {
  /** Output buffered per socket. */
  static final int BUFFER_BYTES = 64 * 1024;

  private volatile Socket last;

  /** The socket created last (the current connection's), or null. */
  Socket lastSocket() {
    return last;
  }

  static <S extends Socket> S noDelay(S s) throws SocketException {
    s.setTcpNoDelay(true);
    return s;
  }

  private Socket track(Socket s) throws SocketException {
    last = noDelay(s);
    return s;
  }

  @Override
  public Socket createSocket() throws IOException {
    return track(new BufferedSocket()); // Paho creates its socket unconnected and connects it itself
  }

  @Override
  public Socket createSocket(String host, int port) throws IOException {
    return createSocket(new InetSocketAddress(host, port), null);
  }

  @Override
  public Socket createSocket(String host, int port, InetAddress localHost, int localPort) throws IOException {
    return createSocket(new InetSocketAddress(host, port), new InetSocketAddress(localHost, localPort));
  }

  @Override
  public Socket createSocket(InetAddress host, int port) throws IOException {
    return createSocket(new InetSocketAddress(host, port), null);
  }

  @Override
  public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort)
      throws IOException {
    return createSocket(new InetSocketAddress(address, port), new InetSocketAddress(localAddress, localPort));
  }

  private Socket createSocket(InetSocketAddress remote, InetSocketAddress local) throws IOException {
    Socket s = track(new BufferedSocket());
    try {
      if (local != null) {
        s.bind(local);
      }
      s.connect(remote);
      return s;
    } catch (IOException e) {
      s.close();
      throw e;
    }
  }

  /**
   * A socket whose output stream buffers {@link #BUFFER_BYTES}: what is written reaches the network
   * when the buffer fills or the writer flushes (Paho flushes after every message).
   */
  static final class BufferedSocket extends Socket {
    private OutputStream out;

    @Override
    public synchronized OutputStream getOutputStream() throws IOException {
      if (out == null) {
        out = new BufferedOutputStream(super.getOutputStream(), BUFFER_BYTES);
      }
      return out;
    }
  }
}
