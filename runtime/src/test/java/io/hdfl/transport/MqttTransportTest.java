package io.hdfl.transport;

import static io.hdfl.transport.Inbox.utf8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** MQTT-only behaviour: reconnect after a broker restart, TCP_NODELAY, one-line connect errors. */
class MqttTransportTest {
  private static final String USER = "alice";
  private static final String PASS = "s3cret";
  /** A broker of this class only (it is restarted, and it requires a password). */
  private static EmbeddedBroker broker;
  private final String prefix =
      "hdfl-test/" + Long.toHexString(ThreadLocalRandom.current().nextLong() & 0xFFFF_FFFFL) + "/";

  @BeforeAll
  static void startBroker() throws IOException {
    broker = EmbeddedBroker.builder().credentials(USER, PASS).build().start();
  }

  @AfterAll
  static void stopBroker() {
    if (broker != null) {
      // concurrently: Moquette's stop waits 2 s for Netty's graceful shutdown
      Thread stopper = new Thread(broker::close, "stop-test-broker");
      stopper.setDaemon(true);
      stopper.start();
    }
  }

  private static MqttSettings.Builder settings(String uri) {
    return MqttSettings.builder(uri)
        .credentials(USER, PASS)
        .connectTimeout(Duration.ofSeconds(2))
        .operationTimeout(Duration.ofSeconds(5))
        .maxReconnectDelay(Duration.ofSeconds(1));
  }

  @Test
  void reconnectsAfterTheBrokerRestartsAndRestoresSubscriptions() throws Exception {
    try (MqttTransport sub = MqttTransport.connect(settings(broker.uri()).build());
        MqttTransport pub = MqttTransport.connect(settings(broker.uri()).build())) {
      Inbox inbox = new Inbox();
      sub.subscribe(prefix + "ring/+/in", 1, inbox);
      pub.publish(prefix + "ring/1/in", utf8("before"), 1, false);
      assertEquals("before", inbox.next(5_000).text());

      int port = broker.port();
      broker.stop();
      waitFor(() -> !sub.isConnected() && !pub.isConnected(), 5_000, "clients notice the broker is gone");
      TransportException down =
          assertThrows(TransportException.class, () -> pub.publish(prefix + "ring/1/in", utf8("lost"), 1, false));
      assertTrue(down.getMessage().contains("not connected"), down.getMessage());
      Inbox late = new Inbox();
      sub.subscribe(prefix + "star/global", 1, late); // while reconnecting: made once the broker is back

      broker.start();
      assertEquals(port, broker.port(), "restarted on the same port");
      waitFor(() -> sub.isConnected() && pub.isConnected(), 15_000, "both clients reconnect");
      pub.publish(prefix + "ring/2/in", utf8("after"), 1, false);
      Inbox.Message m = inbox.next(5_000);
      assertEquals(prefix + "ring/2/in", m.topic());
      assertEquals("after", m.text());
      pub.publish(prefix + "star/global", utf8("global"), 1, false);
      assertEquals("global", late.next(5_000).text(), "the subscription made while reconnecting works");
    }
  }

  @Test
  void afterANetworkDropTheReconnectListenersRunOnceTheSubscriptionsAreBack() throws Exception {
    String status = prefix + "peers/press-01";
    String inbox = prefix + "ring/press-01/in";
    try (SeveringProxy proxy = SeveringProxy.to(broker.port());
        MqttTransport watcher = MqttTransport.connect(settings(broker.uri()).build());
        MqttTransport peer = MqttTransport.connect(settings(proxy.uri())
            .will(new LastWill(status, utf8("offline"), 1, true)).build())) {
      Inbox statuses = new Inbox();
      watcher.subscribe(prefix + "peers/+", 1, (topic, payload, retained) -> {
        statuses.onMessage(topic, payload, retained);
        if (new String(payload, java.nio.charset.StandardCharsets.UTF_8).equals("online")) {
          try { // answered at once, as a ring peer hands a model on to a peer that came back
            watcher.publish(inbox, utf8("welcome"), 1, false);
          } catch (TransportException e) {
            throw new IllegalStateException(e);
          }
        }
      });
      Inbox answers = new Inbox();
      peer.subscribe(inbox, 1, answers);
      java.util.concurrent.atomic.AtomicInteger runs = new java.util.concurrent.atomic.AtomicInteger();
      peer.onReconnected(() -> {
        runs.incrementAndGet();
        try {
          peer.publish(status, utf8("online"), 1, true);
        } catch (TransportException e) {
          throw new IllegalStateException(e);
        }
      });
      peer.publish(status, utf8("online"), 1, true);
      assertEquals("online", statuses.next(5_000).text());
      assertEquals("welcome", answers.next(5_000).text());
      assertEquals(1, proxy.connections());

      proxy.sever();
      assertEquals("offline", statuses.next(10_000).text(), "the broker published the peer's last will");
      Inbox.Message again = statuses.next(15_000);
      assertEquals("online", again.text(), "the peer announced itself again after reconnecting");
      assertEquals(1, peer.connectionLosses());
      assertEquals("welcome", answers.next(5_000).text(),
          "the answer to the announcement arrives: the subscriptions were back before it was made");
      assertEquals(1, runs.get());
      statuses.assertEmpty(300);
    }
  }

  @Test
  void reconnectListenersAreNotRunOnAFirstConnectNorAfterAClose() throws Exception {
    java.util.concurrent.atomic.AtomicInteger runs = new java.util.concurrent.atomic.AtomicInteger();
    try (SeveringProxy proxy = SeveringProxy.to(broker.port())) {
      MqttTransport peer = MqttTransport.connect(settings(proxy.uri()).build());
      peer.onReconnected(runs::incrementAndGet);
      peer.close();
      proxy.sever();
      Thread.sleep(2_500); // longer than a reconnect delay
    }
    assertEquals(0, runs.get());
  }

  @Test
  void aReconnectThatHangsIsGivenUpAndMadeAgainWithANewClient() throws Exception {
    // A server on the broker's port that accepts and then never answers: Paho's automatic reconnect
    // waits for its CONNACK for ever (as it waits for ever when its sender thread fails to start).
    try (MqttTransport sub = MqttTransport.connect(settings(broker.uri()).build());
        MqttTransport pub = MqttTransport.connect(settings(broker.uri()).build())) {
      Inbox inbox = new Inbox();
      sub.subscribe(prefix + "ring/+/in", 1, inbox);
      int port = broker.port();
      broker.stop();
      waitFor(() -> !sub.isConnected(), 5_000, "the client notices the broker is gone");
      java.util.List<Socket> held = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
      try (ServerSocket silent = new ServerSocket()) {
        silent.setReuseAddress(true);
        silent.bind(new java.net.InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        Thread acceptor = new Thread(() -> {
          try {
            while (true) {
              held.add(silent.accept()); // kept open and never answered
            }
          } catch (IOException closed) {
            // the test closed the server
          }
        }, "silent-broker");
        acceptor.setDaemon(true);
        acceptor.start();
        waitFor(() -> !held.isEmpty(), 10_000, "Paho reconnects to the silent server");
        long stuck = sub.stuckAfter().toMillis();
        waitFor(() -> sub.clientReplacements() >= 1, stuck + 5_000, "the watchdog replaces the hung client");
      }
      try {
        broker.start(); // the hung connections stay open: only a new client gets through
        assertEquals(port, broker.port(), "restarted on the same port");
        waitFor(() -> sub.isConnected() && pub.isConnected(), 3 * sub.stuckAfter().toMillis() + 5_000,
            "both clients connect again");
        assertTrue(sub.clientReplacements() >= 1);
        pub.publish(prefix + "ring/3/in", utf8("after"), 1, false);
        assertEquals("after", inbox.next(5_000).text(), "the new client has the subscriptions of the old");
      } finally {
        for (Socket s : held) {
          s.close();
        }
      }
    }
  }

  @Test
  void tcpNoDelayIsSetOnTheSocket() throws Exception {
    try (MqttTransport t = MqttTransport.connect(settings(broker.uri()).build())) {
      Socket s = t.currentSocket();
      assertNotNull(s);
      assertTrue(s.isConnected());
      assertEquals(broker.port(), s.getPort());
      assertTrue(s.getTcpNoDelay(), "TCP_NODELAY");
    }
  }

  @Test
  void tcpNoDelayIsSetOnTheSocketToTheExternalBroker() throws Exception {
    String external = ExternalBrokerConformanceTest.externalBroker();
    org.junit.jupiter.api.Assumptions.assumeTrue(external != null, "HDFL_TEST_BROKER is not set");
    try (MqttTransport t = MqttTransport.connect(MqttSettings.builder(external).build())) {
      assertTrue(t.currentSocket().getTcpNoDelay(), "TCP_NODELAY");
    }
  }

  @Test
  void wrongPasswordIsAOneLineAuthenticationError() {
    TransportException e = assertThrows(TransportException.class,
        () -> MqttTransport.connect(settings(broker.uri()).credentials(USER, "wrong").build()));
    assertOneLine(e.getMessage());
    assertTrue(e.getMessage().contains(broker.uri()), e.getMessage());
    assertTrue(e.getMessage().contains("bad username or password") || e.getMessage().contains("not authorized"),
        e.getMessage());
    TransportException anonymous = assertThrows(TransportException.class,
        () -> MqttTransport.connect(MqttSettings.builder(broker.uri()).build()));
    assertOneLine(anonymous.getMessage());
    assertTrue(anonymous.getMessage().contains("none given") || anonymous.getMessage().contains("no username"),
        anonymous.getMessage());
  }

  @Test
  void unreachableBrokerIsAOneLineError() throws IOException {
    int closedPort;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closedPort = s.getLocalPort();
    }
    String uri = "tcp://127.0.0.1:" + closedPort;
    TransportException e = assertThrows(TransportException.class,
        () -> MqttTransport.connect(settings(uri).build()));
    assertEquals("cannot connect to MQTT broker " + uri + ": connection refused (is a broker listening there?)",
        e.getMessage());
  }

  @Test
  void aTlsClientAtAPlainPortIsToldToTryTcp() {
    String uri = broker.uri().replace("tcp://", "ssl://");
    TransportException e = assertThrows(TransportException.class,
        () -> MqttTransport.connect(settings(uri).connectTimeout(Duration.ofSeconds(5)).build()));
    assertOneLine(e.getMessage());
    assertTrue(e.getMessage().startsWith("cannot connect to MQTT broker " + uri + ": TLS handshake failed: "),
        e.getMessage());
    assertTrue(e.getMessage().endsWith("(a plain MQTT port? try tcp://)"), e.getMessage());
    // but not where no connection was made (here the broadcast address: unreachable or refused)
    String nowhere = "ssl://255.255.255.255:8883";
    TransportException n = assertThrows(TransportException.class,
        () -> MqttTransport.connect(settings(nowhere).connectTimeout(Duration.ofSeconds(2)).build()));
    assertOneLine(n.getMessage());
    assertFalse(n.getMessage().contains("plain MQTT port"), n.getMessage());
  }

  @Test
  void silentServerTimesOutWithAOneLineError() throws IOException {
    try (ServerSocket silent = new ServerSocket(0, 5, InetAddress.getLoopbackAddress())) {
      String uri = "tcp://127.0.0.1:" + silent.getLocalPort();
      long t0 = System.nanoTime();
      TransportException e = assertThrows(TransportException.class,
          () -> MqttTransport.connect(settings(uri).connectTimeout(Duration.ofSeconds(1)).build()));
      assertOneLine(e.getMessage());
      assertTrue(e.getMessage().startsWith("cannot connect to MQTT broker " + uri + ": "), e.getMessage());
      assertTrue(System.nanoTime() - t0 < 6_000_000_000L, "gave up in time");
    }
  }

  @Test
  void badUrlsAreOneLineErrors() {
    for (String bad : new String[] {"http://host:1883", "tcp://", "localhost:1883", "tcp://host:99999",
        "tcp://u:p@host:1883", "tcp://host:1883/path", " "}) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> MqttSettings.builder(bad), bad);
      assertOneLine(e.getMessage());
      assertTrue(e.getMessage().contains("broker URL"), e.getMessage());
    }
  }

  @Test
  void crashDropsTheConnectionWithoutReconnecting() throws Exception {
    MqttTransport t = MqttTransport.connect(settings(broker.uri()).build());
    Socket s = t.currentSocket();
    t.crash();
    assertTrue(s.isClosed());
    assertFalse(t.isConnected());
    Thread.sleep(1_200); // past the first automatic reconnect attempt (1 s)
    assertFalse(t.isConnected());
    assertThrows(TransportException.class, () -> t.publish(prefix + "x", utf8("x"), 0, false));
    t.close(); // idempotent after a crash
  }

  private static void assertOneLine(String message) {
    assertNotNull(message);
    assertFalse(message.contains("\n"), message);
  }

  static void waitFor(BooleanSupplier condition, long timeoutMs, String what) throws InterruptedException {
    long deadline = System.nanoTime() + timeoutMs * 1_000_000;
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out after " + timeoutMs + " ms waiting until " + what);
      }
      Thread.sleep(20);
    }
  }
}
