package io.hdfl.federation;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hdfl.codec.ModelEnvelope;
import io.hdfl.hd.EncodedSet;
import io.hdfl.privacy.schedule.ScheduleMode;
import io.hdfl.transport.Transport;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A device encodes its data while it connects ({@link RingPeer#preparing}, {@link
 * StarClient#preparing}): the peer takes part at once and trains when its encodings are ready.
 */
class PreparingDataTest {
  private static final List<String> RING = List.of("peer-0", "peer-1", "peer-2");

  @Test
  void aRingPeerAcknowledgesAtOnceAndTrainsWhenItsDataAreReady() throws Exception {
    FederationSettings s = FederationFixture.ring(ScheduleMode.PRIVATEDFL, 2).build();
    List<EncodedSet> shards = FederationFixture.shards(RING.size(), 20);
    float[] eager = runRing(s, shards, null).prototypes();

    CompletableFuture<EncodedSet> later = new CompletableFuture<>();
    LoopbackRing ring = startRing(s, shards, later);
    try {
      // peer-0 hands its step to peer-1, which acknowledges it (peer-0's deliver returns) but cannot train yet
      assertTrue(FederationFixture.waitFor(() -> ring.ledgerSteps.contains(1L), 10_000), "peer-0 took its turn");
      Thread.sleep(300);
      assertEquals(List.of(1L), List.copyOf(ring.ledgerSteps), "peer-1 waits for its encodings");
      assertFalse(ring.fin.isDone());
      later.complete(shards.get(1));
      ModelEnvelope fin = ring.fin.get(20, TimeUnit.SECONDS);
      assertArrayEquals(eager, fin.prototypes(), "the same model as with data ready from the start");
      // a peer publishes its entry after handing the model on, so the one before the last may come
      // after the final model
      assertTrue(FederationFixture.waitFor(() -> ring.ledgerSteps.size() == RING.size() * 2, 10_000), "every step's entry published");
      assertEquals(RING.size() * 2, ring.ledgerSteps.size());
    } finally {
      ring.close();
    }
  }

  @Test
  void aRingPeerWhoseDataFailStopsWithTheCause() throws Exception {
    FederationSettings s = FederationFixture.ring(ScheduleMode.PRIVATEDFL, 1).build();
    CompletableFuture<EncodedSet> broken = new CompletableFuture<>();
    LoopbackRing ring = startRing(s, FederationFixture.shards(RING.size(), 20), broken);
    try {
      assertTrue(FederationFixture.waitFor(() -> ring.ledgerSteps.contains(1L), 10_000));
      broken.completeExceptionally(new IllegalStateException("disk full"));
      ExecutionException e = assertThrows(ExecutionException.class, () -> ring.peers.get(1).failure().get(10, TimeUnit.SECONDS));
      assertEquals("disk full", e.getCause().getMessage());
    } finally {
      ring.close();
    }
  }

  @Test
  void aPreparingStarStreamIsTheStoredShardsStreamOnceReady() throws Exception {
    EncodedSet shard = FederationFixture.shards(1, 30).get(0);
    CompletableFuture<EncodedSet> later = new CompletableFuture<>();
    PreparingSampleStream preparing = new PreparingSampleStream(later, 99);
    SampleStream stored = new SampleStream(shard, 99);
    preparing.resumeAfter(7); // a restarted client skips what it learned before, also before its data are ready
    stored.resumeAfter(7);
    CompletableFuture<EncodedSet> first = CompletableFuture.supplyAsync(() -> {
      try {
        return preparing.next(5);
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      }
    });
    Thread.sleep(200);
    assertFalse(first.isDone(), "next waits for the encodings");
    later.complete(shard);
    assertArrayEquals(stored.next(5).vectors(), first.get(10, TimeUnit.SECONDS).vectors());
    assertArrayEquals(stored.next(11).vectors(), preparing.next(11).vectors());
    CompletableFuture<EncodedSet> failed = new CompletableFuture<>();
    failed.completeExceptionally(new java.io.IOException("unreadable"));
    assertThrows(java.io.UncheckedIOException.class, () -> new PreparingSampleStream(failed, 1).next(1));
  }

  /** A checkpoint past the shard (another data file now, say) is refused at every take, never read from the start. */
  @Test
  void aPreparingStreamThatCannotResumeNeverStartsOverFromTheFirstSample() {
    PreparingSampleStream preparing = new PreparingSampleStream(
        CompletableFuture.completedFuture(FederationFixture.shards(1, 30).get(0)), 99);
    preparing.resumeAfter(31);
    assertThrows(IllegalArgumentException.class, () -> preparing.next(5));
    assertThrows(IllegalArgumentException.class, () -> preparing.next(5), "still refused, not samples 0-4");
  }

  @Test
  void aStarClientWhoseShardCannotFeedEveryRoundStopsWithTheReasonOnceItsDataAreReady() throws Exception {
    FederationSettings s = FederationFixture.star(3, 10).build();
    Transport t = new io.hdfl.transport.LoopbackBroker().connect("client-001");
    PeerContext ctx = new PeerContext("client-001", s, t, io.hdfl.privacy.ledger.PeerKeys.generate("client-001"),
        new io.hdfl.privacy.noise.SeededNoiseSource(1, FederationFixture.K), FederationFixture.K,
        new MetricsPublisher(t, new Topics(s.federation()), "client-001"), new FrameChannel(t, 0));
    CompletableFuture<EncodedSet> later = new CompletableFuture<>();
    try (StarClient c = StarClient.preparing(ctx, later)) {
      c.start();
      assertFalse(c.failure().isDone());
      later.complete(FederationFixture.shards(1, 29).get(0)); // 3 rounds of 10 need 30
      ExecutionException e = assertThrows(ExecutionException.class, () -> c.failure().get(10, TimeUnit.SECONDS));
      assertTrue(e.getCause().getMessage().startsWith("client client-001 holds 29 samples, fewer than the 3 x 10"),
          e.getCause().getMessage());
    }
    CompletableFuture<EncodedSet> enough = CompletableFuture.completedFuture(FederationFixture.shards(1, 30).get(0));
    try (StarClient c = StarClient.preparing(ctx, enough)) {
      assertFalse(c.failure().isDone(), "30 samples feed 3 rounds of 10");
    }
  }

  private ModelEnvelope runRing(FederationSettings s, List<EncodedSet> shards, CompletableFuture<EncodedSet> peer1)
      throws Exception {
    LoopbackRing ring = startRing(s, shards, peer1);
    try {
      return ring.fin.get(20, TimeUnit.SECONDS);
    } finally {
      ring.close();
    }
  }

  /** A ring over a loopback broker; peer-1's data come from {@code peer1} when it is not null. */
  private LoopbackRing startRing(FederationSettings s, List<EncodedSet> shards, CompletableFuture<EncodedSet> peer1)
      throws Exception {
    return LoopbackRing.start(s, RING, (i, ctx) -> i == 1 && peer1 != null ? RingPeer.preparing(ctx, RING, peer1, null)
        : new RingPeer(ctx, RING, shards.get(i)));
  }
}
