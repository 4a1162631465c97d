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

  @Test
  void nextHopDifferencesRoundsAndSubtractsItsOwnNoise() {
    int k = 3;
    int r = 2;
    RecordInfluence inf = new RecordInfluence(D, 1);
    List<ObserverGuarantee> g = RingExposure.observers(k, r, privateDfl(k, r), inf, 1e-6, EPS, false);
    ObserverGuarantee hop = find(g, "next-hop peer");
    double c = PrivacyParameters.withDelta0(D, EPS, DELTA0).c();
    double worst = 0;
    for (int p = 1; p <= k; p++) {
      // round 1: everything up to step p, ξ(p) = c ln(1.25 p N/δ0); for p = K the observer is peer 1,
      // which knows step 1's ξ(1) = c ln(1.25 N/δ0): ξ(K) − ξ(1) = c ln K is left;
      // round 2: steps p+2 .. K+p, Σ c ln(t/(t−1)) = c ln((K+p)/(p+1)).
      double round1 = p == k ? c * Math.log(k) : c * Math.log(1.25 * p * N / DELTA0);
      double mu2 = inf.firstRound() * inf.firstRound() / round1
          + inf.laterRound() * inf.laterRound() / (c * Math.log((k + p) / (p + 1.0)));
      worst = Math.max(worst, mu2);
    }
    assertEquals(worst, hop.mu() * hop.mu(), 1e-9 * worst);
    assertEquals(2, hop.releases().size());
  }

  /**
   * K = 2, one round, no retraining: peer 2's record reaches peer 1 with steps 1 and 2's noise, but
   * peer 1 drew step 1's and subtracts it: only Γ(2) = c ln 2 is left (the report used to count
   * ξ(2) = c ln(2.5 N/δ0) and call the guarantee within the headline).
   */
  @Test
  void theLastPeersNextHopIsTheFirstPeerWhoKnowsStepOnesNoise() {
    int k = 2;
    RecordInfluence inf = new RecordInfluence(D, 0);
    ObserverGuarantee hop = find(RingExposure.observers(k, 1, privateDfl(k, 1), inf, 1e-6, EPS, true), "next-hop peer");
    double c = PrivacyParameters.withDelta0(D, EPS, DELTA0).c();
    assertEquals(Math.sqrt(D) / Math.sqrt(c * Math.log(2)), hop.mu(), 1e-12);
    assertTrue(hop.worstCase().contains("peer 2"), hop.worstCase());
    assertTrue(hop.weakerThanHeadline(), hop.sentence());
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
   * that round's receipts with only the incremental noise of the steps between them. K = 3, R = 3,
   * E = 1: every peer bundles in round 1 and peer 2 again in round 3 (step 8). Closed forms, per case
   * (peer k, round r₀): next hop, round r₀ &gt; 1: Γ over steps prev+2..now = c ln(now/(prev+1));
   * wire: Γ(t) = c ln(t/(t−1)).
   */
  @Test
  void aRecordBundledInALaterRoundIsProtectedOnlyByItsRoundsIncrementalNoise() {
    int k = 3;
    int r = 3;
    RecordInfluence inf = new RecordInfluence(D, 1);
    double c = PrivacyParameters.withDelta0(D, EPS, DELTA0).c();
    double[] a = privateDfl(k, r);
    boolean[] bundles = new boolean[k * r];
    bundles[0] = bundles[1] = bundles[2] = true;
    bundles[7] = true; // peer 2, round 3
    List<ObserverGuarantee> g = RingExposure.observers(k, r, a, bundles, inf, 1e-6, EPS, false);

    ObserverGuarantee hop = find(g, "next-hop peer");
    double f2 = inf.firstRound() * inf.firstRound();
    double l2 = inf.laterRound() * inf.laterRound();
    double late = f2 / (c * Math.log(8 / 6.0)); // steps 7 and 8 between peer 3's receipts of rounds 2 and 3
    double worstRoundOne = 0;
    for (int p = 1; p <= k; p++) {
      double round1 = p == k ? c * Math.log(k) : c * Math.log(1.25 * p * N / DELTA0);
      double mu2 = f2 / round1;
      for (int q = 2; q <= r; q++) {
        int now = k * (q - 1) + p;
        mu2 += l2 / (c * Math.log(now / (now - k + 1.0)));
      }
      worstRoundOne = Math.max(worstRoundOne, mu2);
    }
    assertTrue(late > worstRoundOne, "the late record is the worst case here");
    assertEquals(late, hop.mu() * hop.mu(), 1e-9 * late);
    assertEquals("a record of peer 2 bundled in round 3", hop.worstCase());
    assertEquals(1, hop.releases().size(), "nothing released before its bundling depends on it");
    ObserverGuarantee before = find(RingExposure.observers(k, r, a, inf, 1e-6, EPS, false), "next-hop peer");
    assertEquals(worstRoundOne, before.mu() * before.mu(), 1e-9 * worstRoundOne);

    ObserverGuarantee wire = find(g, "wire reader");
    assertEquals(f2 / (c * Math.log(8 / 7.0)), wire.mu() * wire.mu(), 1e-9 * wire.mu() * wire.mu());
    assertEquals("a record of peer 2 bundled in round 3", wire.worstCase());

    // the final model: all the noise, and the most influence is a round-1 record's
    double total = 0;
    for (double v : a) {
      total += v;
    }
    ObserverGuarantee fin = find(g, "final-model user");
    assertEquals((inf.firstRound() + 2 * inf.laterRound()) / Math.sqrt(total), fin.mu(), 1e-12);
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
    ObserverGuarantee hop = find(RingExposure.observers(k, r, a, bundles, inf, 1e-6, EPS, true), "next-hop peer");
    assertEquals(r - 1, hop.releases().size(), "rounds 2 to 4");
  }

  /**
   * The worst case the report picks (by sums over the rounds after each bundling step) is the one
   * composing every case's releases directly would pick: random noise and random bundling steps,
   * checked against a brute force written from the definitions (for peer k bundling in round r₀: the
   * next hop's release of round r is the noise of steps 2..K for k = K in round 1, of steps 1..k
   * otherwise in round 1, and of steps K(r−2)+k+2 .. K(r−1)+k after; the wire reader's is its step's).
   */
  @Test
  void theWorstCaseIsTheOneEveryCaseComposedWouldGive() {
    java.util.SplittableRandom rnd = new java.util.SplittableRandom(11);
    RecordInfluence inf = new RecordInfluence(D, 1);
    double f2 = inf.firstRound() * inf.firstRound();
    double l2 = inf.laterRound() * inf.laterRound();
    for (int trial = 0; trial < 200; trial++) {
      int k = 1 + rnd.nextInt(6);
      int r = 1 + rnd.nextInt(5);
      double[] a = new double[k * r];
      boolean[] bundles = new boolean[k * r];
      for (int t = 0; t < a.length; t++) {
        a[t] = rnd.nextDouble(0.01, t < k ? 100 : 3);
        bundles[t] = t < k ? rnd.nextInt(4) > 0 : rnd.nextInt(5) == 0;
      }
      double hop = 0;
      double wire = 0;
      int earliest = Integer.MAX_VALUE;
      boolean any = false;
      for (int t = 1; t <= a.length; t++) {
        any |= bundles[t - 1];
      }
      for (int t = 1; t <= a.length; t++) {
        if (!(bundles[t - 1] || !any && t <= k)) {
          continue;
        }
        int p = (t - 1) % k + 1;
        int r0 = (t - 1) / k + 1;
        earliest = Math.min(earliest, r0);
        double hopMu2 = 0;
        double wireMu2 = 0;
        for (int q = r0; q <= r; q++) {
          double noise = 0;
          int from = q == 1 ? (p == k ? 2 : 1) : k * (q - 2) + p + 2;
          int to = k * (q - 1) + p;
          for (int s = from; s <= to; s++) {
            noise += a[s - 1];
          }
          double sens2 = q == r0 ? f2 : l2;
          hopMu2 += sens2 == 0 ? 0 : sens2 / noise;
          wireMu2 += sens2 == 0 ? 0 : sens2 / a[to - 1];
        }
        hop = Math.max(hop, hopMu2);
        wire = Math.max(wire, wireMu2);
      }
      List<ObserverGuarantee> g = RingExposure.observers(k, r, a, bundles, inf, 1e-6, EPS, false);
      String where = "trial " + trial + ": K=" + k + ", R=" + r;
      if (k > 1) {
        double got = find(g, "next-hop peer").mu() * find(g, "next-hop peer").mu();
        assertEquals(hop, got, 1e-9 * hop, where);
      }
      double gotWire = find(g, "wire reader").mu() * find(g, "wire reader").mu();
      assertEquals(wire, gotWire, 1e-9 * wire, where);
      double total = 0;
      for (double v : a) {
        total += v;
      }
      double influence = inf.firstRound() + (r - earliest) * inf.laterRound();
      assertEquals(influence / Math.sqrt(total), find(g, "final-model user").mu(), 1e-12, where);
    }
  }
}
