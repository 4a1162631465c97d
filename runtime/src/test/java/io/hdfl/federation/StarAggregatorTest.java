package io.hdfl.federation;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hdfl.codec.ModelEnvelope;
import io.hdfl.privacy.ledger.LedgerLine;
import io.hdfl.privacy.ledger.LedgerSimulation;
import io.hdfl.privacy.ledger.PeerKeys;
import io.hdfl.privacy.ledger.PrivacyLedger;
import io.hdfl.privacy.noise.SeededNoiseSource;
import io.hdfl.privacy.schedule.ModelNoiseState;
import io.hdfl.transport.LoopbackBroker;
import io.hdfl.transport.Transport;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StarAggregatorTest {
  @TempDir Path dir;

  /**
   * An aggregation that records an update which came after its round was averaged commits that entry
   * first, chained to an older model; a restarted aggregator completes its ledger from the checkpoint
   * however many of the committed lines the crash let through.
   */
  @Test
  void aRestartedAggregatorCompletesALedgerWhoseLastAggregationRecordedALateUpdate() throws Exception {
    FederationSettings s = FederationFixture.star(3, 10).build();
    // round 1: client-001, client-003, the aggregate, then client-002's late update; round 2: all three
    LedgerSimulation.Result sim = LedgerSimulation.star(s.params()).federation(s.federation()).peers(3).rounds(2)
        .samplesPerPeer(10).late(2, 1).build();
    List<LedgerLine> all = sim.ledger().lines();
    assertEquals(8, all.size());
    List<String> committed = all.subList(3, 8).stream().map(LedgerLine::text).toList(); // the round-2 aggregation
    LedgerLine last = all.get(7);
    ModelEnvelope global = new ModelEnvelope(ModelEnvelope.Kind.GLOBAL_MODEL, s.federation(), "server", 3, 3,
        s.encoder().kind().id(), s.encoder().features(), s.encoder().basisSeed(), s.encoder().dim(),
        FederationFixture.CLASSES, last.entry().presentAfter(), last.entry().samplesTotal(), List.of(last.text()), null,
        new float[FederationFixture.CLASSES * s.encoder().dim()]);
    AggregatorCheckpoint checkpoint = new AggregatorCheckpoint(3,
        new ModelNoiseState(last.entry().presentAfter(), last.entry().samplesTotal()), 0, committed, global);
    for (int through = 3; through <= 8; through++) {
      Path file = dir.resolve("ledger-" + through + ".jsonl");
      PrivacyLedger before = PrivacyLedger.builder(s.ledgerSettings()).file(file).open();
      for (LedgerLine l : all.subList(0, through)) {
        before.appendLine(l);
      }
      PrivacyLedger ledger = PrivacyLedger.builder(s.ledgerSettings()).file(file).open();
      Transport t = new LoopbackBroker().connect("server");
      PeerContext ctx = new PeerContext("server", s, t, PeerKeys.generate("server"), new SeededNoiseSource(1,
          FederationFixture.K), FederationFixture.K, r -> { }, new FrameChannel(t, 0));
      try (StarAggregator agg = new StarAggregator(ctx, 3, FederationFixture.CLASSES, ledger)) {
        agg.resume(checkpoint);
      }
      List<String> completed = PrivacyLedger.builder(s.ledgerSettings()).file(file).open().lines().stream()
          .map(LedgerLine::text).toList();
      assertEquals(all.stream().map(LedgerLine::text).toList(), completed, "crash after " + through + " lines");
    }
  }
}
