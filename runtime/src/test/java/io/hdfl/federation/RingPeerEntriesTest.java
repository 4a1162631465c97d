package io.hdfl.federation;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hdfl.codec.ModelEnvelope;
import io.hdfl.hd.EncodedSet;
import io.hdfl.privacy.ledger.LedgerCodec;
import io.hdfl.privacy.schedule.ScheduleMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** {@link RingPeer#reportingEntries}: what a simulation builds its ledger from. */
class RingPeerEntriesTest {
  private static final List<String> RING = List.of("peer-0", "peer-1", "peer-2");
  private static final int ROUNDS = 2;

  @Test
  void eachPeerReportsEachEntryItSignsAsTheFinalModelCarriesIt() throws Exception {
    FederationSettings s = FederationFixture.ring(ScheduleMode.PRIVATEDFL, ROUNDS).build();
    List<EncodedSet> shards = FederationFixture.shards(RING.size(), 20);
    Map<String, List<String>> reported = new ConcurrentHashMap<>();
    try (LoopbackRing ring = LoopbackRing.start(s, RING, (i, ctx) -> new RingPeer(ctx, RING, shards.get(i))
        .reportingEntries(reported.computeIfAbsent(ctx.id(), id -> new CopyOnWriteArrayList<>())::add))) {
      ModelEnvelope fin = ring.fin.get(20, TimeUnit.SECONDS);
      for (int i = 0; i < RING.size(); i++) {
        List<Long> steps = new ArrayList<>();
        for (String line : reported.get(RING.get(i))) {
          assertEquals(RING.get(i), LedgerCodec.parse(line).peer(), "a peer reports only its own entries");
          steps.add(LedgerCodec.parse(line).step());
        }
        assertEquals(List.of(i + 1L, i + 1L + RING.size()), steps, RING.get(i) + "'s steps, once each");
      }
      // the final model carries the last lap's entries: they are the very lines reported
      List<String> lastLap = new ArrayList<>();
      for (String id : RING) {
        lastLap.add(reported.get(id).get(ROUNDS - 1));
      }
      assertEquals(lastLap, fin.ledgerLines());
      // where each peer's last model went, as a device's run-timeout message says it: the last peer
      // published the final model (step 6); each other peer's last step was acknowledged by its successor
      assertEquals("this peer published the final model of step 6", awaitProgress(ring.peers.get(2), "published"));
      assertEquals("this peer's last step was 4, acknowledged by 'peer-1' (it, or a peer after it, holds the model)",
          awaitProgress(ring.peers.get(0), "step was 4"));
      assertEquals("this peer's last step was 5, acknowledged by 'peer-2' (it, or a peer after it, holds the model)",
          awaitProgress(ring.peers.get(1), "step was 5"));
    }
    RingPeer idle = new RingPeer(FederationFixture.context("peer-0", s, new io.hdfl.transport.LoopbackBroker()), RING,
        shards.get(0));
    assertEquals("this peer has taken no turn yet", idle.progress());
  }

  /** {@code peer}'s progress once it holds {@code text} (its last report may come a moment after the final model). */
  private static String awaitProgress(RingPeer peer, String text) throws InterruptedException {
    long until = System.nanoTime() + 10_000_000_000L;
    while (!peer.progress().contains(text) && System.nanoTime() < until) {
      Thread.sleep(5);
    }
    return peer.progress();
  }

  /**
   * A peer learning from a live source bundles at its round-2 turn the windows that arrived since its
   * round-1 turn: its entry counts them in samples_new (with the data it retrains on) and says in
   * samples_bundled that they entered the model there, which the privacy report needs (those records
   * have only that round's incremental noise between two receipts of the next peer). No other entry
   * writes the field.
   */
  @Test
  void aPeerLearningFromALiveSourceRecordsTheWindowsItBundledAfterRoundOne() throws Exception {
    FederationSettings s = FederationFixture.ring(ScheduleMode.PRIVATEDFL, ROUNDS).build();
    List<EncodedSet> shards = FederationFixture.shards(RING.size() + 1, 20);
    EncodedSet arrived = shards.get(RING.size()).subset(new int[] {0, 1, 2, 3, 4, 5, 6});
    java.util.concurrent.atomic.AtomicBoolean taken = new java.util.concurrent.atomic.AtomicBoolean();
    try (LoopbackRing ring = LoopbackRing.start(s, RING, (i, ctx) -> {
      RingPeer p = new RingPeer(ctx, RING, shards.get(i));
      return i == 1 ? p.learningFrom(() -> taken.getAndSet(true) ? null : arrived, 1000) : p;
    })) {
      List<io.hdfl.privacy.ledger.LedgerEntry> lap = new ArrayList<>();
      for (String line : ring.fin.get(20, TimeUnit.SECONDS).ledgerLines()) {
        lap.add(LedgerCodec.parse(line));
      }
      assertEquals(List.of(20L, 27L, 20L), lap.stream().map(io.hdfl.privacy.ledger.LedgerEntry::samplesNew).toList());
      assertEquals(List.of(0L, 7L, 0L), lap.stream().map(io.hdfl.privacy.ledger.LedgerEntry::bundledSamples).toList());
      assertEquals(List.of(false, true, false), ring.fin.get().ledgerLines().stream()
          .map(l -> l.contains("\"samples_bundled\":7,")).toList());
    }
  }

  /**
   * A live peer retrains on its latest window.keep windows: with 20 of its own, 7 arriving before
   * each later turn and 25 kept, it counts 20, then 25 (18 kept + 7 new) every round, and bundles
   * its 20 in round 1 and each later turn's 7; without a bound the count grew by 7 a round for as long
   * as the run went on.
   */
  @Test
  void aLivePeerRetrainsOnItsLatestKeptWindowsOnly() throws Exception {
    int rounds = 4;
    FederationSettings s = FederationFixture.ring(ScheduleMode.PRIVATEDFL, rounds).build();
    List<EncodedSet> shards = FederationFixture.shards(RING.size() + 1, 20);
    EncodedSet arrived = shards.get(RING.size()).subset(new int[] {0, 1, 2, 3, 4, 5, 6});
    List<io.hdfl.privacy.ledger.LedgerEntry> mine = new CopyOnWriteArrayList<>();
    try (LoopbackRing ring = LoopbackRing.start(s, RING, (i, ctx) -> {
      RingPeer p = new RingPeer(ctx, RING, shards.get(i));
      return i == 1 ? p.learningFrom(() -> arrived, 25).reportingEntries(l -> mine.add(LedgerCodec.parse(l))) : p;
    })) {
      assertEquals(rounds, ring.fin.get(20, TimeUnit.SECONDS).round());
    }
    assertEquals(List.of(20L, 25L, 25L, 25L), mine.stream().map(io.hdfl.privacy.ledger.LedgerEntry::samplesNew).toList());
    assertEquals(List.of(20L, 7L, 7L, 7L), mine.stream().map(io.hdfl.privacy.ledger.LedgerEntry::bundledSamples).toList());
  }

  @Test
  void aFailingCollectorDoesNotStopTheRing() throws Exception {
    FederationSettings s = FederationFixture.ring(ScheduleMode.PRIVATEDFL, ROUNDS).build();
    List<EncodedSet> shards = FederationFixture.shards(RING.size(), 20);
    float[] expected;
    try (LoopbackRing ring = LoopbackRing.start(s, RING, (i, ctx) -> new RingPeer(ctx, RING, shards.get(i)))) {
      expected = ring.fin.get(20, TimeUnit.SECONDS).prototypes();
    }
    try (LoopbackRing ring = LoopbackRing.start(s, RING, (i, ctx) -> new RingPeer(ctx, RING, shards.get(i))
        .reportingEntries(line -> {
          throw new IllegalStateException("the collector is broken");
        }))) {
      assertArrayEquals(expected, ring.fin.get(20, TimeUnit.SECONDS).prototypes(), "the same model, every step taken");
    }
  }
}
