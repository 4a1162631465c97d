package io.hdfl.sensors.signal.mqtt;

import io.moquette.broker.Server;
import io.moquette.broker.config.IConfig;
import io.moquette.broker.config.MemoryConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/**
 * The brokers the integration tests run against: an embedded Moquette (always, started once per test
 * JVM on a free port it picks) and, when {@code HDFL_TEST_BROKER} is set (CI sets it to the local
 * Mosquitto when it answers), that external broker too. Tests use unique topics, so they do not see
 * other users of a shared broker.
 */
final class TestBrokers {

  private static Embedded embedded;

  private TestBrokers() {}

  /** Arguments (name, URI) for {@code @MethodSource}. */
  static Stream<Arguments> all() {
    List<Arguments> list = new ArrayList<>();
    list.add(Arguments.of("embedded", embeddedUri()));
    String external = System.getenv("HDFL_TEST_BROKER");
    if (external != null && !external.isBlank()) {
      list.add(Arguments.of("external", external.strip()));
    }
    return list.stream();
  }

  static synchronized String embeddedUri() {
    if (embedded == null) {
      try {
        embedded = Embedded.start();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return embedded.uri();
  }

  /** A topic prefix no other test (or user of the broker) has. */
  static String uniquePrefix() {
    return "hdfl-test-" + UUID.randomUUID().toString().substring(0, 13);
  }

  /** A Moquette broker in this JVM, with the settings the runtime's EmbeddedBroker uses. */
  static final class Embedded implements AutoCloseable {
    private final int port;
    private Server server;

    private Embedded(int port, Server server) {
      this.port = port;
      this.server = server;
    }

    /** Starts on a free port of 127.0.0.1 (a probed port; port 0 is unreliable with Moquette). */
    static Embedded start() throws IOException {
      BindException last = null;
      for (int attempt = 0; attempt < 5; attempt++) {
        int p = freePort();
        try {
          return new Embedded(p, startOn(p));
        } catch (BindException e) {
          last = e;
        }
      }
      throw new IOException("no free port for the embedded broker", last);
    }

    String uri() {
      return "tcp://127.0.0.1:" + port;
    }

    /** Stops the broker, dropping every client. */
    void stop() {
      if (server != null) {
        server.stopServer();
        server = null;
      }
    }

    /** Starts again on the same port, retrying while the old listener closes. */
    void restart() throws IOException, InterruptedException {
      long deadline = System.nanoTime() + 5_000_000_000L;
      while (true) {
        try {
          server = startOn(port);
          return;
        } catch (BindException e) {
          if (System.nanoTime() > deadline) {
            throw e;
          }
          Thread.sleep(50);
        }
      }
    }

    @Override
    public void close() {
      stop();
    }

    private static Server startOn(int port) throws IOException {
      Properties props = new Properties();
      props.setProperty(IConfig.HOST_PROPERTY_NAME, "127.0.0.1");
      props.setProperty(IConfig.PORT_PROPERTY_NAME, Integer.toString(port));
      props.setProperty(IConfig.NETTY_MAX_BYTES_PROPERTY_NAME, Integer.toString(16 * 1024 * 1024));
      props.setProperty(IConfig.PERSISTENCE_ENABLED_PROPERTY_NAME, "false");
      props.setProperty(IConfig.ENABLE_TELEMETRY_NAME, "false");
      props.setProperty(IConfig.ALLOW_ANONYMOUS_PROPERTY_NAME, "true");
      props.setProperty("netty.tcp_nodelay", "true");
      Server s = new Server();
      try {
        s.startServer(new MemoryConfig(props));
        return s;
      } catch (RuntimeException e) {
        try {
          s.stopServer();
        } catch (RuntimeException ignored) {
          // not far enough to need stopping
        }
        for (Throwable c = e; c != null; c = c.getCause()) {
          if (c instanceof BindException be) {
            throw be;
          }
        }
        throw new IOException("embedded broker failed to start: " + e.getMessage(), e);
      }
    }

    private static int freePort() throws IOException {
      try (ServerSocket probe = new ServerSocket()) {
        probe.setReuseAddress(true);
        probe.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        return probe.getLocalPort();
      }
    }
  }
}
