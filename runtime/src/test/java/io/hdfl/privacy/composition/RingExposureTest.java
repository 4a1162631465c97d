package io.hdfl.privacy.composition;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hdfl.privacy.PrivacyParameters;
import java.util.List;
import org.junit.jupiter.api.Test;

class RingExposureTest {
  static final int D = 2000;
  static final double EPS = 1.0;
  static final double DELTA0 = 1e-3;
  static final int N = 600;

  /** PrivateDFL incremental schedule from its closed forms: Γ(1) = c ln(1.25N/δ0), Γ(t) = c ln(t/(t−1)). */
  static double[] privateDfl(int k, int r) {
    double c = PrivacyParameters.withDelta0(D, EPS, DELTA0).c();
    double[] a = new double[k * r];
    a[0] = c * Math.log(1.25 * N / DELTA0);
    for (int t = 2; t <= k * r; t++) {
      a[t - 1] = c * Math.log((double) t / (t - 1));
    }
    return a;
  }

  static ObserverGuarantee find(List<ObserverGuarantee> all, String name) {
    return all.stream().filter(o -> o.observer().equals(name)).findFirst().orElseThrow();
  }

  @Test
  void singleReleaseWithFullNoiseMeetsTheHeadline() {
    double delta = DELTA0 / N;
    List<ObserverGuarantee> g = RingExposure.observers(1, 1, privateDfl(1, 1), new RecordInfluence(D, 0), delta, EPS, false);
    ObserverGuarantee fin = find(g, "final-model user");
    // μ = √D/σ with σ² = 2D ln(1.25/δ)/ε²  ⇒  μ = ε/√(2 ln(1.25/δ)).
    assertEquals(EPS / Math.sqrt(2 * Math.log(1.25 / delta)), fin.mu(), 1e-12);
    assertFalse(fin.weakerThanHeadline(), fin.sentence());
    assertTrue(fin.epsilonExact() <= fin.epsilonRdp());
  }

  @Test
  void wireReaderSeesOnlyOneStepsIncrementalNoise() {
    int k = 5;
    List<ObserverGuarantee> g = RingExposure.observers(k, 1, privateDfl(k, 1), new RecordInfluence(D, 0), 1e-6, EPS, false);
    ObserverGuarantee wire = find(g, "wire reader");
    // Worst peer is the last: Γ(K) = c ln(K/(K−1)), so μ = √D/√(c ln(K/(K−1))) = ε/√(2 ln(K/(K−1))).
    assertEquals(EPS / Math.sqrt(2 * Math.log(k / (k - 1.0))), wire.mu(), 1e-12);
    assertTrue(wire.worstCase().contains("peer 5"), wire.worstCase());
    assertTrue(wire.weakerThanHeadline(), wire.sentence());
    assertTrue(wire.sentence().contains("WEAKER"));
    // With end-to-end encryption the wire shows nothing.
    assertTrue(RingExposure.observers(k, 1, privateDfl(k, 1), new RecordInfluence(D, 0), 1e-6, EPS, true)
        .stream().noneMatch(o -> o.observer().equals("wire reader")));
  }

  /**
   * Every other peer differences what it receives against what it sent before, and the worst is
   * reported. Without retraining (E = 0) only a record's round-1 release counts: the peer d steps
   * before holder k sees steps max(1, k−d+1) .. k−d+K−1, so from step 2 on Σ Γ = c ln((k−d+K−1)/(k−d)),
   * least for k = K, d = 1: c ln((2K−2)/(K−1)) = c ln 2, μ = √D/√(c ln 2) = ε/√(2 ln 2). The next hop,
   * the only peer counted until the twenty-first session, sees at worst c ln K (peer 1, less its own
   * step 1), μ = ε/√(2 ln K): the report understated this observer's ε.
   */
  @Test
  void everyOtherPeerIsAnObserverAndThePreviousPeerOfTheLastIsTheWorst() {
    int k = 5;
    RecordInfluence inf = new RecordInfluence(D, 0);
    ObserverGuarantee peer = find(RingExposure.observers(k, 2, privateDfl(k, 2), inf, 1e-6, EPS, true), "another peer");
    assertEquals(EPS / Math.sqrt(2 * Math.log(2)), peer.mu(), 1e-12);
    assertEquals("a record of peer 5, seen by peer 4", peer.worstCase());
    assertTrue(peer.mu() > EPS / Math.sqrt(2 * Math.log(k)), "more than the next hop's");
    assertEquals(2, peer.releases().size());
    assertTrue(peer.releases().get(0).what().contains("steps 5..8"), peer.releases().get(0).what());
    // a run of one round: the peer before the last knows the model it sent and gets the final model,
    // which differ by the last step alone, as the wire shows it: Γ(K) = c ln(K/(K−1))
    peer = find(RingExposure.observers(k, 1, privateDfl(k, 1), inf, 1e-6, EPS, true), "another peer");
    assertEquals(EPS / Math.sqrt(2 * Math.log(k / (k - 1.0))), peer.mu(), 1e-12);
    assertEquals("a record of peer 5, seen by peer 4", peer.worstCase());
    assertTrue(peer.releases().get(0).what().startsWith("round 1: the final model less its own of step 4"),
        peer.releases().get(0).what());
  }

  @Test
  void retrainingSensitivityIsAccountedInTheFinalModel() {
    RecordInfluence inf = new RecordInfluence(D, 2);
    assertEquals(Math.sqrt(D) + 2 * Math.sqrt(2.0 * D), inf.firstRound(), 1e-12);
    int k = 4, r = 3;
    double[] a = privateDfl(k, r);
    ObserverGuarantee fin = find(RingExposure.observers(k, r, a, inf, 1e-6, EPS, true), "final-model user");
    double total = 0;
    for (double v : a) {
      total += v;
    }
    double delta = inf.firstRound() + 2 * inf.laterRound();
    assertEquals(delta / Math.sqrt(total), fin.mu(), 1e-12);
  }

  /**
   * A record bundled in a later round (a live window that arrived between its peer's turns) shows in
   * that round's models with only the incremental noise of the steps between them. K = 3, R = 3,
   * E = 0 (so only the bundling release counts): every peer bundles in round 1 and peer 2 again in
   * round 3 (step 8). Closed forms: peer 1, the one before it, sent the model of step 7 and gets the
   * final model of step 9: Γ(8) + Γ(9) = c ln(9/7); the wire: Γ(8) = c ln(8/7). Of the round-1
   * records the worst is peer 3's seen by peer 2 (steps 3..4: c ln 2) and, on the wire, step 3's
   * c ln(3/2).
   */
  @Test
  void aRecordBundledInALaterRoundIsProtectedOnlyByItsRoundsIncrementalNoise() {
    int k = 3;
    int r = 3;
    RecordInfluence inf = new RecordInfluence(D, 0);
    double c = PrivacyParameters.withDelta0(D, EPS, DELTA0).c();
    double[] a = privateDfl(k, r);
    boolean[] bundles = new boolean[k * r];
    bundles[0] = bundles[1] = bundles[2] = true;
    bundles[7] = true; // peer 2, round 3
    List<ObserverGuarantee> g = RingExposure.observers(k, r, a, bundles, inf, 1e-6, EPS, false);

    ObserverGuarantee peer = find(g, "another peer");
    double late = D / (c * Math.log(9 / 7.0));
    assertEquals(late, peer.mu() * peer.mu(), 1e-9 * late);
    assertEquals("a record of peer 2 bundled in round 3, seen by peer 1", peer.worstCase());
    assertEquals(1, peer.releases().size(), "nothing released before its bundling depends on it");
    ObserverGuarantee before = find(RingExposure.observers(k, r, a, inf, 1e-6, EPS, false), "another peer");
    assertEquals(D / (c * Math.log(2)), before.mu() * before.mu(), 1e-9 * late);
    assertEquals("a record of peer 3, seen by peer 2", before.worstCase());

    ObserverGuarantee wire = find(g, "wire reader");
    assertEquals(D / (c * Math.log(8 / 7.0)), wire.mu() * wire.mu(), 1e-9 * wire.mu() * wire.mu());
    assertEquals("a record of peer 2 bundled in round 3", wire.worstCase());
    ObserverGuarantee wireBefore = find(RingExposure.observers(k, r, a, inf, 1e-6, EPS, false), "wire reader");
    assertEquals(D / (c * Math.log(3 / 2.0)), wireBefore.mu() * wireBefore.mu(), 1e-9 * late);

    // the final model: all the noise, and the most influence is a round-1 record's
    double total = 0;
    for (double v : a) {
      total += v;
    }
    ObserverGuarantee fin = find(g, "final-model user");
    assertEquals(Math.sqrt(D) / Math.sqrt(total), fin.mu(), 1e-12);
    assertEquals("", fin.worstCase());
  }

  /** With records entering in round 2 only, the final model's worst record is revisited R − 2 times. */
  @Test
  void recordsBundledOnlyLaterHaveLessInfluenceOnTheFinalModel() {
    int k = 2;
    int r = 4;
    RecordInfluence inf = new RecordInfluence(D, 1);
    double[] a = privateDfl(k, r);
    boolean[] bundles = new boolean[k * r];
    bundles[2] = bundles[3] = true;
    ObserverGuarantee fin = find(RingExposure.observers(k, r, a, bundles, inf, 1e-6, EPS, true), "final-model user");
    double total = 0;
    for (double v : a) {
      total += v;
    }
    assertEquals((inf.firstRound() + 2 * inf.laterRound()) / Math.sqrt(total), fin.mu(), 1e-12);
    assertEquals("a record bundled in round 2", fin.worstCase());
    ObserverGuarantee hop = find(RingExposure.observers(k, r, a, bundles, inf, 1e-6, EPS, true), "another peer");
    assertEquals(r - 1, hop.releases().size(), "rounds 2 to 4");
  }

  /**
   * The worst case the report picks (by sums over the rounds after each bundling step, for every
   * observing peer) is the one composing every case's releases directly would pick: random noise and
   * random bundling steps, checked against a brute force written from the protocol (peer j sends the
   * model of each step s ≡ j (mod K) and receives that of each step e ≡ j−1, and the final model; for a
   * record's step t it differences the first model it receives at or after t against the last it sent
   * before t, or has only that receipt if it has sent none; the wire reader sees each step alone), with
   * random noise grids: a release the record moves gains √n·g for each step from the record's to the
   * release's end (n = (1 + 2ER)·D values it can make differ, D without retraining), the final model
   * for every step from the earliest record's on.
   */
  @Test
  void theWorstCaseIsTheOneEveryCaseComposedWouldGive() {
    java.util.SplittableRandom rnd = new java.util.SplittableRandom(11);
    for (int trial = 0; trial < 300; trial++) {
      int epochs = trial % 3 == 0 ? 0 : 1;
      RecordInfluence inf = new RecordInfluence(D, epochs);
      int k = 1 + rnd.nextInt(6);
      int r = 1 + rnd.nextInt(5);
      int steps = k * r;
      double[] a = new double[steps];
      double[] grid = new double[steps];
      boolean[] bundles = new boolean[steps];
      for (int t = 0; t < a.length; t++) {
        a[t] = rnd.nextDouble(0.01, t < k ? 100 : 3);
        grid[t] = trial % 2 == 0 ? 0 : rnd.nextDouble(0, 0.01);
        bundles[t] = t < k ? rnd.nextInt(4) > 0 : rnd.nextInt(5) == 0;
      }
      double rootD = Math.sqrt((1 + 2.0 * epochs * r) * D); // 1 + 2ER class vectors can differ
      double peerWorst = 0;
      double wire = 0;
      int earliest = Integer.MAX_VALUE;
      int earliestStep = Integer.MAX_VALUE;
      boolean any = false;
      for (int t = 1; t <= a.length; t++) {
        any |= bundles[t - 1];
      }
      for (int t0 = 1; t0 <= a.length; t0++) {
        if (!(bundles[t0 - 1] || !any && t0 <= k)) {
          continue;
        }
        int p = (t0 - 1) % k + 1;
        int r0 = (t0 - 1) / k + 1;
        earliest = Math.min(earliest, r0);
        earliestStep = Math.min(earliestStep, t0);
        double wireMu2 = 0;
        for (int q = r0; q <= r; q++) {
          double sens = q == r0 ? inf.firstRound() : inf.laterRound();
          int t = k * (q - 1) + p;
          wireMu2 += sens == 0 ? 0 : Math.pow(sens + rootD * grid[t - 1], 2) / a[t - 1];
        }
        wire = Math.max(wire, wireMu2);
        for (int j = 1; j <= k; j++) {
          if (j == p) {
            continue;
          }
          double mu2 = 0;
          for (int q = r0; q <= r; q++) {
            int t = k * (q - 1) + p;
            int sent = 0; // the last step before t at which j sent (0: none yet)
            for (int s = 1; s < t; s++) {
              if ((s - 1) % k + 1 == j) {
                sent = s;
              }
            }
            int received = steps; // the first model j receives at or after t: a hand-off, else the final one
            for (int e = steps; e >= t; e--) {
              if (e % k == (j - 1) % k && (j > 1 || e >= k)) {
                received = e;
              }
            }
            double noise = 0;
            for (int s = sent + 1; s <= received; s++) {
              noise += a[s - 1];
            }
            double snap = 0;
            for (int s = t; s <= received; s++) {
              snap += rootD * grid[s - 1];
            }
            double sens = q == r0 ? inf.firstRound() : inf.laterRound();
            mu2 += sens == 0 ? 0 : Math.pow(sens + snap, 2) / noise;
          }
          peerWorst = Math.max(peerWorst, mu2);
        }
      }
      List<ObserverGuarantee> g = RingExposure.observers(k, r, a, grid, bundles, inf, 1e-6, EPS, false);
      String where = "trial " + trial + ": K=" + k + ", R=" + r;
      if (k > 1) {
        double got = find(g, "another peer").mu() * find(g, "another peer").mu();
        assertEquals(peerWorst, got, 1e-9 * peerWorst, where);
      }
      double gotWire = find(g, "wire reader").mu() * find(g, "wire reader").mu();
      assertEquals(wire, gotWire, 1e-9 * wire, where);
      double total = 0;
      for (double v : a) {
        total += v;
      }
      double influence = inf.firstRound() + (r - earliest) * inf.laterRound();
      for (int s = earliestStep; s <= steps; s++) {
        influence += rootD * grid[s - 1];
      }
      assertEquals(influence / Math.sqrt(total), find(g, "final-model user").mu(), 1e-12, where);
    }
  }
}
