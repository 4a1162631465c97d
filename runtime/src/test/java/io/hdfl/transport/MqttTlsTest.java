package io.hdfl.transport;

import static io.hdfl.transport.Inbox.utf8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ssl:// against embedded brokers serving TLS with a test CA: CA file trust, host name verification,
 * client certificates as PEM (certificate + PKCS#8 key) and PKCS#12.
 */
class MqttTlsTest {
  @TempDir
  static Path dir;
  static TestCertificates.Issued ca;
  static Path caPem;
  static Path clientPem;
  static Path clientKey;
  static Path clientP12;
  static Path otherCaPem;
  /** Server authentication only. */
  static EmbeddedBroker tls;
  /** Requires a client certificate signed by the CA. */
  static EmbeddedBroker mutual;

  @BeforeAll
  static void setUp() throws Exception {
    ca = TestCertificates.ca("hdfl test CA");
    TestCertificates.Issued server = TestCertificates.server("localhost", ca);
    TestCertificates.Issued client = TestCertificates.client("hdfl-peer-1", ca);
    caPem = TestCertificates.writeCertPem(dir.resolve("ca.pem"), ca.cert());
    clientPem = TestCertificates.writeCertPem(dir.resolve("client.pem"), client.cert(), ca.cert());
    clientKey = TestCertificates.writeKeyPem(dir.resolve("client.key"), client.key());
    clientP12 = TestCertificates.writePkcs12(dir.resolve("client.p12"), client, ca, "p12pass");
    otherCaPem = TestCertificates.writeCertPem(dir.resolve("other-ca.pem"), TestCertificates.ca("other CA").cert());
    tls = EmbeddedBroker.builder().tls(TestCertificates.keyManagers(server, ca), null).build().start();
    mutual = EmbeddedBroker.builder()
        .tls(TestCertificates.keyManagers(server, ca), TestCertificates.trust(ca)).build().start();
  }

  @AfterAll
  static void tearDown() {
    // Moquette's stop waits out Netty's 2 s graceful shutdown; nothing else needs these ports
    Thread stopper = new Thread(() -> {
      tls.close();
      mutual.close();
    }, "stop-tls-brokers");
    stopper.setDaemon(true);
    stopper.start();
  }

  private static MqttSettings.Builder to(EmbeddedBroker b, String host) {
    return MqttSettings.builder("ssl://" + host + ":" + b.port())
        .connectTimeout(Duration.ofSeconds(3))
        .operationTimeout(Duration.ofSeconds(5));
  }

  @Test
  void caFileTrustAndHostNameVerificationAcceptTheBroker() throws Exception {
    assertTrue(tls.uri().startsWith("ssl://"));
    try (MqttTransport t = MqttTransport.connect(to(tls, "localhost").caFile(caPem).build())) {
      assertTrue(t.currentSocket() instanceof SSLSocket);
      assertTrue(t.currentSocket().getTcpNoDelay(), "TCP_NODELAY on the TLS socket");
      Inbox inbox = new Inbox();
      t.subscribe("hdfl-test/tls/echo", 1, inbox); // made again after a reconnect
      publishOnceConnected(t, "hdfl-test/tls/echo", "over tls");
      assertEquals("over tls", inbox.next(5_000).text());
    }
  }

  @Test
  void aHostNameNotInTheCertificateIsRejected() {
    TransportException e = assertThrows(TransportException.class,
        () -> MqttTransport.connect(to(tls, "127.0.0.1").caFile(caPem).build()));
    assertOneLineTlsFailure(e);
  }

  @Test
  void aBrokerCertificateFromAnotherCaIsRejected() {
    TransportException e = assertThrows(TransportException.class,
        () -> MqttTransport.connect(to(tls, "localhost").caFile(otherCaPem).build()));
    assertOneLineTlsFailure(e);
  }

  @Test
  void pemClientCertificateIsAccepted() throws Exception {
    try (MqttTransport t = MqttTransport.connect(
        to(mutual, "localhost").caFile(caPem).clientCertificate(clientPem, clientKey).build())) {
      assertTrue(t.isConnected());
      publishOnceConnected(t, "hdfl-test/tls/pem", "x");
    }
  }

  @Test
  void pkcs12ClientCertificateIsAccepted() throws Exception {
    try (MqttTransport t = MqttTransport.connect(
        to(mutual, "localhost").caFile(caPem).clientPkcs12(clientP12, "p12pass").build())) {
      assertTrue(t.isConnected());
    }
  }

  @Test
  void aMissingClientCertificateIsRefused() {
    TransportException e = assertThrows(TransportException.class,
        () -> MqttTransport.connect(to(mutual, "localhost").caFile(caPem).build()));
    assertFalse(e.getMessage().contains("\n"), e.getMessage());
    assertTrue(e.getMessage().startsWith("cannot connect to MQTT broker ssl://localhost:" + mutual.port()),
        e.getMessage());
  }

  @Test
  void aWrongPkcs12PasswordIsAOneLineError() {
    TransportException e = assertThrows(TransportException.class,
        () -> MqttTransport.connect(to(mutual, "localhost").caFile(caPem).clientPkcs12(clientP12, "nope").build()));
    assertFalse(e.getMessage().contains("\n"), e.getMessage());
    assertTrue(e.getMessage().contains("client.p12"), e.getMessage());
  }

  /**
   * Publishes, again while the transport reconnects: the embedded Moquette now and then closes a
   * connection right after accepting it (seen here once over TLS on JDK 25: "SUBSCRIBE received on
   * already closed connection"), and the transport then reconnects on its own (README, Reliability).
   */
  private static void publishOnceConnected(MqttTransport t, String topic, String text) throws Exception {
    long until = System.nanoTime() + 15_000_000_000L;
    while (true) {
      try {
        while (!t.isConnected() && System.nanoTime() < until) { // connected with its subscriptions made again
          Thread.sleep(20);
        }
        t.publish(topic, utf8(text), 1, false);
        return;
      } catch (TransportException e) {
        if (System.nanoTime() > until) {
          throw e;
        }
        Thread.sleep(100);
      }
    }
  }

  private static void assertOneLineTlsFailure(TransportException e) {
    assertFalse(e.getMessage().contains("\n"), e.getMessage());
    assertTrue(e.getMessage().contains("TLS handshake failed"), e.getMessage());
  }
}
