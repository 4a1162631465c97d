package io.hdfl.federation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hdfl.codec.EnvelopeCodec;
import io.hdfl.codec.ModelEnvelope;
import io.hdfl.privacy.ledger.KeyDirectory;
import io.hdfl.privacy.ledger.LedgerEntry;
import io.hdfl.privacy.ledger.LedgerVerifier;
import io.hdfl.privacy.ledger.LedgerLine;
import io.hdfl.privacy.ledger.LedgerSimulation;
import io.hdfl.privacy.ledger.PeerKeys;
import io.hdfl.privacy.ledger.PrivacyLedger;
import io.hdfl.privacy.noise.SeededNoiseSource;
import io.hdfl.privacy.schedule.ModelNoiseState;
import io.hdfl.transport.LoopbackBroker;
import io.hdfl.transport.Transport;
import io.hdfl.privacy.ledger.Verification;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StarAggregatorTest {
  @TempDir Path dir;

  /**
   * A checkpoint written before the eighteenth session holds a late update's entry first (it was
   * appended with the aggregation that named it): a restarted aggregator still completes its ledger
   * from such a checkpoint however many of the committed lines the crash let through.
   */
  @Test
  void aRestartedAggregatorCompletesALedgerFromACheckpointThatBeginsWithALateUpdate() throws Exception {
    FederationSettings s = FederationFixture.star(3, 10).build();
    // round 1: client-001, client-003, the aggregate, then client-002's late update; round 2: all three
    LedgerSimulation.Result sim = clientTwoLateIn(s, 1);
    List<LedgerLine> all = sim.ledger().lines();
    assertEquals(8, all.size());
    AggregatorCheckpoint checkpoint = checkpointAfter(s, all.subList(3, 8)); // the late line, then round 2's
    for (int through = 3; through <= 8; through++) {
      Path file = dir.resolve("ledger-" + through + ".jsonl");
      ledgerWith(s, file, all.subList(0, through));
      try (StarAggregator agg = aggregator(s, sim, new LoopbackBroker(), file)) {
        agg.resume(checkpoint);
      }
      List<String> completed = lines(s, file);
      assertEquals(all.stream().map(LedgerLine::text).toList(), completed, "crash after " + through + " lines");
    }
  }

  /**
   * A checkpoint holds the round's entries and the aggregate that names the late updates already in the
   * ledger: a restarted aggregator completes its ledger however many of them the crash let through.
   */
  @Test
  void aRestartedAggregatorCompletesTheAggregationThatNamesALateUpdateInTheLedger() throws Exception {
    FederationSettings s = FederationFixture.star(3, 10).build();
    LedgerSimulation.Result sim = clientTwoLateIn(s, 1);
    List<LedgerLine> all = sim.ledger().lines();
    assertEquals(8, all.size());
    assertEquals(List.of(all.get(3).hash()), all.get(7).entry().late());
    AggregatorCheckpoint round2 = checkpointAfter(s, all.subList(4, 8)); // round 2's entries and aggregate
    for (int through = 4; through <= 8; through++) {
      Path file = dir.resolve("ledger-" + through + ".jsonl");
      ledgerWith(s, file, all.subList(0, through));
      try (StarAggregator agg = aggregator(s, sim, new LoopbackBroker(), file)) {
        agg.resume(round2);
      }
      assertEquals(all.stream().map(LedgerLine::text).toList(), lines(s, file), "crash after " + through + " lines");
    }
  }

  /**
   * An aggregator that cannot append a late update to its ledger stops: it takes no more updates, so
   * nothing reaches the ledger that a restart could not explain (the round's aggregate would otherwise
   * leave the late update out).
   */
  @Test
  void anAggregatorThatCannotRecordALateUpdateStops() throws Exception {
    FederationSettings s = FederationFixture.star(3, 10).build();
    LedgerSimulation.Result sim = clientTwoLateIn(s, 2);
    List<LedgerLine> all = sim.ledger().lines();
    Path file = dir.resolve("ledger.jsonl");
    ledgerWith(s, file, all.subList(0, 7));
    LoopbackBroker broker = new LoopbackBroker();
    Transport client = broker.connect("clients");
    Topics topics = new Topics(s.federation());
    CountDownLatch finalModel = new CountDownLatch(1);
    client.subscribe(topics.finalModel(), 1, (topic, payload, retained) -> finalModel.countDown());
    try (StarAggregator agg = aggregator(s, sim, broker, file)) {
      agg.resume(checkpointAfter(s, all.subList(4, 7)));
      agg.start();
      java.nio.file.Files.delete(file);
      java.nio.file.Files.createDirectory(file); // appends fail from now on
      sendUpdate(s, client, topics, all.get(7)); // client-002's late update of round 2
      java.util.concurrent.ExecutionException stopped = assertThrows(java.util.concurrent.ExecutionException.class,
          () -> agg.failure().get(10, TimeUnit.SECONDS));
      assertTrue(stopped.getCause() instanceof java.io.IOException, String.valueOf(stopped.getCause()));
      java.nio.file.Files.delete(file); // the disk is back: appends would succeed again
      ledgerWith(s, file, all.subList(0, 7));
      for (LedgerLine l : all.subList(8, 11)) {
        sendUpdate(s, client, topics, l);
      }
      assertFalse(finalModel.await(1, TimeUnit.SECONDS), "a stopped aggregator averaged round 3");
    }
  }

  /**
   * A late update is in the ledger file as soon as the aggregator has it, not only with the next
   * aggregation: an aggregator that crashes while the next round waits (its client never sends that
   * update again) restarts with it in its ledger, and its next aggregate names it, once. Before, the
   * late entry lived in memory until then, and a crash meanwhile lost it.
   */
  @Test
  void aLateUpdateIsInTheLedgerAtOnceAndNamedByTheNextAggregateAfterARestart() throws Exception {
    FederationSettings s = FederationFixture.star(3, 10).build();
    // round 1: all three; round 2: client-001, client-003, the aggregate, then client-002's late update;
    // round 3: all three, and the final aggregate names the late update
    LedgerSimulation.Result sim = clientTwoLateIn(s, 2);
    List<LedgerLine> all = sim.ledger().lines();
    assertEquals(12, all.size());
    LedgerLine lateLine = all.get(7);
    assertEquals(LedgerEntry.Kind.UPDATE, lateLine.entry().kind());
    assertEquals(2, lateLine.entry().round());
    Path keys = dir.resolve("keys");
    sim.writeTo(dir.resolve("simulated.jsonl"), keys);
    AggregatorCheckpoint round2 = checkpointAfter(s, all.subList(4, 7)); // client-001, client-003, aggregate
    Path file = dir.resolve("ledger.jsonl");
    ledgerWith(s, file, all.subList(0, 7));
    LoopbackBroker broker = new LoopbackBroker();
    Transport client = broker.connect("clients");
    Topics topics = new Topics(s.federation());
    try (StarAggregator agg = aggregator(s, sim, broker, file)) {
      agg.resume(round2);
      agg.start();
      sendUpdate(s, client, topics, lateLine);
      long until = System.nanoTime() + Duration.ofSeconds(10).toNanos();
      while (java.nio.file.Files.readAllLines(file).size() < 8 && System.nanoTime() < until) {
        Thread.sleep(10); // whole lines only: the aggregator may be writing one
      }
      assertEquals(all.subList(0, 8).stream().map(LedgerLine::text).toList(), lines(s, file),
          "the late update is in the ledger while round 3 still waits");
    } // the aggregator stops before round 3 is averaged
    CountDownLatch finalModel = new CountDownLatch(1);
    client.subscribe(topics.finalModel(), 1, (topic, payload, retained) -> {
      if (payload.length > 0) {
        finalModel.countDown();
      }
    });
    try (StarAggregator agg = aggregator(s, sim, broker, file)) {
      agg.resume(round2);
      assertEquals(all.subList(0, 8).stream().map(LedgerLine::text).toList(), lines(s, file),
          "a restart appends nothing: the committed aggregation is complete");
      agg.start();
      sendUpdate(s, client, topics, lateLine); // a copy of the recorded late update is not recorded again
      for (LedgerLine l : all.subList(8, 11)) {
        sendUpdate(s, client, topics, l);
      }
      assertTrue(finalModel.await(10, TimeUnit.SECONDS), "round 3 was averaged");
    }
    List<String> got = lines(s, file);
    assertEquals(12, got.size(), String.join("\n", got));
    assertEquals(all.subList(0, 11).stream().map(LedgerLine::text).toList(), got.subList(0, 11));
    LedgerEntry aggregate = io.hdfl.privacy.ledger.LedgerCodec.parse(got.get(11));
    assertEquals(LedgerEntry.Kind.AGGREGATE, aggregate.kind());
    assertEquals(List.of(lateLine.hash()), aggregate.late(), "the final aggregate names the late update");
    Verification v = new LedgerVerifier(KeyDirectory.open(keys)).verify(file);
    assertTrue(v.ok(), v.summary());
    assertEquals(1, v.lateUpdates());
  }

  /** A ledger that goes on after the committed aggregation with anything but late updates was edited. */
  @Test
  void aRestartRefusesALedgerThatGoesOnAfterTheCommittedAggregationWithAnUpdateOfTheRoundInProgress()
      throws Exception {
    FederationSettings s = FederationFixture.star(3, 10).build();
    LedgerSimulation.Result sim = clientTwoLateIn(s, 2);
    List<LedgerLine> all = sim.ledger().lines();
    Path file = dir.resolve("ledger.jsonl");
    ledgerWith(s, file, all.subList(0, 9));
    try (StarAggregator agg = aggregator(s, sim, new LoopbackBroker(), file)) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> agg.resume(checkpointAfter(s, all.subList(4, 7))));
      assertTrue(e.getMessage().contains("client-001's update of round 3, not a late update"), e.getMessage());
    }
    assertEquals(9, lines(s, file).size(), "nothing appended");
    // the same late update twice (each line chains where a late update must)
    Path twice = dir.resolve("twice.jsonl");
    ledgerWith(s, twice, all.subList(0, 8)).appendLine(all.get(7));
    try (StarAggregator agg = aggregator(s, sim, new LoopbackBroker(), twice)) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> agg.resume(checkpointAfter(s, all.subList(4, 7))));
      assertTrue(e.getMessage().contains("client-002's late update of round 2 twice"), e.getMessage());
    }
  }

  /** A restart completes its last aggregation from the ledger's lines in memory: it needs that many. */
  @Test
  void anAggregatorRefusesALedgerThatKeepsTooFewLinesInMemory() throws Exception {
    FederationSettings s = FederationFixture.star(3, 10).build();
    Transport t = new LoopbackBroker().connect("server");
    PeerContext ctx = new PeerContext("server", s, t, PeerKeys.generate("server"), new SeededNoiseSource(1,
        FederationFixture.K), FederationFixture.K, r -> { }, new FrameChannel(t, 0));
    PrivacyLedger few = PrivacyLedger.builder(s.ledgerSettings()).file(dir.resolve("few.jsonl"))
        .keepInMemory(StarAggregator.MIN_KEPT_LINES - 1).open();
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new StarAggregator(ctx, 3, FederationFixture.CLASSES, few));
    assertTrue(e.getMessage().contains("at least 1802 lines in memory"), e.getMessage());
    PrivacyLedger enough = PrivacyLedger.builder(s.ledgerSettings()).file(dir.resolve("enough.jsonl"))
        .keepInMemory(StarAggregator.MIN_KEPT_LINES).open();
    new StarAggregator(ctx, 3, FederationFixture.CLASSES, enough).close();
  }

  /**
   * The ledger of three clients of 10 samples a round over {@code lateRound} + 1 rounds, where
   * client-002's update of {@code lateRound} reaches the aggregator after that round was averaged.
   */
  private static LedgerSimulation.Result clientTwoLateIn(FederationSettings s, int lateRound) {
    return LedgerSimulation.star(s.params()).federation(s.federation()).peers(3).rounds(lateRound + 1)
        .samplesPerPeer(10).late(2, lateRound).build();
  }

  /** The checkpoint of an aggregation whose ledger lines are {@code committed} (its aggregate last). */
  private static AggregatorCheckpoint checkpointAfter(FederationSettings s, List<LedgerLine> committed) {
    LedgerLine last = committed.get(committed.size() - 1);
    int next = last.entry().round() + 1;
    ModelEnvelope global = new ModelEnvelope(ModelEnvelope.Kind.GLOBAL_MODEL, s.federation(), "server", next, next,
        s.encoder().kind().id(), s.encoder().features(), s.encoder().basisSeed(), s.encoder().dim(),
        FederationFixture.CLASSES, last.entry().presentAfter(), last.entry().samplesTotal(), List.of(last.text()), null,
        new float[FederationFixture.CLASSES * s.encoder().dim()]);
    return new AggregatorCheckpoint(next, new ModelNoiseState(last.entry().presentAfter(), last.entry().samplesTotal()),
        0, committed.stream().map(LedgerLine::text).toList(), global);
  }

  /** An aggregator signing with the simulation's server key, on {@code file}'s ledger. */
  private static StarAggregator aggregator(FederationSettings s, LedgerSimulation.Result sim, LoopbackBroker broker,
      Path file) throws Exception {
    Transport t = broker.connect("server");
    PeerContext ctx = new PeerContext("server", s, t, sim.keys().get("server"), new SeededNoiseSource(1,
        FederationFixture.K), FederationFixture.K, r -> { }, new FrameChannel(t, 0));
    return new StarAggregator(ctx, 3, FederationFixture.CLASSES, PrivacyLedger.builder(s.ledgerSettings()).file(file)
        .open());
  }

  /** Publishes the client update that {@code line} records (a model of zeros with its noise state). */
  private static void sendUpdate(FederationSettings s, Transport client, Topics topics, LedgerLine line)
      throws Exception {
    LedgerEntry e = line.entry();
    ModelEnvelope u = new ModelEnvelope(ModelEnvelope.Kind.CLIENT_UPDATE, s.federation(), e.peer(), e.round(),
        e.round(), s.encoder().kind().id(), s.encoder().features(), s.encoder().basisSeed(), s.encoder().dim(),
        FederationFixture.CLASSES, e.presentAfter(), e.samplesTotal(), List.of(line.text()), null,
        new float[FederationFixture.CLASSES * s.encoder().dim()]);
    new FrameChannel(client, 0).publish(topics.starUpdate(e.peer()), EnvelopeCodec.encode(u), 1, false);
  }

  /** A ledger file holding {@code lines}, appended as an aggregator appends them. */
  private static PrivacyLedger ledgerWith(FederationSettings s, Path file, List<LedgerLine> lines) throws Exception {
    PrivacyLedger ledger = PrivacyLedger.builder(s.ledgerSettings()).file(file).open();
    for (LedgerLine l : lines) {
      ledger.appendLine(l);
    }
    return ledger;
  }

  private static List<String> lines(FederationSettings s, Path file) throws Exception {
    return PrivacyLedger.builder(s.ledgerSettings()).file(file).open().lines().stream().map(LedgerLine::text).toList();
  }
}
