package io.hdfl.device;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hdfl.federation.Topics;
import io.hdfl.transport.LoopbackBroker;
import io.hdfl.transport.MessageHandler;
import io.hdfl.transport.Transport;
import io.hdfl.transport.TransportException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PeerInstanceTest {
  private static final Topics TOPICS = new Topics("plant-7");
  private static final long DAY_MS = 24L * 3600 * 1000;

  @TempDir Path dir;

  private static void say(Transport t, String token) throws TransportException {
    t.publish(TOPICS.peerInstance("press-01"), token.getBytes(StandardCharsets.US_ASCII), 1, false);
  }

  /**
   * A second device under press-01's id, started after the first: its token reaches the first, which
   * stops naming the id; the second ignores the first's retained token (published before it started),
   * and both ignore the token of an earlier run, tokens that do not parse or are dated more than a day
   * ahead, and their own token coming back.
   */
  @Test
  void aSecondDeviceUnderTheSameIdIsToldAndOldOrImplausibleTokensAreNot() throws Exception {
    LoopbackBroker broker = new LoopbackBroker();
    try (Transport earlier = broker.connect("earlier"); Transport a = broker.connect("a");
        Transport b = broker.connect("b"); Transport other = broker.connect("other")) {
      String topic = TOPICS.peerInstance("press-01");
      earlier.publish(topic, "500 abc".getBytes(StandardCharsets.US_ASCII), 1, true); // a finished run's token
      PeerInstance first = PeerInstance.watch(a, TOPICS, "press-01", () -> 1_000, Files.createDirectories(dir.resolve("a")));
      for (String junk : new String[] {"", "online", "x y", "99999999999999999999 1", "2000 1 2", "2000 zz"}) {
        say(other, junk);
      }
      say(other, "900 5"); // older than its start
      say(other, (1_000 + DAY_MS + 1) + " 6"); // more than a day ahead of its clock
      PeerInstance unrelated = PeerInstance.watch(other, TOPICS, "press-02", () -> 1_500,
          Files.createDirectories(dir.resolve("other")));
      Thread.sleep(100);
      assertFalse(first.twin().isDone(), "nothing but old or implausible tokens, junk and its own");
      PeerInstance second = PeerInstance.watch(b, TOPICS, "press-01", () -> 2_000,
          Files.createDirectories(dir.resolve("b")));
      ExecutionException e = assertThrows(ExecutionException.class, () -> first.twin().get(5, TimeUnit.SECONDS));
      assertTrue(e.getCause().getMessage().startsWith("another device runs as peer.id 'press-01'"),
          e.getCause().getMessage());
      assertTrue(e.getCause().getMessage().contains("give each device its own peer.id"), e.getCause().getMessage());
      Thread.sleep(100);
      assertFalse(second.twin().isDone(), "the first's token was published before the second started");
      assertFalse(unrelated.twin().isDone());
    }
  }

  /**
   * A device restarted with its clock stepped back (a Pi without a real-time clock after a power cut):
   * its previous process's token is dated after this start, yet it is known by its number, kept in the
   * state directory, and not taken for a twin; another number at that date is.
   */
  @Test
  void aRestartWithTheClockSteppedBackIsNotATwin() throws Exception {
    LoopbackBroker broker = new LoopbackBroker();
    Path state = Files.createDirectories(dir.resolve("state"));
    try (Transport before = broker.connect("before")) {
      PeerInstance.watch(before, TOPICS, "press-01", () -> 50_000, state);
    }
    String previous = Files.readString(state.resolve(PeerInstance.FILE)).strip();
    try (Transport after = broker.connect("after"); Transport other = broker.connect("other")) {
      PeerInstance restarted = PeerInstance.watch(after, TOPICS, "press-01", () -> 10_000, state);
      say(other, "50000 " + previous); // the previous process's token again, dated after this start
      Thread.sleep(100);
      assertFalse(restarted.twin().isDone(), "its own previous process");
      say(other, "50000 1234");
      assertThrows(ExecutionException.class, () -> restarted.twin().get(5, TimeUnit.SECONDS));
    }
  }

  /** A broker whose ACL refuses the topic (SUBACK failure): the device goes on without the check. */
  @Test
  void aBrokerThatRefusesTheTopicLeavesTheCheckOff() throws Exception {
    try (Transport refusing = new io.hdfl.federation.ForwardingTransport(new LoopbackBroker().connect("r")) {
      @Override
      public void subscribe(String filter, int qos, MessageHandler handler) throws TransportException {
        throw new TransportException("subscription to " + filter + " refused by the broker");
      }
    }) {
      PeerInstance p = PeerInstance.watch(refusing, TOPICS, "press-01", () -> 1_000, dir);
      assertFalse(p.twin().isDone());
      long t0 = System.nanoTime();
      assertTrue(p.awaitOwnToken(java.time.Duration.ofSeconds(30))); // nothing comes back: no wait
      assertTrue(System.nanoTime() - t0 < 5_000_000_000L, "waited for a token that cannot come");
    }
  }

  /**
   * Once a device's own token is back, the retained messages of the subscriptions its connection made
   * before have been handled, however slowly (a device takes a final model it is handed before that
   * for an earlier run's). Over a real MQTT broker, whose connection delivers in order on one thread.
   */
  @Test
  void whenItsOwnTokenIsBackTheRetainedMessagesBeforeItHaveBeenHandled() throws Exception {
    String finalTopic = "hdfl/plant-7/model/final";
    try (io.hdfl.transport.EmbeddedBroker broker = new io.hdfl.transport.EmbeddedBroker().start();
        Transport earlier = connect(broker, "earlier"); Transport probe = connect(broker, "probe");
        Transport device = connect(broker, "device")) {
      earlier.publish(finalTopic, "an earlier run's".getBytes(StandardCharsets.US_ASCII), 1, true);
      // Moquette acknowledges a QoS 1 publish before it stores the retained copy: wait until it has
      java.util.concurrent.CountDownLatch stored = new java.util.concurrent.CountDownLatch(1);
      probe.subscribe(finalTopic, 1, (topic, payload, retained) -> stored.countDown());
      for (int i = 0; i < 100 && stored.getCount() > 0; i++) {
        if (!stored.await(50, TimeUnit.MILLISECONDS)) {
          probe.unsubscribe(finalTopic);
          probe.subscribe(finalTopic, 1, (topic, payload, retained) -> stored.countDown());
        }
      }
      assertTrue(stored.await(1, TimeUnit.SECONDS), "the broker never kept the retained message");
      java.util.concurrent.atomic.AtomicBoolean handled = new java.util.concurrent.atomic.AtomicBoolean();
      device.subscribe(finalTopic, 1, (topic, payload, retained) -> {
        try {
          Thread.sleep(300); // slower than the token's round trip
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        handled.set(true);
      });
      PeerInstance p = PeerInstance.watch(device, TOPICS, "press-01", System::currentTimeMillis, dir);
      assertTrue(p.awaitOwnToken(java.time.Duration.ofSeconds(10)), "the token never came back");
      assertTrue(handled.get(), "the retained message was not handled when the token came back");
    }
  }

  private static Transport connect(io.hdfl.transport.EmbeddedBroker broker, String id) throws TransportException {
    return io.hdfl.transport.MqttTransport.connect(io.hdfl.transport.MqttSettings.builder(broker.uri()).clientId(id)
        .build());
  }
}
