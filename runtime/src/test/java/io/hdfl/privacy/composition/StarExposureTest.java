package io.hdfl.privacy.composition;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hdfl.privacy.PrivacyParameters;
import java.util.List;
import org.junit.jupiter.api.Test;

class StarExposureTest {
  @Test
  void aggregatorSeesClientNoiseAndGlobalUsersSeeTheAverage() {
    int k = 8, l = 500, rounds = 4, d = 10000;
    double c = PrivacyParameters.perSampleDelta(d, 1.0).c();
    double[] gamma = new double[rounds];
    double[] present = new double[rounds];
    gamma[0] = c * Math.log(1.25 * l);
    for (int r = 2; r <= rounds; r++) {
      gamma[r - 1] = c / k * (k * Math.log(1.25 * (r - 1) * k * l + 1.25 * l) - Math.log(1.25 * (r - 2) * k * l + 1.25 * l));
    }
    for (int r = 1; r <= rounds; r++) {
      present[r - 1] = c / k * Math.log(1.25 * (r - 1) * k * l + 1.25 * l);
    }
    RecordInfluence inf = new RecordInfluence(d, 0);
    List<ObserverGuarantee> g = StarExposure.observers(k, gamma, present, inf, 1e-6, 1.0, false);
    double minGamma = Double.MAX_VALUE, minPresent = Double.MAX_VALUE;
    for (int r = 0; r < rounds; r++) {
      minGamma = Math.min(minGamma, gamma[r]);
      minPresent = Math.min(minPresent, present[r]);
    }
    ObserverGuarantee agg = g.stream().filter(o -> o.observer().equals("aggregator")).findFirst().orElseThrow();
    assertEquals(Math.sqrt(d) / Math.sqrt(minGamma), agg.mu(), 1e-12);
    ObserverGuarantee fin = g.stream().filter(o -> o.observer().equals("final-model user")).findFirst().orElseThrow();
    assertEquals(Math.sqrt(d) / k / Math.sqrt(minPresent), fin.mu(), 1e-12);
    assertTrue(fin.epsilonRdp() < agg.epsilonRdp(), "averaging protects more than a single update");
    // a reader of successive global models: influence √D/K, noise K·Γ/K² of the round's fresh updates
    ObserverGuarantee reader = g.stream().filter(o -> o.observer().equals("global-model reader")).findFirst()
        .orElseThrow();
    assertEquals(Math.sqrt(d) / Math.sqrt(k * minGamma), reader.mu(), 1e-12);
    assertTrue(reader.mu() >= fin.mu() * (1 - 1e-12) && reader.mu() < agg.mu());
    assertEquals(List.of("final-model user", "global-model reader", "aggregator"),
        StarExposure.observers(k, gamma, present, inf, 1e-6, 1.0, true).stream().map(ObserverGuarantee::observer)
            .toList(), "the wire reader only when updates are not encrypted");
  }

  @Test
  void aRoundAveragedOverFewerUpdatesDilutesARecordLess() {
    RecordInfluence inf = new RecordInfluence(10000, 1);
    double[] added = {100, 100, 100};
    double[] present = {50, 60, 70};
    ObserverGuarantee all = finalModelUser(StarExposure.observers(new int[] {4, 4, 4}, added, present, inf, 1e-6, 1.0,
        true));
    assertEquals(inf.firstRound() / 4 / Math.sqrt(50), all.mu(), 1e-12, "round 1 is the worst with 4 in every round");
    ObserverGuarantee quorum = finalModelUser(StarExposure.observers(new int[] {4, 2, 4}, added, present, inf, 1e-6,
        1.0, true));
    assertEquals(inf.firstRound() / 2 / Math.sqrt(60), quorum.mu(), 1e-12, "round 2 averaged only 2 updates");
    assertTrue(quorum.epsilonRdp() > all.epsilonRdp());
    // the global models' readers: round 2's model minus round 1's holds 2 updates' noise, 2·100/2²
    ObserverGuarantee reader = StarExposure.observers(new int[] {4, 2, 4}, added, present, inf, 1e-6, 1.0, true)
        .stream().filter(o -> o.observer().equals("global-model reader")).findFirst().orElseThrow();
    assertEquals(inf.firstRound() / 2 / Math.sqrt(100 / 2.0), reader.mu(), 1e-12);
    assertEquals("a record learned in round 2", reader.worstCase());
  }

  /**
   * With the secure source a client snaps the model to its grid g before adding its noise, and an
   * aggregator that adds noise snaps the average to its own g': a record moves an update by at most
   * Δ + g√n and the global model by (Δ + g√n)/k + g'√n, n = 3D values with one retraining pass
   * (bundling changes its class vector, the pass up to two).
   */
  @Test
  void theSnappingToTheNoiseGridCountsInTheSensitivity() {
    int d = 10000;
    RecordInfluence inf = new RecordInfluence(d, 1);
    double[] added = {100, 100};
    double[] present = {30, 40};
    double[] grid = {1e-3, 2e-3};
    double[] aggGrid = {0, 5e-4};
    List<ObserverGuarantee> g = StarExposure.observers(new int[] {4, 4}, added, present, grid, aggGrid, inf, 1e-6, 1.0,
        true);
    ObserverGuarantee agg = g.stream().filter(o -> o.observer().equals("aggregator")).findFirst().orElseThrow();
    double n = Math.sqrt(3.0 * d); // one retraining pass: the record's class vector and two more
    assertEquals((inf.firstRound() + 2e-3 * n) / Math.sqrt(100), agg.mu(), 1e-12);
    double round1 = (inf.firstRound() + 1e-3 * n) / 4 / Math.sqrt(30);
    double round2 = ((inf.firstRound() + 2e-3 * n) / 4 + 5e-4 * n) / Math.sqrt(40);
    assertEquals(Math.max(round1, round2), finalModelUser(g).mu(), 1e-12);
    ObserverGuarantee plain = finalModelUser(StarExposure.observers(new int[] {4, 4}, added, present, inf, 1e-6, 1.0,
        true));
    assertTrue(finalModelUser(g).mu() > plain.mu());
  }

  static ObserverGuarantee finalModelUser(List<ObserverGuarantee> g) {
    return g.stream().filter(o -> o.observer().equals("final-model user")).findFirst().orElseThrow();
  }
}
