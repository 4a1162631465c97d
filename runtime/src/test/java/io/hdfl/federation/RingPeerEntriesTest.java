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
    }
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
