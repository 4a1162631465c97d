package io.hdfl.federation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hdfl.transport.LastWill;
import io.hdfl.transport.LoopbackBroker;
import io.hdfl.transport.MqttSettings;
import io.hdfl.transport.MqttTransport;
import io.hdfl.transport.Transport;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fault injector itself: each fault does what it says, reproducibly (over the in-process loopback,
 * fast and strictly ordered), and a kill resets a real connection (a Mosquitto process the test
 * starts) so the broker publishes the last will.
 */
class FaultyTransportTest {
  static final int N = 200;
  static final int SIZE = 64;
  static final String TOPIC = "faults/test";

  @TempDir Path dir;
  private final LoopbackBroker loopback = new LoopbackBroker();

  /** One delivery as a handler saw it. */
  record Arrival(int index, byte[] payload, long latencyNanos) {}

  /** Message i: its index, a fixed pattern, and a CRC-32 of both. */
  private static byte[] message(int i) {
    ByteBuffer b = ByteBuffer.allocate(SIZE).putInt(i);
    while (b.position() < SIZE - 4) {
      b.put((byte) (b.position() * 7));
    }
    java.util.zip.CRC32 crc = new java.util.zip.CRC32();
    crc.update(b.array(), 0, SIZE - 4);
    return b.putInt((int) crc.getValue()).array();
  }

  /** Whether a payload is one of the messages as sent (a CRC-32 catches every flip of up to 4 bits here). */
  private static boolean intact(byte[] p) {
    return p.length == SIZE && Arrays.equals(p, message(ByteBuffer.wrap(p).getInt()));
  }

  /** Whether {@code p} is a message sent, cut short. */
  private static boolean truncated(byte[] p) {
    for (int i = 0; i < N; i++) {
      if (p.length < SIZE && Arrays.equals(p, Arrays.copyOf(message(i), p.length))) {
        return true;
      }
    }
    return false;
  }

  /** The fewest bits in which {@code p} differs from any message sent. */
  private static int flippedBits(byte[] p) {
    if (p.length != SIZE) {
      return Integer.MAX_VALUE;
    }
    int best = Integer.MAX_VALUE;
    for (int i = 0; i < N; i++) {
      byte[] m = message(i);
      int n = 0;
      for (int k = 0; k < SIZE; k++) {
        n += Integer.bitCount((p[k] ^ m[k]) & 0xff);
      }
      best = Math.min(best, n);
    }
    return best;
  }

  /** Publishes N messages to a subscriber connected through {@code plan} and returns what it got, in order. */
  private List<Arrival> deliver(DeliveryFaults plan, String clientId, long settleMillis) throws Exception {
    List<Arrival> got = Collections.synchronizedList(new ArrayList<>());
    long[] sentAt = new long[N];
    AtomicInteger inHandler = new AtomicInteger();
    AtomicInteger overlaps = new AtomicInteger();
    try (FaultyTransport sub = new FaultyTransport(loopback.connect(clientId), plan);
        Transport pub = loopback.connect(clientId + "-pub")) {
      sub.subscribe(TOPIC + "/" + clientId, 1, (topic, payload, retained) -> {
        if (inHandler.incrementAndGet() > 1) {
          overlaps.incrementAndGet();
        }
        long now = System.nanoTime();
        int index = payload.length >= 4 ? ByteBuffer.wrap(payload).getInt() : -1;
        long sent = index >= 0 && index < N ? sentAt[index] : now;
        got.add(new Arrival(index, payload, now - sent));
        inHandler.decrementAndGet();
      });
      for (int i = 0; i < N; i++) {
        sentAt[i] = System.nanoTime();
        pub.publish(TOPIC + "/" + clientId, message(i), 1, false);
      }
      Thread.sleep(settleMillis);
    }
    assertEquals(0, overlaps.get(), "handlers ran one at a time");
    return new ArrayList<>(got);
  }

  /** What happened to each message: how many intact copies arrived, and whether a changed one did. */
  private static String fates(List<Arrival> got) {
    int[] copies = new int[N];
    int changed = 0;
    for (Arrival a : got) {
      if (intact(a.payload())) {
        copies[a.index()]++;
      } else {
        changed++;
      }
    }
    return Arrays.toString(copies) + " changed=" + changed;
  }

  @Test
  void theSameSeedInjectsTheSameFaultsAndAnotherSeedOthers() throws Exception {
    DeliveryFaults plan = DeliveryFaults.seeded(99).dropping(0.1).corrupting(0.1).duplicating(0.1);
    String first = fates(deliver(plan, "repro", 100));
    assertEquals(first, fates(deliver(plan, "repro", 100)), "seed 99 replays its faults");
    assertNotEquals(first, fates(deliver(plan.reseeded(100), "repro", 100)));
  }

  @Test
  void dropsCorruptsAndDuplicatesAboutAsOftenAsPlanned() throws Exception {
    List<Arrival> got = deliver(DeliveryFaults.seeded(1).dropping(0.2), "drop", 100);
    assertTrue(got.size() > N * 0.7 && got.size() < N * 0.9, got.size() + " of " + N + " arrived");
    assertTrue(got.stream().allMatch(a -> intact(a.payload())));

    got = deliver(DeliveryFaults.seeded(2).duplicating(0.2), "dup", 100);
    assertTrue(got.size() > N * 1.1 && got.size() < N * 1.3, got.size() + " deliveries of " + N);
    assertEquals(N, got.stream().mapToInt(Arrival::index).distinct().count(), "every message, some twice");

    got = deliver(DeliveryFaults.seeded(3).corrupting(0.3), "corrupt", 100);
    assertEquals(N, got.size());
    List<byte[]> changed = got.stream().map(Arrival::payload).filter(p -> !intact(p)).toList();
    assertTrue(changed.size() > N * 0.2 && changed.size() < N * 0.4, changed.size() + " corrupted");
    assertTrue(changed.stream().anyMatch(FaultyTransportTest::truncated), "some cut short");
    assertTrue(changed.stream().anyMatch(p -> p.length == SIZE && flippedBits(p) <= 4), "some with a few bits flipped");
    assertTrue(changed.stream().anyMatch(p -> !truncated(p) && flippedBits(p) > 16), "some replaced by garbage");
  }

  @Test
  void delaysAndReordersButLosesNothing() throws Exception {
    List<Arrival> got = deliver(DeliveryFaults.seeded(4).delaying(0.5, 50, 500), "delay", 800);
    assertEquals(N, got.size());
    long late = got.stream().filter(a -> a.latencyNanos() >= 50_000_000L).count();
    assertTrue(late > N * 0.4 && late < N * 0.6, late + " delayed");
    assertTrue(got.stream().allMatch(a -> a.latencyNanos() < 700_000_000L), "none much beyond 500 ms");

    got = deliver(DeliveryFaults.seeded(5).reordering(0.2, 300), "reorder", 500);
    assertEquals(N, got.size());
    int inversions = 0;
    for (int i = 1; i < got.size(); i++) {
      if (got.get(i).index() < got.get(i - 1).index()) {
        inversions++;
      }
    }
    assertTrue(inversions > N * 0.1 && inversions < N * 0.3, inversions + " held back behind a later one");
  }

  @Test
  void killResetsTheConnectionSoTheLastWillFiresWhileCloseDoesNot() throws Exception {
    TestBroker broker = TestBroker.Kind.MOSQUITTO.start(dir);
    MqttSettings base = MqttSettings.builder(broker.uri()).build();
    byte[] gone = "gone".getBytes(StandardCharsets.US_ASCII);
    try (Transport observer = MqttTransport.connect(base.withClientId("will-observer"))) {
      List<String> wills = Collections.synchronizedList(new ArrayList<>());
      CompletableFuture<Void> any = new CompletableFuture<>();
      observer.subscribe("faults/will/+", 1, (topic, payload, retained) -> {
        wills.add(topic);
        any.complete(null);
      });
      FaultyTransport closed = new FaultyTransport(MqttTransport.connect(base.withClientId("closed")
          .withWill(new LastWill("faults/will/closed", gone, 1, false))), DeliveryFaults.seeded(1));
      FaultyTransport killed = new FaultyTransport(MqttTransport.connect(base.withClientId("killed")
          .withWill(new LastWill("faults/will/killed", gone, 1, false))), DeliveryFaults.seeded(1));
      closed.close();
      killed.kill();
      any.get(5, TimeUnit.SECONDS);
      Thread.sleep(300);
      assertEquals(List.of("faults/will/killed"), wills);
      assertFalse(killed.isConnected());
      assertTrue(killed.killed());
    } finally {
      broker.close();
    }
  }

}
