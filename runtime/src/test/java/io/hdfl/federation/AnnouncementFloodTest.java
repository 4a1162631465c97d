package io.hdfl.federation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hdfl.hd.EncodedSet;
import io.hdfl.privacy.ledger.LedgerCodec;
import io.hdfl.privacy.ledger.PrivacyLedger;
import io.hdfl.privacy.schedule.ScheduleMode;
import io.hdfl.transport.LoopbackBroker;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Peer announcements are not authenticated: anyone who can publish to the federation's topics can
 * announce a peer "online" as often as they like. What such a flood may cost is bounded: a ring hand-off
 * is sent again at once at most {@link RingPeer#MOST_COMEBACKS} times, and a star client sends its
 * update again at most once per {@link StarClient#RESEND_AFTER}. Before, a flood for a dead ring peer
 * held its predecessor's hand-off for ever, publishing the model once per announcement, and every
 * forged announcement of the aggregator queued a publish of each client's update.
 */
class AnnouncementFloodTest {
  @Test
  void aFloodOfAnnouncementsOfADeadRingPeerDoesNotHoldItsHandOff() throws Exception {
    List<String> ring = List.of("peer-0", "peer-1", "peer-2");
    FederationSettings s = FederationFixture.ring(ScheduleMode.PRIVATEDFL, 2).ackTimeout(Duration.ofMillis(300)).build();
    List<EncodedSet> shards = FederationFixture.shards(ring.size(), 20);
    AtomicInteger handed = new AtomicInteger();
    AtomicBoolean done = new AtomicBoolean();
    try (LoopbackRing r = LoopbackRing.start(s, ring, (i, ctx) -> new RingPeer(ctx, ring, shards.get(i)),
        (id, keys) -> keys, (id, t) -> id.equals("peer-1") ? new DeafTransport(t) : t)) {
      r.broker.connect("spy").subscribe(new Topics(s.federation()).ringIn("peer-1", "peer-0"), 1,
          (topic, payload, retained) -> handed.incrementAndGet());
      Thread flood = new Thread(() -> {
        while (!done.get()) {
          r.peers.get(0).peerOnline("peer-1");
          try {
            Thread.sleep(2);
          } catch (InterruptedException e) {
            return;
          }
        }
      });
      flood.start();
      try {
        var fin = r.fin.get(30, TimeUnit.SECONDS);
        assertTrue(fin.ledgerLines().stream().noneMatch(l -> LedgerCodec.parse(l).peer().equals("peer-1")),
            "peer-1 was skipped");
      } finally {
        done.set(true);
        flood.join();
      }
      // two hand-offs to peer-1 (one a round), each sent at most ACK_ATTEMPTS + MOST_COMEBACKS times
      assertTrue(handed.get() >= 4 && handed.get() <= 2 * (2 + RingPeer.MOST_COMEBACKS), "sent " + handed.get());
    }
  }

  @Test
  void aFloodOfAnnouncementsOfTheAggregatorMakesAClientSendItsUpdateAgainAtMostOnceAPeriod() throws Exception {
    FederationSettings s = FederationFixture.star(2, 10).build();
    LoopbackBroker broker = new LoopbackBroker();
    AtomicInteger sent = new AtomicInteger();
    broker.connect("spy").subscribe(new Topics(s.federation()).starUpdate("client-001"), 1,
        (topic, payload, retained) -> sent.incrementAndGet());
    PrivacyLedger ledger = PrivacyLedger.inMemory(s.ledgerSettings());
    // two clients, of which only client-001 runs: round 1 waits for client-002 for ever
    try (StarClient c = new StarClient(FederationFixture.context("client-001", s, broker), FederationFixture.shards(1, 20).get(0));
        StarAggregator agg = new StarAggregator(FederationFixture.context("aggregator", s, broker), 2, FederationFixture.CLASSES, ledger)) {
      c.start();
      agg.start();
      assertTrue(FederationFixture.waitFor(() -> sent.get() == 1, 10_000), "client-001 answered round 1");
      long t0 = System.nanoTime();
      for (int i = 0; i < 5000; i++) {
        c.peerOnline("aggregator");
      }
      long floodNanos = System.nanoTime() - t0;
      Thread.sleep(300);
      long periods = 1 + (floodNanos + TimeUnit.MILLISECONDS.toNanos(300)) / StarClient.RESEND_AFTER;
      // at most one resend per period of the flood, plus what the aggregator's re-announcements bring
      assertTrue(sent.get() - 1 <= 2 * periods, "sent " + sent.get() + " times in " + floodNanos / 1e6 + " ms");
      assertEquals(0, ledger.size(), "round 1 still waits");
    }
  }
}
