package io.hdfl.transport;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketException;
import javax.net.ssl.SSLSocketFactory;

/**
 * The TLS counterpart of {@link NoDelaySocketFactory}: sets TCP_NODELAY on every socket and remembers
 * the last one. It must itself be an {@link SSLSocketFactory}: Paho accepts only those for {@code
 * ssl://} URLs.
 */
final class NoDelaySslSocketFactory extends SSLSocketFactory {
  private final SSLSocketFactory delegate;
  private volatile Socket last;

  NoDelaySslSocketFactory(SSLSocketFactory delegate) {
    this.delegate = delegate;
  }

  /** The socket created last (the current connection's), or null. */
  Socket lastSocket() {
    return last;
  }

  private Socket track(Socket s) throws SocketException {
    last = NoDelaySocketFactory.noDelay(s);
    return s;
  }

  @Override
  public String[] getDefaultCipherSuites() {
    return delegate.getDefaultCipherSuites();
  }

  @Override
  public String[] getSupportedCipherSuites() {
    return delegate.getSupportedCipherSuites();
  }

  @Override
  public Socket createSocket() throws IOException {
    return track(delegate.createSocket());
  }

  @Override
  public Socket createSocket(Socket s, String host, int port, boolean autoClose) throws IOException {
    NoDelaySocketFactory.noDelay(s);
    return track(delegate.createSocket(s, host, port, autoClose));
  }

  @Override
  public Socket createSocket(String host, int port) throws IOException {
    return track(delegate.createSocket(host, port));
  }

  @Override
  public Socket createSocket(String host, int port, InetAddress localHost, int localPort) throws IOException {
    return track(delegate.createSocket(host, port, localHost, localPort));
  }

  @Override
  public Socket createSocket(InetAddress host, int port) throws IOException {
    return track(delegate.createSocket(host, port));
  }

  @Override
  public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort)
      throws IOException {
    return track(delegate.createSocket(address, port, localAddress, localPort));
  }
}
