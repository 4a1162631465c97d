package io.hdfl.federation;

import static io.hdfl.federation.FaultyTransport.Fault.CORRUPT;
import static io.hdfl.federation.FaultyTransport.Fault.DELAY;
import static io.hdfl.federation.FaultyTransport.Fault.DROP;
import static io.hdfl.federation.FaultyTransport.Fault.DUPLICATE;
import static io.hdfl.federation.FaultyTransport.Fault.REORDER;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hdfl.hd.EncodedSet;
import io.hdfl.security.HopAead;
import io.hdfl.transport.LoopbackBroker;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A FedHDPrivacy star over a real broker whose clients' and aggregator's deliveries meet seeded
 * faults. The aggregator averages the updates of a round that reached it (all of them, or — with a
 * quorum below K — those in by the round's deadline; later ones are dropped, never counted in
 * another round), and the noise is exactly the schedule's for the updates averaged.
 */
class StarFaultInjectionTest {
  static final int CLIENTS = 4;
  static final int ROUNDS = 2;
  static final long PER_ROUND = 10;

  @TempDir Path dir;

  private static final List<EncodedSet> SHARDS = FederationFixture.shards(CLIENTS, 60);

  @Test
  void duplicatedDelayedAndReorderedDeliveriesChangeNothing() throws Exception {
    FederationSettings s = FederationFixture.star(ROUNDS, PER_ROUND).build();
    DeliveryFaults plan = DeliveryFaults.seeded(3).duplicating(0.3).delaying(0.3, 50, 500).reordering(0.3, 300);
    try (TestBroker broker = TestBroker.Kind.MOSQUITTO.start(dir);
        FinalModels finals = FinalModels.watch(broker.uri(), s)) {
      FaultyFederation net = new FaultyFederation(broker.uri(), s, plan);
      Simulation.Result r = FederationFixture.run(s, SHARDS, net);
      String context = "star with" + net.summary();
      net.assertInjected(DUPLICATE, DELAY, REORDER);
      assertEquals(Collections.nCopies(ROUNDS, CLIENTS), RunAudit.star(r, s, PER_ROUND, context), context);
      RunAudit.verifies(r, s, dir.resolve("verify"), context);
      finals.assertTheFirstCarriesTheLedger(r, context);
      assertEquals(1, finals.count(), context + ": one final model");
      Simulation.Result reference = FederationFixture.run(s, SHARDS, new LoopbackBroker()::connect);
      assertArrayEquals(reference.finalModel().toArray(), r.finalModel().toArray(), context + ": changed nothing");
    }
  }

  /**
   * With the default quorum (every client), an update lost on its way to the aggregator would stall
   * the round for good; the aggregator announces the round again every 2 s while it waits, and a
   * client that already answered it sends the same update again.
   */
  @Test
  void aLostUpdateIsSentAgainWhenTheRoundIsAnnouncedAgain() throws Exception {
    FederationSettings s = FederationFixture.star(ROUNDS, PER_ROUND).build();
    DeliveryFaults loses = DeliveryFaults.seeded(1).on(new Topics(s.federation()).starUpdate("client-002"))
        .droppingFirst(1);
    try (TestBroker broker = TestBroker.Kind.MOSQUITTO.start(dir);
        FinalModels finals = FinalModels.watch(broker.uri(), s)) {
      FaultyFederation net = new FaultyFederation(broker.uri(), s,
          id -> id.equals("aggregator") ? loses : DeliveryFaults.seeded(1));
      Simulation sim = new Simulation(s, SHARDS, FederationFixture.CLASSES, net, FederationFixture.K,
          id -> new io.hdfl.privacy.noise.SeededNoiseSource(s.seed() * 31 + id.hashCode(), FederationFixture.K));
      Simulation.Result r = sim.run((round, model) -> { }, Duration.ofSeconds(20));
      String context = "star with" + net.summary();
      assertEquals(1, net.peer("aggregator").injected(DROP), context);
      assertEquals(Collections.nCopies(ROUNDS, CLIENTS), RunAudit.star(r, s, PER_ROUND, context), context);
      RunAudit.verifies(r, s, dir.resolve("verify"), context);
      finals.assertTheFirstCarriesTheLedger(r, context);
      assertEquals(1, finals.count(), context + ": one final model");
      Simulation.Result reference = FederationFixture.run(s, SHARDS, new LoopbackBroker()::connect);
      assertArrayEquals(reference.finalModel().toArray(), r.finalModel().toArray(), context + ": changed nothing");
    }
  }

  /**
   * An update that reaches the aggregator after its round's deadline is left out of its round, not
   * counted later: client-002's updates arrive 1.5 s late, with a 1 s deadline, so each lands in the
   * next round (about 0.5 s after the round it missed closed, 0.5 s before the next can close). Its
   * noise was drawn and it was sent, so its entry is in the ledger all the same (appended as it
   * arrives, named by the next aggregate, averaged by none), except the last round's: the aggregator stops with the
   * final model.
   */
  @Test
  void lateUpdatesAreLeftOutOfTheirRoundAndNeverCountedInAnother() throws Exception {
    FederationSettings s = FederationFixture.star(ROUNDS, PER_ROUND).quorum(CLIENTS - 1)
        .roundDeadline(Duration.ofMillis(1000)).build();
    String late = new Topics(s.federation()).starUpdate("client-002");
    DeliveryFaults slow = DeliveryFaults.seeded(1).on(late).delaying(1.0, 1500, 1500);
    try (TestBroker broker = TestBroker.Kind.MOSQUITTO.start(dir);
        FinalModels finals = FinalModels.watch(broker.uri(), s)) {
      FaultyFederation net = new FaultyFederation(broker.uri(), s,
          id -> id.equals("aggregator") ? slow : DeliveryFaults.seeded(1));
      Simulation.Result r = FederationFixture.run(s, SHARDS, net);
      String context = "star with" + net.summary();
      assertTrue(net.peer("aggregator").injected(DELAY) >= ROUNDS, context + ": client-002's updates were all late");
      assertEquals(Collections.nCopies(ROUNDS, CLIENTS - 1), RunAudit.star(r, s, PER_ROUND, context), context);
      List<io.hdfl.privacy.ledger.LedgerLine> mine = r.ledger().stream()
          .filter(l -> l.entry().peer().equals("client-002")).toList();
      assertEquals(1, mine.size(), context + ": client-002's round-1 update is recorded, the last round's is not");
      assertEquals(1, mine.get(0).entry().round(), context);
      int at = r.ledger().indexOf(mine.get(0));
      assertEquals(io.hdfl.privacy.ledger.LedgerEntry.Kind.AGGREGATE, r.ledger().get(at - 1).entry().kind(),
          context + ": recorded after round 1's aggregate, before round 2's updates");
      assertTrue(r.ledger().stream().noneMatch(l -> l.entry().contributors().contains(mine.get(0).hash())),
          context + ": averaged in no round");
      assertEquals(List.of(mine.get(0).hash()), r.ledger().get(r.ledger().size() - 1).entry().late(),
          context + ": named by the aggregation that records it");
      RunAudit.verifies(r, s, dir.resolve("verify"), context);
      finals.assertTheFirstCarriesTheLedger(r, context);
    }
  }

  /**
   * A client whose data source fails once (a sensor bus reset, say) cannot answer that round; it
   * answers when the aggregator announces the round again, so the round is not stalled for good with
   * the default quorum (every client), and the run ends as one without the failure.
   */
  @Test
  void aClientWhoseDataSourceFailedOnceAnswersTheRoundWhenItIsAnnouncedAgain() throws Exception {
    FederationSettings s = FederationFixture.star(ROUNDS, PER_ROUND).build();
    java.util.concurrent.atomic.AtomicInteger failures = new java.util.concurrent.atomic.AtomicInteger();
    List<LocalStream> streams = new java.util.ArrayList<>();
    for (int i = 0; i < CLIENTS; i++) {
      SampleStream shard = new SampleStream(SHARDS.get(i), s.seed() ^ String.format("client-%03d", i + 1).hashCode());
      boolean flaky = i == 1;
      streams.add(count -> {
        if (flaky && round2(shard) && failures.getAndIncrement() == 0) {
          throw new java.io.UncheckedIOException(new java.io.IOException("sensor bus reset"));
        }
        return shard.next(count);
      });
    }
    LoopbackBroker lb = new LoopbackBroker();
    Simulation sim = Simulation.ofStreams(s, streams, FederationFixture.CLASSES, lb::connect, FederationFixture.K,
        id -> new io.hdfl.privacy.noise.SeededNoiseSource(s.seed() * 31 + id.hashCode(), FederationFixture.K));
    Simulation.Result r = sim.run((round, model) -> { }, Duration.ofSeconds(20));
    assertTrue(failures.get() >= 1, "the source failed");
    assertEquals(Collections.nCopies(ROUNDS, CLIENTS), RunAudit.star(r, s, PER_ROUND, "flaky source"));
    Simulation.Result reference = FederationFixture.run(s, SHARDS, new LoopbackBroker()::connect);
    assertArrayEquals(reference.finalModel().toArray(), r.finalModel().toArray(), "the failure changed nothing");
  }

  /**
   * A client whose recording ends after round 1 cannot answer later rounds however often they are
   * announced: it no longer asks its source for samples (it used to, and logged an error at each
   * announcement saying it would try again), the round closes on the quorum of the others once its
   * deadline passes (the aggregator re-announces it every 2 s meanwhile), and the run ends.
   */
  @Test
  void aClientWhoseDataEndedStopsAskingAndTheRunGoesOnWithoutIt() throws Exception {
    FederationSettings s = FederationFixture.star(ROUNDS, PER_ROUND).quorum(CLIENTS - 1)
        .roundDeadline(Duration.ofMillis(4500)).build();
    java.util.concurrent.atomic.AtomicInteger asked = new java.util.concurrent.atomic.AtomicInteger();
    List<LocalStream> streams = new java.util.ArrayList<>();
    for (int i = 0; i < CLIENTS; i++) {
      SampleStream shard = new SampleStream(SHARDS.get(i), s.seed() ^ String.format("client-%03d", i + 1).hashCode());
      boolean ends = i == 1;
      streams.add(new LocalStream() {
        @Override
        public EncodedSet next(long count) {
          if (ends) {
            asked.incrementAndGet();
          }
          if (ended()) {
            throw new java.io.UncheckedIOException(new java.io.IOException("the recording ended"));
          }
          return shard.next(count);
        }

        @Override
        public boolean ended() {
          return ends && shard.taken() >= PER_ROUND;
        }
      });
    }
    LoopbackBroker lb = new LoopbackBroker();
    Simulation sim = Simulation.ofStreams(s, streams, FederationFixture.CLASSES, lb::connect, FederationFixture.K,
        id -> new io.hdfl.privacy.noise.SeededNoiseSource(s.seed() * 31 + id.hashCode(), FederationFixture.K));
    Simulation.Result r = sim.run((round, model) -> { }, Duration.ofSeconds(30));
    assertEquals(List.of(CLIENTS, CLIENTS - 1), RunAudit.star(r, s, PER_ROUND, "a client's data ended"),
        "round 2 closed on the other three");
    assertEquals(1, asked.get(), "asked for round 1's samples only, not at each announcement of round 2");
  }

  /** Whether round 1's samples were taken from {@code shard} (so the next are round 2's). */
  private static boolean round2(SampleStream shard) {
    return shard.taken() == PER_ROUND;
  }

  /**
   * Lost and corrupted global models and updates, with encrypted updates, over the embedded broker:
   * a client that missed a global model gets it when the aggregator announces it again; a round is
   * averaged over the updates that arrived intact by its deadline.
   */
  @Test
  void lostAndCorruptedDeliveriesLeaveEachRoundTheUpdatesThatArrived() throws Exception {
    FederationSettings s = FederationFixture.star(ROUNDS, PER_ROUND).quorum(2).roundDeadline(Duration.ofMillis(300))
        .encryption(HopAead.CHACHA20_POLY1305).build();
    DeliveryFaults plan = DeliveryFaults.seeded(41).dropping(0.15).corrupting(0.2);
    try (TestBroker broker = TestBroker.Kind.EMBEDDED.start(dir);
        FinalModels finals = FinalModels.watch(broker.uri(), s)) {
      FaultyFederation net = new FaultyFederation(broker.uri(), s, plan);
      Simulation.Result r = FederationFixture.run(s, SHARDS, net);
      String context = "encrypted star with" + net.summary();
      net.assertInjected(DROP, CORRUPT);
      List<Integer> k = RunAudit.star(r, s, PER_ROUND, context);
      assertTrue(k.stream().allMatch(n -> n >= 2 && n <= CLIENTS), context + ": contributors " + k);
      RunAudit.verifies(r, s, dir.resolve("verify"), context);
      finals.assertTheFirstCarriesTheLedger(r, context);
    }
  }

  /**
   * The broker (a Mosquitto process) is killed while the clients' updates of round 2 come in, and
   * restarted 1 s later, under duplicated and reordered deliveries: every client's update of every
   * round is averaged once, and the model is the one a run without faults learns. The aggregator gets
   * every update 400 ms late, so round 2 cannot close (and the run end) before the broker is down:
   * without it the last updates could reach the aggregator, and the final model leave, between the
   * tripwire and the kill (seen once in CI).
   */
  @Test
  void aBrokerRestartedMidRoundUnderFaultsChangesNothing() throws Exception {
    FederationSettings s = FederationFixture.star(ROUNDS, PER_ROUND).build();
    DeliveryFaults plan = DeliveryFaults.seeded(7).duplicating(0.3).reordering(0.3, 300);
    try (TestBroker broker = TestBroker.Kind.MOSQUITTO.start(dir);
        FinalModels finals = FinalModels.watch(broker.uri(), s)) {
      AtomicBoolean restarted = new AtomicBoolean();
      Tripwire outage = new Tripwire(new Topics(s.federation()).starUpdates(), CLIENTS + 2, () -> {
        try {
          broker.outage(1000);
          restarted.set(true);
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      });
      DeliveryFaults late = plan.delaying(1.0, 400, 400);
      FaultyFederation net = new FaultyFederation(broker.uri(), s, id -> id.equals("aggregator") ? late : plan)
          .with(outage);
      Simulation.Result r = FederationFixture.run(s, SHARDS, net);
      String context = "star with a broker restart and" + net.summary();
      assertTrue(restarted.get(), "the broker was restarted during the run");
      assertEquals(Collections.nCopies(ROUNDS, CLIENTS), RunAudit.star(r, s, PER_ROUND, context), context);
      RunAudit.verifies(r, s, dir.resolve("verify"), context);
      finals.assertTheFirstCarriesTheLedger(r, context);
      assertEquals(1, finals.count(), context + ": one final model");
      Simulation.Result reference = FederationFixture.run(s, SHARDS, new LoopbackBroker()::connect);
      assertArrayEquals(reference.finalModel().toArray(), r.finalModel().toArray(), context + ": changed nothing");
    }
  }
}
