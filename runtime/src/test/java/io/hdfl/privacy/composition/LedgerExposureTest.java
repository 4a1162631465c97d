package io.hdfl.privacy.composition;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.hdfl.privacy.ledger.LedgerEntry;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The report of a real star run takes, per round, the number of updates its aggregate averaged. */
class LedgerExposureTest {
  static final int D = 2000;

  @Test
  void aStarRoundClosedOnAQuorumIsReportedWithTheUpdatesItAveraged() {
    int[] averaged = {4, 2, 4};
    double[] present = {50, 60, 70};
    List<LedgerEntry> ledger = new ArrayList<>();
    for (int r = 1; r <= averaged.length; r++) {
      for (int c = 1; c <= averaged[r - 1]; c++) {
        ledger.add(entry(LedgerEntry.Kind.UPDATE, "client-00" + c, r, 100, List.of()));
      }
      ledger.add(entry(LedgerEntry.Kind.AGGREGATE, "aggregator", r, present[r - 1],
          Collections.nCopies(averaged[r - 1], "0".repeat(64))));
    }
    RecordInfluence inf = new RecordInfluence(D, 1);
    ObserverGuarantee user = StarExposureTest.finalModelUser(LedgerExposure.observers(ledger, 1, true));
    assertEquals(inf.firstRound() / 2 / Math.sqrt(60), user.mu(), 1e-12, "round 2 averaged 2 updates, not 4");
    ObserverGuarantee expected = StarExposureTest.finalModelUser(StarExposure.observers(averaged, new double[] {100, 100,
        100}, present, inf, LedgerExposure.reportDelta(ledger), 1.0, true));
    assertEquals(expected.epsilonRdp(), user.epsilonRdp(), 0.0);

    ledger.remove(ledger.size() - 1); // the last round without its aggregate
    assertThrows(IllegalArgumentException.class, () -> LedgerExposure.observers(ledger, 1, true));
  }

  /**
   * A client update recorded after its round's aggregate (it came late: averaged nowhere, but noised and
   * sent) is a release the aggregator saw: it counts for that observer, and it changes neither the
   * rounds nor the δ of the report even when it is the ledger's last line.
   */
  @Test
  void anUpdateRecordedAfterItsRoundsAggregateCountsForTheAggregator() {
    List<LedgerEntry> ledger = new ArrayList<>();
    for (int r = 1; r <= 2; r++) {
      for (int c = 1; c <= 3; c++) {
        ledger.add(entry(LedgerEntry.Kind.UPDATE, "client-00" + c, r, 100, List.of()));
      }
      ledger.add(entry(LedgerEntry.Kind.AGGREGATE, "aggregator", r, 50, Collections.nCopies(3, "0".repeat(64))));
    }
    double delta = LedgerExposure.reportDelta(ledger);
    // round 1's, recorded last; its entry holds another sample count than the final model's
    ledger.add(entry(LedgerEntry.Kind.UPDATE, "client-004", 1, 40, List.of()));
    LedgerEntry more = ledger.get(ledger.size() - 1);
    ledger.add(new LedgerEntry(more.version(), more.federation(), "client-005", more.kind(), more.topology(), 1, 1,
        1000, 1000, 1.0, 40, 0, 40, 40, more.epsilon(), more.delta0(), more.dim(), more.schedule(), more.source(), true,
        List.of(), "", more.prevHash(), "t", null));
    assertEquals(delta, LedgerExposure.reportDelta(ledger), 0.0, "the final model's samples set δ");
    RecordInfluence inf = new RecordInfluence(D, 1);
    List<ObserverGuarantee> all = LedgerExposure.observers(ledger, 1, true);
    ObserverGuarantee aggregator = all.stream().filter(o -> o.observer().equals("aggregator")).findFirst().orElseThrow();
    assertEquals(inf.firstRound() / Math.sqrt(40), aggregator.mu(), 1e-12, "the late update's noise, the least");
    assertEquals(inf.firstRound() / 3 / Math.sqrt(50), StarExposureTest.finalModelUser(all).mu(), 1e-12,
        "not in any average");
  }

  /**
   * A ring entry counts the samples its peer trained on at that step (every round revisits them). Its
   * samples_bundled marks records bundled there (a live source's windows, a restarted peer's data), even
   * where the count did not change (a restarted peer that collected as many as it had, case 3); in a
   * ledger written before that field, a count that grew since the peer's previous step marks them, one
   * that fell is taken as new records too, and an unchanged count as none.
   */
  @Test
  void aRingPeersGrowingSampleCountMarksRecordsBundledInThatRound() {
    double[] added = {500, 5, 3, 2, 2, 1};
    long[][] counts = {{10, 10, 10, 10, 10, 10}, {10, 10, 10, 14, 14, 14}, {10, 10, 10, 10, 10, 8},
        {10, 10, 10, 10, 10, 10}};
    String[] worst = {"a record of peer 2", "a record of peer 2 bundled in round 2", "a record of peer 2 bundled in round 3",
        "a record of peer 2 bundled in round 3"};
    for (int c = 0; c < counts.length; c++) {
      List<LedgerEntry> ledger = new ArrayList<>();
      for (int t = 1; t <= added.length; t++) {
        ledger.add(new LedgerEntry(LedgerEntry.FORMAT_VERSION, "f", "peer-" + ((t - 1) % 2 + 1), LedgerEntry.Kind.UPDATE,
            LedgerEntry.Topology.RING, (t + 1) / 2, t, counts[c][t - 1], 10L * t, c == 3 && t == 6 ? 4 : 0, 1.0, 1, 0,
            added[t - 1], 1, 1.0, 1e-3, D, LedgerEntry.Schedule.PRIVATEDFL, LedgerEntry.Source.SEEDED, true, List.of(),
            List.of(), "", "0".repeat(64), "t", null));
      }
      boolean[] bundles = new boolean[added.length];
      bundles[0] = bundles[1] = true;
      bundles[3] = c == 1;
      bundles[5] = c >= 2;
      RecordInfluence inf = new RecordInfluence(D, 1);
      List<ObserverGuarantee> expected = RingExposure.observers(2, 3, added, bundles, inf,
          LedgerExposure.reportDelta(ledger), 1.0, false);
      List<ObserverGuarantee> all = LedgerExposure.observers(ledger, 1, false);
      for (int o = 0; o < expected.size(); o++) {
        assertEquals(expected.get(o).observer(), all.get(o).observer());
        assertEquals(expected.get(o).mu(), all.get(o).mu(), 0.0, all.get(o).sentence());
      }
      assertEquals(worst[c], all.get(2).worstCase(), "wire reader, case " + c);
    }
  }

  /**
   * Entries of the secure source were added on its grid, whose snapping counts in the sensitivity
   * (2^(⌊log2 σ⌋−20) per step, from the entry's variance); seeded ones are continuous.
   */
  @Test
  void aSecureLedgerCountsEachStepsNoiseGrid() {
    double[] added = {5e8, 5e3, 3e3, 2e3};
    double[] grid = new double[added.length];
    boolean[] bundles = {true, true, false, false};
    for (LedgerEntry.Source source : LedgerEntry.Source.values()) {
      List<LedgerEntry> ledger = new ArrayList<>();
      for (int t = 1; t <= added.length; t++) {
        ledger.add(new LedgerEntry(LedgerEntry.FORMAT_VERSION, "f", "peer-" + ((t - 1) % 2 + 1), LedgerEntry.Kind.UPDATE,
            LedgerEntry.Topology.RING, (t + 1) / 2, t, 10, 10L * t, 0, 1.0, 1, 0, added[t - 1], 1, 1.0, 1e-3, D,
            LedgerEntry.Schedule.PRIVATEDFL, source, source == LedgerEntry.Source.SEEDED, List.of(), List.of(), "",
            "0".repeat(64), "t", null));
        grid[t - 1] = source == LedgerEntry.Source.SECURE ? Math.scalb(1.0, Math.getExponent(Math.sqrt(added[t - 1])) - 20)
            : 0;
      }
      RecordInfluence inf = new RecordInfluence(D, 1);
      List<ObserverGuarantee> expected = RingExposure.observers(2, 2, added, grid, bundles, inf,
          LedgerExposure.reportDelta(ledger), 1.0, false);
      List<ObserverGuarantee> all = LedgerExposure.observers(ledger, 1, false);
      for (int o = 0; o < expected.size(); o++) {
        assertEquals(expected.get(o).mu(), all.get(o).mu(), 0.0, source + ": " + all.get(o).sentence());
      }
      double total = 5e8 + 5e3 + 3e3 + 2e3;
      double snaps = java.util.Arrays.stream(grid).sum() * Math.sqrt((1 + 2 * 2) * D); // E = 1, R = 2
      assertEquals((inf.firstRound() + inf.laterRound() + snaps) / Math.sqrt(total), all.get(0).mu(), 1e-12, source
          + ": the final model, every step's snapping from step 1 on");
    }
  }

  private static LedgerEntry entry(LedgerEntry.Kind kind, String peer, int round, double variance,
      List<String> contributors) {
    return entry(kind, peer, round, variance, contributors, LedgerEntry.Source.SEEDED);
  }

  private static LedgerEntry entry(LedgerEntry.Kind kind, String peer, int round, double variance,
      List<String> contributors, LedgerEntry.Source source) {
    boolean update = kind == LedgerEntry.Kind.UPDATE;
    return new LedgerEntry(LedgerEntry.FORMAT_VERSION, "f", peer, kind, LedgerEntry.Topology.STAR, round, round,
        10, 10L * round, update ? 1.0 : 1.0 / contributors.size(), variance, 0, update ? variance : 0, variance, 1.0,
        1e-3, D, LedgerEntry.Schedule.FEDHDP, source, source == LedgerEntry.Source.SEEDED, contributors, "",
        "0".repeat(64), "t", null);
  }

  /**
   * A star ledger of the secure source: each round's largest client grid (from the most-noised
   * update's variance) counts in an update's sensitivity, √(3D)·g with one retraining pass.
   */
  @Test
  void aSecureStarLedgerCountsTheClientsNoiseGrid() {
    List<LedgerEntry> ledger = new ArrayList<>();
    double[] variances = {100, 400};
    for (int c = 0; c < 2; c++) {
      ledger.add(entry(LedgerEntry.Kind.UPDATE, "client-00" + (c + 1), 1, variances[c], List.of(),
          LedgerEntry.Source.SECURE));
    }
    ledger.add(entry(LedgerEntry.Kind.AGGREGATE, "aggregator", 1, 0, Collections.nCopies(2, "0".repeat(64)),
        LedgerEntry.Source.SECURE));
    RecordInfluence inf = new RecordInfluence(D, 1);
    double g = Math.scalb(1.0, Math.getExponent(Math.sqrt(400)) - 20); // σ = 20: 2^(4 − 20)
    ObserverGuarantee aggregator = LedgerExposure.observers(ledger, 1, true).stream()
        .filter(o -> o.observer().equals("aggregator")).findFirst().orElseThrow();
    assertEquals((inf.firstRound() + g * Math.sqrt(3.0 * D)) / Math.sqrt(100), aggregator.mu(), 1e-12,
        "the least noise, the largest grid");
  }
}
