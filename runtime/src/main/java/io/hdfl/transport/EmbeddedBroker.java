package io.hdfl.transport;

import io.moquette.broker.Server;
import io.moquette.broker.config.IConfig;
import io.moquette.broker.config.MemoryConfig;
import io.moquette.broker.security.IAuthenticator;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContextBuilder;
import java.io.Closeable;
import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import java.util.Properties;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLException;
import javax.net.ssl.TrustManagerFactory;

/**
 * An MQTT 3.1.1 broker inside this JVM (Moquette), for the zero-setup default and for tests: {@code
 * try (EmbeddedBroker b = new EmbeddedBroker().start()) { ... b.uri() ... }}. Starts in about 0.2 s.
 *
 * <p>Listens on 127.0.0.1 on a free port (or a fixed one), keeps everything in memory (no files),
 * accepts messages up to 256 MB by default (Moquette's own default is 8092 bytes), sends no telemetry,
 * and logs only warnings (with slf4j-simple). {@link #stop()} and a later {@link #start()} reuse the
 * port, which is how tests restart the broker under connected clients. It speaks MQTT 3.1.1 only.
 * Stopping takes ~2 s (Moquette waits out Netty's graceful-shutdown quiet period). Known Moquette 0.17
 * deviation: retained messages sent to a new QoS 1 subscription lack the RETAIN flag (QoS 0 is right).
 */
public final class EmbeddedBroker implements Closeable {
  /** Default largest MQTT packet accepted: 256 MB, the MQTT maximum. */
  public static final int DEFAULT_MAX_MESSAGE_BYTES = 256 * 1024 * 1024;
  private static final int FREE_PORT_ATTEMPTS = 5;
  private static final long SAME_PORT_RETRY_MS = 3_000;

  static {
    // Moquette and Netty log at info on every start, stop and dropped client; keep them to warnings
    // unless the user configured these loggers (slf4j-simple reads system properties per logger).
    System.getProperties().putIfAbsent("org.slf4j.simpleLogger.log.io.moquette", "warn");
    System.getProperties().putIfAbsent("org.slf4j.simpleLogger.log.io.netty", "warn");
  }

  private final String host;
  private final int maxMessageBytes;
  private final String username;
  private final byte[] password;
  private final KeyManagerFactory tlsKeys;
  private final TrustManagerFactory tlsClientTrust;
  private int port;
  private boolean startedBefore;
  private Server server;

  /** A broker on 127.0.0.1, free port, 256 MB messages, anonymous access; not started yet. */
  public EmbeddedBroker() {
    this(builder());
  }

  private EmbeddedBroker(Builder b) {
    this.host = b.host;
    this.port = b.port;
    this.maxMessageBytes = b.maxMessageBytes;
    this.username = b.username;
    this.password = b.password == null ? null : b.password.getBytes(StandardCharsets.UTF_8);
    this.tlsKeys = b.tlsKeys;
    this.tlsClientTrust = b.tlsClientTrust;
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * Starts the broker (a no-op if it runs). The first start picks a free port unless one was given;
   * later starts reuse the port, retrying for a few seconds while the previous listener closes.
   */
  public synchronized EmbeddedBroker start() throws IOException {
    if (server != null) {
      return this;
    }
    BrokerCompilation.keepOffC2();
    if (port != 0) {
      // a restart retries while the previous listener closes; a fixed port on first start fails fast
      long deadline = System.nanoTime() + (startedBefore ? SAME_PORT_RETRY_MS * 1_000_000 : 0);
      while (true) {
        try {
          server = startOn(port);
          startedBefore = true;
          return this;
        } catch (BindException e) {
          if (System.nanoTime() >= deadline) {
            throw new IOException("embedded MQTT broker: cannot bind " + host + ":" + port + ": " + e.getMessage(), e);
          }
          sleep(20);
        }
      }
    }
    BindException last = null;
    for (int attempt = 0; attempt < FREE_PORT_ATTEMPTS; attempt++) {
      int candidate = freePort(host);
      try {
        server = startOn(candidate);
        port = candidate;
        startedBefore = true;
        return this;
      } catch (BindException e) {
        last = e; // someone took the port between our probe and the bind: pick another
      }
    }
    throw new IOException("embedded MQTT broker: no free port on " + host + " after " + FREE_PORT_ATTEMPTS
        + " attempts", last);
  }

  /** {@code tcp://127.0.0.1:PORT}, or {@code ssl://...} when started with TLS. */
  public synchronized String uri() {
    if (port == 0) {
      throw new IllegalStateException("embedded broker not started yet");
    }
    return (tlsKeys != null ? "ssl://" : "tcp://") + host + ":" + port;
  }

  /** The port (0 before the first start). */
  public synchronized int port() {
    return port;
  }

  public synchronized boolean isRunning() {
    return server != null;
  }

  /** Stops the broker, dropping every client connection (their last wills are published first). */
  public synchronized void stop() {
    if (server != null) {
      Server s = server;
      server = null;
      s.stopServer();
    }
  }

  @Override
  public void close() {
    stop();
  }

  private Server startOn(int p) throws IOException, BindException {
    Properties props = new Properties();
    props.setProperty(IConfig.HOST_PROPERTY_NAME, host);
    if (tlsKeys != null) {
      props.setProperty(IConfig.PORT_PROPERTY_NAME, "disabled");
      props.setProperty(IConfig.SSL_PORT_PROPERTY_NAME, Integer.toString(p));
    } else {
      props.setProperty(IConfig.PORT_PROPERTY_NAME, Integer.toString(p));
    }
    props.setProperty(IConfig.NETTY_MAX_BYTES_PROPERTY_NAME, Integer.toString(maxMessageBytes));
    props.setProperty(IConfig.PERSISTENCE_ENABLED_PROPERTY_NAME, "false");
    props.setProperty(IConfig.ENABLE_TELEMETRY_NAME, "false");
    props.setProperty(IConfig.ALLOW_ANONYMOUS_PROPERTY_NAME, Boolean.toString(username == null));
    props.setProperty("netty.tcp_nodelay", "true");
    IAuthenticator auth = username == null ? null : this::checkCredentials;
    Server s = new Server();
    try {
      s.startServer(new MemoryConfig(props), List.of(), this::sslContext, auth, null);
      return s;
    } catch (RuntimeException e) {
      try {
        s.stopServer(); // release the event loops of the half-started broker
      } catch (RuntimeException ignored) {
        // it did not get far enough to need stopping
      }
      for (Throwable c = e; c != null; c = c.getCause()) {
        if (c instanceof BindException be) {
          throw be;
        }
      }
      throw new IOException("embedded MQTT broker failed to start: " + e.getMessage(), e);
    }
  }

  private boolean checkCredentials(String clientId, String user, byte[] pass) {
    return username.equals(user) && pass != null && MessageDigest.isEqual(password, pass);
  }

  private io.netty.handler.ssl.SslContext sslContext() {
    if (tlsKeys == null) {
      return null;
    }
    try {
      SslContextBuilder b = SslContextBuilder.forServer(tlsKeys);
      if (tlsClientTrust != null) {
        b.trustManager(tlsClientTrust).clientAuth(ClientAuth.REQUIRE);
      }
      return b.build();
    } catch (SSLException e) {
      throw new IllegalStateException("embedded broker TLS setup failed: " + e.getMessage(), e);
    }
  }

  private static int freePort(String host) throws IOException {
    try (ServerSocket probe = new ServerSocket()) {
      probe.setReuseAddress(true);
      probe.bind(new InetSocketAddress(InetAddress.getByName(host), 0));
      return probe.getLocalPort();
    }
  }

  private static void sleep(long ms) throws IOException {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while starting the embedded MQTT broker", e);
    }
  }

  @Override
  public synchronized String toString() {
    return "EmbeddedBroker[" + (port == 0 ? "not started" : uri()) + (server == null ? ", stopped" : "") + "]";
  }

  /** Builder of an {@link EmbeddedBroker}. */
  public static final class Builder {
    private String host = "127.0.0.1";
    private int port;
    private int maxMessageBytes = DEFAULT_MAX_MESSAGE_BYTES;
    private String username;
    private String password;
    private KeyManagerFactory tlsKeys;
    private TrustManagerFactory tlsClientTrust;

    private Builder() {}

    /** Address to listen on (default 127.0.0.1; "0.0.0.0" for all interfaces). */
    public Builder host(String h) {
      this.host = h;
      return this;
    }

    /** Fixed port (default 0: a free port chosen at the first start). */
    public Builder port(int p) {
      if (p < 0 || p > 65535) {
        throw new IllegalArgumentException("port must be 0..65535, got " + p);
      }
      this.port = p;
      return this;
    }

    /** Largest MQTT packet accepted (default 256 MB). */
    public Builder maxMessageBytes(int n) {
      if (n < 1024) {
        throw new IllegalArgumentException("maxMessageBytes must be at least 1024, got " + n);
      }
      this.maxMessageBytes = n;
      return this;
    }

    /** Requires this username and password from every client (default: anonymous access). */
    public Builder credentials(String user, String pass) {
      this.username = user;
      this.password = pass;
      return this;
    }

    /**
     * Serves TLS only ({@code ssl://}) with this server key and certificate; with {@code clientTrust}
     * non-null, clients must present a certificate it trusts.
     */
    public Builder tls(KeyManagerFactory serverKeys, TrustManagerFactory clientTrust) {
      this.tlsKeys = serverKeys;
      this.tlsClientTrust = clientTrust;
      return this;
    }

    public EmbeddedBroker build() {
      return new EmbeddedBroker(this);
    }
  }
}
