package io.hdfl.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hdfl.federation.Topics;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The broker side of the deployment, tested as shipped: Mosquitto started with {@code
 * deploy/mosquitto/mosquitto.conf} (paths and port rewritten to a temporary directory) and {@code
 * deploy/mosquitto/acl} unchanged, TLS with a test CA, one password per peer.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MosquittoAclTest {
  private static final Path DEPLOY = Path.of("..", "deploy", "mosquitto");
  private static final Topics T = new Topics("plant-7");

  @TempDir static Path dir;
  private MosquittoProcess broker;
  private Path caPem;
  private final List<Transport> open = new ArrayList<>();

  @BeforeAll
  void startBroker() throws Exception {
    Assumptions.assumeTrue(MosquittoProcess.binary().isPresent(), "mosquitto is not installed");
    Path etc = Files.createDirectories(dir.resolve("etc"));
    TestCertificates.Issued ca = TestCertificates.ca("hdfl test CA");
    TestCertificates.Issued server = TestCertificates.server("localhost", ca);
    caPem = TestCertificates.writeCertPem(etc.resolve("ca.pem"), ca.cert());
    TestCertificates.writeCertPem(etc.resolve("server.pem"), server.cert());
    TestCertificates.writeKeyPem(etc.resolve("server.key"), server.keys().getPrivate());
    Files.copy(DEPLOY.resolve("acl"), etc.resolve("acl"));
    Path passwd = etc.resolve("passwd");
    Files.writeString(passwd, "");
    for (String user : List.of("press-01", "press-02", "press-03", "cell-1", "aggregator")) {
      Process p = new ProcessBuilder("mosquitto_passwd", "-b", passwd.toString(), user, "pw-" + user)
          .redirectErrorStream(true).start();
      assertEquals(0, p.waitFor(), new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
    }
    int port = MosquittoProcess.freePort();
    String conf = Files.readString(DEPLOY.resolve("mosquitto.conf"))
        .replace("/etc/mosquitto/hdfl/", etc + "/")
        .replace("/var/lib/mosquitto/", Files.createDirectories(dir.resolve("data")) + "/")
        .replace("listener 8883", "listener " + port + " 127.0.0.1")
        // Mosquitto started as root switches to the "mosquitto" user, who cannot read a test's temp files
        + ("root".equals(System.getProperty("user.name")) ? "\nuser root\n" : "");
    Path confFile = etc.resolve("mosquitto.conf");
    Files.writeString(confFile, conf);
    broker = MosquittoProcess.start(confFile, port);
  }

  @AfterAll
  void stop() throws Exception {
    for (Transport t : open) {
      t.close();
    }
    if (broker != null) {
      broker.close();
    }
  }

  private Transport as(String user, String password) throws Exception {
    MqttSettings s = MqttSettings.builder("ssl://localhost:" + broker.port()).caFile(caPem)
        .credentials(user, password).clientId("acl-" + user + "-" + System.nanoTime()).build();
    Transport t = MqttTransport.connect(s);
    open.add(t);
    return t;
  }

  private Transport as(String user) throws Exception {
    return as(user, "pw-" + user);
  }

  private static byte[] text(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void aPeerHandsModelsOnOnlyAsItselfAndReadsOnlyItsOwnInbox() throws Exception {
    Transport p1 = as("press-01");
    Transport p2 = as("press-02");
    Transport p3 = as("press-03");
    Inbox inbox2 = new Inbox();
    p2.subscribe(T.ringInbox("press-02"), 1, inbox2);
    Inbox inbox3 = new Inbox();
    p3.subscribe(T.ringInbox("press-03"), 1, inbox3);
    // press-03 tries to read press-02's inbox: refused (or, for a broker that grants and filters, nothing arrives)
    Inbox snoop = new Inbox();
    try {
      p3.subscribe(T.ringInbox("press-02"), 1, snoop);
    } catch (TransportException refused) {
      assertTrue(refused.getMessage().contains("refused"), refused.getMessage());
    }
    // press-01 impersonates press-03 towards press-02: dropped by the broker
    p1.publish(T.ringIn("press-02", "press-03"), text("spoofed"), 1, false);
    // press-01 as itself: delivered
    p1.publish(T.ringIn("press-02", "press-01"), text("model from press-01"), 1, false);
    Inbox.Message m = inbox2.next(10_000);
    assertEquals("model from press-01", m.text(), "the spoofed message came first: " + m.text());
    assertEquals(T.ringIn("press-02", "press-01"), m.topic());
    // a marker to press-03's own inbox bounds the wait for anything snooped from press-02's
    p1.publish(T.ringIn("press-03", "press-01"), text("marker"), 1, false);
    assertEquals("marker", inbox3.next(10_000).text());
    snoop.assertEmpty(300);
    inbox2.assertEmpty(300);
  }

  @Test
  void onlyTheAggregatorPublishesTheGlobalModelAndReadsUpdates() throws Exception {
    Transport agg = as("aggregator");
    Transport cell = as("cell-1");
    Inbox globals = new Inbox();
    cell.subscribe(T.starGlobal(), 1, globals);
    Inbox updates = new Inbox();
    agg.subscribe(T.starUpdates(), 1, updates);
    cell.publish(T.starGlobal(), text("forged global"), 1, false);
    cell.publish(T.starUpdate("press-01"), text("update as someone else"), 1, false);
    cell.publish(T.starUpdate("cell-1"), text("update from cell-1"), 1, false);
    assertEquals("update from cell-1", updates.next(10_000).text());
    agg.publish(T.starGlobal(), text("global round 2"), 1, false);
    assertEquals("global round 2", globals.next(10_000).text());
    globals.assertEmpty(300);
    updates.assertEmpty(300);
  }

  /** A peer keeps its instance token under its own id only, and reads its own (another device with its id). */
  @Test
  void aPeerKeepsItsInstanceTokenOnlyUnderItsOwnId() throws Exception {
    Transport p1 = as("press-01");
    Transport p2 = as("press-02");
    Inbox own = new Inbox();
    p1.subscribe(T.peerInstance("press-01"), 1, own);
    p2.publish(T.peerInstance("press-01"), text("1 ab"), 1, true); // as someone else: dropped
    p1.publish(T.peerInstance("press-01"), text("2 cd"), 1, true);
    assertEquals("2 cd", own.next(10_000).text());
    own.assertEmpty(300);
  }

  /** A final model kept in chunks (broker.max-packet below its size) is written and read on its part topics. */
  @Test
  void everyPeerKeepsAndReadsTheFinalModelAlsoInParts() throws Exception {
    Transport last = as("press-03");
    String part = io.hdfl.federation.FrameChannel.partTopic(T.finalModel(), 0);
    last.publish(part, text("chunk 0"), 1, true);
    last.publish(T.finalModel(), text("whole"), 1, true);
    Transport restarted = as("press-01");
    Inbox kept = new Inbox();
    restarted.subscribe(T.finalModel() + "/part/+", 1, kept);
    assertEquals("chunk 0", kept.next(10_000).text());
    Inbox whole = new Inbox();
    restarted.subscribe(T.finalModel(), 1, whole);
    assertEquals("whole", whole.next(10_000).text());
  }

  @Test
  void wrongPasswordsAndAnonymousClientsAreRefused() {
    assertThrows(TransportException.class, () -> as("press-01", "wrong"));
    assertThrows(TransportException.class, () -> as(null, null));
  }
}
