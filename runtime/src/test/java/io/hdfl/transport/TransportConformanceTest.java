package io.hdfl.transport;

import static io.hdfl.transport.Inbox.utf8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The behaviour every {@link Transport} must have; one subclass per implementation. Each test uses its
 * own random topic prefix and client ids, so runs against a shared broker do not interfere, and
 * clears the retained messages it creates.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class TransportConformanceTest {
  static final long WAIT_MS = 10_000;
  /** How long to wait for something that must not arrive, where no marker message can bound it. */
  static final long QUIET_MS = 300;

  /** Random per test class instance: client ids and topics of concurrent runs never collide. */
  final String run = Long.toHexString(ThreadLocalRandom.current().nextLong() & 0xFFFF_FFFFL);
  private int testNumber;
  /** Random-based topic prefix of the current test. */
  String prefix;
  /** Long-lived transports shared by the tests (as a peer keeps one connection); see {@link #sub}. */
  private Transport sharedPub;
  private Transport sharedSub;
  private final List<Transport> opened = new ArrayList<>();
  private final List<String> sharedFilters = new ArrayList<>();
  private final Set<String> retainedTopics = new LinkedHashSet<>();

  /** Connects a new transport with the given client id and last will (nullable). */
  abstract Transport connect(String clientId, LastWill will) throws Exception;

  /** Kills {@code t} abruptly: no clean disconnect, so the broker must publish its last will. */
  abstract void crash(Transport t) throws Exception;

  /**
   * Whether the broker sets the RETAIN flag on retained messages sent to a new QoS 1 subscription, as
   * MQTT 3.1.1 §3.3.1.3 requires.
   */
  boolean flagsRetainedAtQos1() {
    return true;
  }

  /** Skips the class (with an assumption) when the implementation is not available here. */
  void assumeAvailable() {}

  @BeforeAll
  void connectShared() throws Exception {
    assumeAvailable();
    sharedPub = connect("h" + run + "-pub", null);
    sharedSub = connect("h" + run + "-sub", null);
  }

  @AfterAll
  void closeShared() {
    if (sharedPub != null) {
      sharedPub.close();
    }
    if (sharedSub != null) {
      sharedSub.close();
    }
  }

  @BeforeEach
  void newPrefix() {
    prefix = "hdfl-test/" + run + "-" + (++testNumber) + "/";
  }

  /** The shared publishing transport. */
  Transport pub() {
    return sharedPub;
  }

  /** Subscribes the shared subscribing transport; the subscription ends with the test. */
  Transport sub(String filter, int qos, MessageHandler handler) throws TransportException {
    sharedFilters.add(filter);
    sharedSub.subscribe(filter, qos, handler);
    return sharedSub;
  }

  Transport open(String name) throws Exception {
    return open(name, null);
  }

  Transport open(String name, LastWill will) throws Exception {
    Transport t = connect("h" + run + "-" + testNumber + name, will);
    opened.add(t);
    return t;
  }

  /**
   * Publishes a retained message and returns once the broker has stored it. A PUBACK alone does not
   * say so: Moquette 0.17 acknowledges a QoS 1 publish before it stores the retained copy
   * (PostOffice.receivedPublishQos1 calls sendPubAck, then manageRetain), so a subscription made
   * right after the PUBACK can miss the message entirely. A broker handles one connection's
   * packets in order, so the PUBACK of a second publish on the same connection is a barrier.
   */
  void publishRetained(Transport t, String topic, byte[] payload) throws TransportException {
    retainedTopics.add(topic);
    t.publish(topic, payload, 1, true);
    t.publish(prefix + "barrier", new byte[0], 1, false);
  }

  @AfterEach
  void cleanUp() throws Exception {
    try {
      for (String topic : retainedTopics) {
        sharedPub.publish(topic, new byte[0], 1, true);
      }
      for (String filter : sharedFilters) {
        sharedSub.unsubscribe(filter);
      }
    } finally {
      retainedTopics.clear();
      sharedFilters.clear();
      for (Transport t : opened) {
        t.close();
      }
      opened.clear();
    }
  }

  @Test
  void exactTopicIsDeliveredAndOthersAreNot() throws Exception {
    Transport pub = pub();
    Transport sub = sharedSub;
    Inbox inbox = new Inbox();
    sub(prefix + "a/b", 1, inbox);
    pub.publish(prefix + "a/c", utf8("other"), 1, false);
    pub.publish(prefix + "a/b/c", utf8("deeper"), 1, false);
    pub.publish(prefix + "a/b", utf8("hello"), 1, false);
    Inbox.Message m = inbox.next(WAIT_MS);
    assertEquals(prefix + "a/b", m.topic());
    assertEquals("hello", m.text());
    assertFalse(m.retained());
    inbox.assertEmpty(QUIET_MS);
  }

  @Test
  void plusMatchesExactlyOneLevel() throws Exception {
    Transport pub = pub();
    Transport sub = sharedSub;
    Inbox inbox = new Inbox();
    sub(prefix + "sensors/+/temp", 1, inbox);
    for (String t : List.of("sensors/a/temp", "sensors/a/b/temp", "sensors/temp", "sensors/b/temp/x",
        "sensors/b/temp")) {
      pub.publish(prefix + t, utf8(t), 1, false);
    }
    assertEquals(prefix + "sensors/a/temp", inbox.next(WAIT_MS).topic());
    assertEquals(prefix + "sensors/b/temp", inbox.next(WAIT_MS).topic());
    inbox.assertEmpty(QUIET_MS);
  }

  @Test
  void hashMatchesTheParentAndEverythingBelow() throws Exception {
    Transport pub = pub();
    Transport sub = sharedSub;
    Inbox inbox = new Inbox();
    sub(prefix + "ring/#", 1, inbox);
    for (String t : List.of("ringx/1", "ring", "other/ring/1", "ring/1/in", "ring/2/ack/x")) {
      pub.publish(prefix + t, utf8(t), 1, false);
    }
    Set<String> got = new HashSet<>();
    for (int i = 0; i < 3; i++) {
      got.add(inbox.next(WAIT_MS).topic());
    }
    assertEquals(Set.of(prefix + "ring", prefix + "ring/1/in", prefix + "ring/2/ack/x"), got);
    inbox.assertEmpty(QUIET_MS);
  }

  @Test
  void retainedMessageReachesLaterSubscribersUntilClearedByAnEmptyOne() throws Exception {
    Transport pub = pub();
    String topic = prefix + "star/global";
    publishRetained(pub, topic, utf8("model v1"));
    publishRetained(pub, topic, utf8("model v2"));

    Inbox inbox = new Inbox();
    sub(prefix + "star/+", 1, inbox);
    Inbox.Message m = inbox.next(WAIT_MS);
    assertEquals(topic, m.topic());
    assertEquals("model v2", m.text(), "only the last retained message is kept");
    if (flagsRetainedAtQos1()) {
      assertTrue(m.retained(), "delivered because of the subscription: flagged retained");
    }

    publishRetained(pub, topic, new byte[0]); // clears it; the current subscriber still sees it
    Inbox.Message cleared = inbox.next(WAIT_MS);
    assertEquals(0, cleared.payload().length);

    sharedSub.unsubscribe(prefix + "star/+");
    Inbox after = new Inbox();
    sub(prefix + "star/#", 1, after);
    pub.publish(topic, utf8("marker"), 1, false); // a retained message would have come before it
    Inbox.Message first = after.next(WAIT_MS);
    assertEquals("marker", first.text());
    assertFalse(first.retained());
  }

  @Test
  void retainedMessageToANewQos0SubscriptionIsFlaggedRetained() throws Exception {
    publishRetained(pub(), prefix + "r0", utf8("kept"));
    Inbox inbox = new Inbox();
    sub(prefix + "r0", 0, inbox);
    Inbox.Message m = inbox.next(WAIT_MS);
    assertEquals("kept", m.text());
    assertTrue(m.retained());
    pub().publish(prefix + "r0", utf8("live"), 0, false);
    Inbox.Message live = inbox.next(WAIT_MS);
    assertEquals("live", live.text());
    assertFalse(live.retained());
  }

  @Test
  void qos1MessagesFromOnePublisherArriveAllAndInOrder() throws Exception {
    Transport pub = pub();
    Transport sub = sharedSub;
    Inbox inbox = new Inbox();
    sub(prefix + "seq", 1, inbox);
    int n = 200;
    for (int i = 0; i < n; i++) {
      pub.publish(prefix + "seq", ByteBuffer.allocate(4).putInt(i).array(), 1, false);
    }
    for (int i = 0; i < n; i++) {
      assertEquals(i, ByteBuffer.wrap(inbox.next(WAIT_MS).payload()).getInt(), "message " + i);
    }
    inbox.assertEmpty(50);
  }

  @Test
  void oneAndFourMegabytePayloadsArriveIntact() throws Exception {
    Transport pub = pub();
    Transport sub = sharedSub;
    Inbox inbox = new Inbox();
    sub(prefix + "big/+", 1, inbox);
    Random rnd = new Random(42);
    byte[] oneMb = new byte[1 << 20];
    byte[] fourMb = new byte[4 << 20];
    rnd.nextBytes(oneMb);
    rnd.nextBytes(fourMb);
    pub.publish(prefix + "big/1", oneMb, 1, false);
    pub.publish(prefix + "big/4", fourMb, 1, false);
    Inbox.Message a = inbox.next(WAIT_MS);
    Inbox.Message b = inbox.next(WAIT_MS);
    assertEquals(prefix + "big/1", a.topic());
    assertArrayEquals(oneMb, a.payload());
    assertEquals(prefix + "big/4", b.topic());
    assertArrayEquals(fourMb, b.payload());
  }

  @Test
  void lastWillIsPublishedWhenAClientDiesAbruptlyButNotOnClose() throws Exception {
    Inbox inbox = new Inbox();
    sub(prefix + "peers/+", 1, inbox);

    Transport polite = open("polite", new LastWill(prefix + "peers/polite", utf8("offline"), 1, false));
    polite.close();
    Transport victim = open("victim", new LastWill(prefix + "peers/victim", utf8("offline"), 1, false));
    assertTrue(victim.isConnected());
    long t0 = System.nanoTime();
    crash(victim);
    assertFalse(victim.isConnected());
    Inbox.Message m = inbox.next(WAIT_MS);
    assertEquals(prefix + "peers/victim", m.topic(), "a clean close must not publish the will");
    assertEquals("offline", m.text());
    assertTrue(System.nanoTime() - t0 < 5_000_000_000L, "will must follow the crash promptly");
    assertThrows(TransportException.class, () -> victim.publish(prefix + "x", utf8("x"), 0, false));
  }

  @Test
  void unsubscribeStopsDelivery() throws Exception {
    Transport pub = pub();
    Transport sub = sharedSub;
    Inbox gone = new Inbox();
    Inbox kept = new Inbox();
    sub(prefix + "gone", 1, gone);
    sub(prefix + "kept", 1, kept);
    pub.publish(prefix + "gone", utf8("1"), 1, false);
    assertEquals("1", gone.next(WAIT_MS).text());
    sub.unsubscribe(prefix + "gone");
    pub.publish(prefix + "gone", utf8("2"), 1, false);
    pub.publish(prefix + "kept", utf8("marker"), 1, false);
    assertEquals("marker", kept.next(WAIT_MS).text());
    gone.assertEmpty(QUIET_MS);
  }

  @Test
  void statsCountPayloadAndTopicBytesAndMessages() throws Exception {
    Transport sub = open("sub");
    Transport pub = open("pub");
    Inbox inbox = new Inbox();
    sub.subscribe(prefix + "stats/#", 0, inbox);
    TransportStats subBefore = sub.stats();
    TransportStats pubBefore = pub.stats();
    String topic = prefix + "stats/é"; // 2 UTF-8 bytes
    int topicBytes = topic.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
    int[] sizes = {0, 10, 1000};
    long bytes = 0;
    for (int size : sizes) {
      pub.publish(topic, new byte[size], 1, false);
      bytes += size + topicBytes;
    }
    for (int i = 0; i < sizes.length; i++) {
      inbox.next(WAIT_MS);
    }
    TransportStats sent = pub.stats().since(pubBefore);
    TransportStats received = sub.stats().since(subBefore);
    assertEquals(new TransportStats(3, bytes, 0, 0), sent);
    assertEquals(new TransportStats(0, 0, 3, bytes), received);
  }

  @Test
  void operationsAfterCloseFailAndCloseIsIdempotent() throws Exception {
    Transport t = open("closing");
    assertTrue(t.isConnected());
    t.close();
    assertFalse(t.isConnected());
    assertDoesNotThrow(t::close);
    assertThrows(TransportException.class, () -> t.publish(prefix + "x", utf8("x"), 1, false));
    assertThrows(TransportException.class, () -> t.publish(prefix + "x", utf8("x"), 0, false));
    assertThrows(TransportException.class, () -> t.subscribe(prefix + "x", 1, new Inbox()));
  }

  @Test
  void aThrowingHandlerDoesNotStopLaterDeliveries() throws Exception {
    Transport pub = pub();
    Transport sub = sharedSub;
    Inbox inbox = new Inbox();
    AtomicInteger calls = new AtomicInteger();
    sub(prefix + "boom", 1, (topic, payload, retained) -> {
      calls.incrementAndGet();
      throw new IllegalStateException("handler failure (expected by the test)");
    });
    sub(prefix + "fine", 1, inbox);
    pub.publish(prefix + "boom", utf8("1"), 1, false);
    pub.publish(prefix + "fine", utf8("2"), 1, false);
    assertEquals("2", inbox.next(WAIT_MS).text());
    assertEquals(1, calls.get());
    assertTrue(sub.isConnected());
  }

  @Test
  void aHandlerMayPublishWithQos1() throws Exception {
    Transport echo = open("echo");
    Transport client = pub();
    echo.subscribe(prefix + "ping", 1, (topic, payload, retained) -> {
      try {
        echo.publish(prefix + "pong", payload, 1, false);
      } catch (TransportException e) {
        throw new IllegalStateException(e);
      }
    });
    Inbox inbox = new Inbox();
    sub(prefix + "pong", 1, inbox);
    for (int i = 0; i < 20; i++) {
      client.publish(prefix + "ping", utf8("p" + i), 1, false);
      assertEquals("p" + i, inbox.next(WAIT_MS).text());
    }
  }

  @Test
  void handlersRunOneAtATimeOnATransportThread() throws Exception {
    Transport pub = pub();
    Transport sub = sharedSub;
    AtomicInteger active = new AtomicInteger();
    AtomicInteger maxActive = new AtomicInteger();
    Inbox inbox = new Inbox();
    MessageHandler slow = (topic, payload, retained) -> {
      maxActive.accumulateAndGet(active.incrementAndGet(), Math::max);
      try {
        Thread.sleep(2);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      active.decrementAndGet();
      inbox.onMessage(topic, payload, retained);
    };
    sub(prefix + "p/a", 0, slow);
    sub(prefix + "p/b", 0, slow);
    for (int i = 0; i < 20; i++) {
      pub.publish(prefix + (i % 2 == 0 ? "p/a" : "p/b"), utf8("m" + i), 1, false);
    }
    for (int i = 0; i < 20; i++) {
      Inbox.Message m = inbox.next(WAIT_MS);
      assertEquals("m" + i, m.text());
      assertFalse(m.thread().equals(Thread.currentThread().getName()));
    }
    assertEquals(1, maxActive.get());
  }

  @Test
  void invalidTopicsAndQosAreRejected() throws Exception {
    Transport t = pub();
    assertThrows(IllegalArgumentException.class, () -> t.publish(prefix + "a/+", utf8("x"), 1, false));
    assertThrows(IllegalArgumentException.class, () -> t.publish("", utf8("x"), 1, false));
    assertThrows(IllegalArgumentException.class, () -> t.publish(prefix + "a", utf8("x"), 2, false));
    assertThrows(IllegalArgumentException.class, () -> t.subscribe(prefix + "a/#/b", 1, new Inbox()));
    assertThrows(IllegalArgumentException.class, () -> t.subscribe(prefix + "a+", 1, new Inbox()));
    assertTrue(t.isConnected());
  }
}
