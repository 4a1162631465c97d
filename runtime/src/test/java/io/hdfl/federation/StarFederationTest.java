package io.hdfl.federation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hdfl.privacy.ledger.LedgerEntry;
import io.hdfl.privacy.ledger.LedgerLine;
import io.hdfl.privacy.ledger.Verification;
import io.hdfl.privacy.schedule.FedHdPrivacySchedule;
import io.hdfl.transport.LoopbackBroker;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StarFederationTest {
  @TempDir Path dir;

  @Test
  void clientNoiseFollowsFedHdPrivacyAndTheServerAddsNothing() throws Exception {
    int k = 3, rounds = 4;
    long l = 20;
    FederationSettings s = FederationFixture.star(rounds, l).build();
    Simulation.Result r = FederationFixture.run(s, FederationFixture.shards(k, 80), new LoopbackBroker()::connect);
    List<LedgerLine> ledger = r.ledger();
    assertEquals((k + 1) * rounds, ledger.size());
    var p = s.params();
    for (LedgerLine line : ledger) {
      var e = line.entry();
      if (e.kind() == LedgerEntry.Kind.UPDATE) {
        double gamma = FedHdPrivacySchedule.clientAdded(p, k, l, e.round());
        assertEquals(gamma, e.addedVariance(), 1e-9 * gamma, "Γ_k^" + e.round());
      } else {
        assertEquals(FedHdPrivacySchedule.serverRequired(p, k, l, e.round()), e.requiredVariance(),
            1e-9 * e.requiredVariance());
        assertEquals(FedHdPrivacySchedule.serverPresent(p, k, l, e.round()), e.presentBefore(),
            1e-9 * e.presentBefore());
        assertEquals(0.0, e.addedVariance(), "gamma > 1: the server adds nothing");
        assertTrue(e.reason().contains("server adds nothing"), e.reason());
        assertEquals(k, e.contributors().size());
      }
    }
    Verification v = FederationFixture.verify(r, s, dir);
    assertTrue(v.ok(), v.summary());
    // the aggregator reports each round as the clients do: how long it took, its CPU and its bytes (the
    // global model out, k updates in; before, all zero, and a device aggregator's radio was priced at 0 J)
    List<RoundReport> agg = r.reports().stream().filter(x -> x.peer().equals("aggregator")).toList();
    assertEquals(rounds, agg.size());
    long model = 4L * s.encoder().dim() * FederationFixture.CLASSES;
    assertTrue(agg.stream().mapToDouble(RoundReport::cpuSeconds).sum() > 0, agg.toString());
    for (RoundReport rep : agg) {
      assertTrue(rep.wallSeconds() > 0 && rep.cpuSeconds() >= 0, rep.toString());
      assertTrue(rep.bytesSent() >= model && rep.bytesReceived() >= k * model, rep.toString());
      assertEquals(k * l, rep.samplesNew(), rep.toString());
    }
  }

  /**
   * A later run under the same federation must not find the last round's global model retained: its
   * clients would answer that old round at once and then ignore the new run's earlier rounds.
   */
  @Test
  void aFinishedStarLeavesItsFinalModelRetainedButNoGlobalModel() throws Exception {
    FederationSettings s = FederationFixture.star(3, 20).build();
    LoopbackBroker broker = new LoopbackBroker();
    FederationFixture.run(s, FederationFixture.shards(3, 60), broker::connect);
    Topics topics = new Topics(s.federation());
    java.util.concurrent.BlockingQueue<String> retained = new java.util.concurrent.LinkedBlockingQueue<>();
    try (var late = broker.connect("late-client")) {
      late.subscribe(topics.starGlobal(), 1, (topic, payload, isRetained) -> retained.add("global " + payload.length));
      late.subscribe(topics.finalModel(), 1, (topic, payload, isRetained) -> retained.add("final"));
      assertEquals("final", retained.poll(10, java.util.concurrent.TimeUnit.SECONDS));
      assertEquals(null, retained.poll(200, java.util.concurrent.TimeUnit.MILLISECONDS), "a global model is still retained");
    }
  }
}
