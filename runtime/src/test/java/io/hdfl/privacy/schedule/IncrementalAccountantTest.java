package io.hdfl.privacy.schedule;

import static io.hdfl.privacy.schedule.Reference.assertRelative;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hdfl.privacy.PrivacyParameters;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

class IncrementalAccountantTest {
  private static final double TOL = 1e-12;

  /** PrivateDFL: ξ(t) = c·ln(1.25tN/δ0), Γ(1) = ξ(1), Γ(t) = c·ln(t/(t−1)). */
  @Test
  void ringStepsReproducePrivateDflClosedForms() {
    int configs = 0;
    for (int k : new int[] {1, 3, 100}) {
      for (int rounds : new int[] {1, 5, 30}) {
        for (long n : new long[] {1, 60, 6000}) {
          for (double[] dEps : new double[][] {{1, 0.1}, {2000, 1}, {10000, 8}}) {
            for (double delta0 : new double[] {1e-3, 1e-9, 0.5}) {
              PrivacyParameters p = PrivacyParameters.withDelta0((int) dEps[0], dEps[1], delta0);
              checkRing(p, k, n, rounds);
              configs++;
            }
          }
        }
      }
    }
    assertEquals(3 * 3 * 3 * 3 * 3, configs);
  }

  private static void checkRing(PrivacyParameters p, int k, long n, int rounds) {
    double c = 2.0 * p.dim() / (p.epsilon() * p.epsilon());
    IncrementalAccountant acc = new IncrementalAccountant(p, 1.0);
    ModelNoiseState state = ModelNoiseState.EMPTY;
    String where = "K=" + k + " N=" + n + " R=" + rounds + " " + p;
    for (long t = 1; t <= (long) k * rounds; t++) {
      NoiseDecision d = acc.decide(state, n);
      double xi = c * Math.log(1.25 * t * n / p.delta0());
      double gamma = t == 1 ? c * Math.log(1.25 * n / p.delta0()) : c * Reference.lnRatio(t);
      assertRelative(xi, d.required(), TOL, "ξ(" + t + ") " + where);
      assertRelative(xi, d.presentAfter(), TOL, "present(" + t + ") " + where);
      assertRelative(gamma, d.added(), TOL, "Γ(" + t + ") " + where);
      assertEquals(t * n, d.samplesTotal());
      assertEquals((t - 1) * n, d.samplesBefore());
      assertEquals(n, d.samplesAdded());
      state = d.after();
    }
  }

  /** FedHDPrivacy: client Γ_k^r, server ξ_g^r, Ψ_g^r and γ from the accountant, round by round. */
  @Test
  void starDecisionsReproduceFedHdPrivacyClosedForms() {
    for (int k : new int[] {1, 2, 3, 10, 100}) {
      for (long l : new long[] {10, 250, 5000}) {
        for (int rounds : new int[] {1, 5, 30}) {
          for (double[] dEps : new double[][] {{1000, 0.5}, {10000, 3}}) {
            PrivacyParameters p = PrivacyParameters.perSampleDelta((int) dEps[0], dEps[1]);
            checkStar(p, k, l, rounds);
          }
        }
      }
    }
  }

  private static void checkStar(PrivacyParameters p, int k, long l, int rounds) {
    double c = 2.0 * p.dim() / (p.epsilon() * p.epsilon());
    IncrementalAccountant client = new IncrementalAccountant(p, 1.0);
    IncrementalAccountant server = new IncrementalAccountant(p, 1.0 / k);
    String where = "K=" + k + " L=" + l + " " + p;
    for (int r = 1; r <= rounds; r++) {
      // the global model the clients start from: Ψ_g^{r−1}, or nothing in round 1
      double psiBefore = r == 1 ? 0 : c / k * Math.log(1.25 * (r - 2) * k * l + 1.25 * l);
      ModelNoiseState global = new ModelNoiseState(psiBefore, (long) (r - 1) * k * l);
      NoiseDecision d = client.decide(global, l);
      double gammaK = r == 1 ? c * Math.log(1.25 * l)
          : c / k * (k * Math.log(1.25 * (r - 1) * k * l + 1.25 * l) - Math.log(1.25 * (r - 2) * k * l + 1.25 * l));
      assertRelative(gammaK, d.added(), TOL, "Γ_k^" + r + " " + where);

      List<ModelNoiseState> clients = new ArrayList<>();
      for (int i = 0; i < k; i++) {
        clients.add(d.after());
      }
      ModelNoiseState avg = ModelNoiseState.average(global.samplesAbsorbed(), clients);
      NoiseDecision s = server.decide(avg, 0);
      double xiG = c / ((double) k * k) * Math.log(1.25 * k * l * r);
      double psiG = c / k * Math.log(1.25 * (r - 1) * k * l + 1.25 * l);
      assertRelative(xiG, s.required(), TOL, "ξ_g^" + r + " " + where);
      assertRelative(psiG, avg.presentVariance(), TOL, "Ψ_g^" + r + " " + where);
      assertRelative(psiG / xiG, avg.presentVariance() / s.required(), TOL, "γ " + where);
      assertEquals((long) r * k * l, avg.samplesAbsorbed());
      if (k >= 2) {
        assertTrue(psiG / xiG > 1, "γ > 1 for " + where);
      }
      assertEquals(0.0, s.added(), 0.0, "the server adds nothing when γ ≥ 1, " + where);
      assertEquals(avg.presentVariance(), s.presentAfter(), 0.0);
    }
  }

  @Test
  void unequalShardsAndSkippedPeersStayExact() {
    PrivacyParameters p = PrivacyParameters.withDelta0(2000, 1.0, 1e-3);
    IncrementalAccountant acc = new IncrementalAccountant(p, 1.0);
    long[] shards = {0, 120, 7, 0, 3000, 45, 1};
    ModelNoiseState state = ModelNoiseState.EMPTY;
    long cumulative = 0;
    double addedTotal = 0;
    for (int r = 1; r <= 6; r++) {
      for (long shard : shards) {
        NoiseDecision d = acc.decide(state, shard);
        cumulative += shard;
        assertEquals(cumulative, d.samplesTotal());
        assertTrue(d.added() >= 0, "never negative");
        if (cumulative == 0) {
          assertEquals(0.0, d.required());
          assertEquals(0.0, d.added());
        } else {
          assertEquals(p.requiredVariance(cumulative, 1.0), d.presentAfter(), 0.0, "present = required for actual samples");
          assertEquals(d.presentBefore() + d.added(), d.presentAfter(), 1e-13 * d.presentAfter(), "after = before + added");
        }
        if (shard == 0) {
          assertEquals(0.0, d.added(), 0.0, "a skipped peer adds no noise");
          assertEquals(state, d.after(), "a skipped peer leaves the model as it was");
          assertTrue(d.reason().contains("none"), d.reason());
        } else if (state.samplesAbsorbed() > 0) {
          assertRelative(2.0 * p.dim() / (p.epsilon() * p.epsilon()) * Reference.lnRatio(cumulative, state.samplesAbsorbed()),
              d.added(), TOL, "Γ for unequal shards");
        }
        addedTotal += d.added();
        state = d.after();
      }
    }
    assertRelative(p.requiredVariance(cumulative, 1.0), addedTotal, TOL, "Σ added = final requirement");
  }

  @Test
  void skippingAPeerIsTheSameAsTheRingWithoutIt() {
    PrivacyParameters p = PrivacyParameters.withDelta0(500, 2.0, 1e-4);
    IncrementalAccountant acc = new IncrementalAccountant(p, 1.0);
    long[] withSkip = {100, 0, 50, 80};
    long[] without = {100, 50, 80};
    List<Double> a = new ArrayList<>();
    List<Double> b = new ArrayList<>();
    ModelNoiseState s1 = ModelNoiseState.EMPTY;
    ModelNoiseState s2 = ModelNoiseState.EMPTY;
    for (int r = 0; r < 5; r++) {
      for (long shard : withSkip) {
        NoiseDecision d = acc.decide(s1, shard);
        if (shard > 0) {
          a.add(d.added());
        }
        s1 = d.after();
      }
      for (long shard : without) {
        NoiseDecision d = acc.decide(s2, shard);
        b.add(d.added());
        s2 = d.after();
      }
    }
    assertEquals(b, a);
    assertEquals(s2, s1);
  }

  @Test
  void presentAboveRequiredAddsNothingAndSaysSo() {
    PrivacyParameters p = PrivacyParameters.withDelta0(100, 1.0, 1e-3);
    IncrementalAccountant acc = new IncrementalAccountant(p, 1.0);
    double required = p.requiredVariance(1200, 1.0);
    NoiseDecision d = acc.decide(new ModelNoiseState(2 * required, 1000), 200);
    assertEquals(0.0, d.added(), 0.0);
    assertEquals(2 * required, d.presentAfter(), 0.0);
    assertEquals(required, d.required(), 0.0);
    assertEquals("present already covers required for 1200 samples: none added", d.reason());

    NoiseDecision fresh = acc.decide(ModelNoiseState.EMPTY, 1200);
    assertEquals(required, fresh.added(), 0.0);
    assertEquals("required for 1200 samples (no noise present)", fresh.reason());
    NoiseDecision more = acc.decide(fresh.after(), 300);
    assertEquals("required for 1500 samples minus present", more.reason());

    NoiseDecision server = new IncrementalAccountant(p, 0.25).decide(new ModelNoiseState(1.0, 1200), 0);
    assertEquals("required for 1200 samples at sensitivity √D/4 minus present", server.reason());
    assertRelative(p.requiredVariance(1200, 1.0) / 16 - 1.0, server.added(), TOL, "server tops up");

    NoiseDecision nothing = acc.decide(ModelNoiseState.EMPTY, 0);
    assertEquals(0.0, nothing.required(), 0.0);
    assertEquals("no samples absorbed: none required", nothing.reason());
  }

  @Test
  void anUnderNoisedModelIsToppedUpToItsRequirement() {
    PrivacyParameters p = PrivacyParameters.withDelta0(100, 1.0, 1e-3);
    IncrementalAccountant acc = new IncrementalAccountant(p, 1.0);
    // absorbed 1000 samples with a third of the noise it needed, gets 10 more
    double partial = p.requiredVariance(1000, 1.0) / 3;
    NoiseDecision d = acc.decide(new ModelNoiseState(partial, 1000), 10);
    assertRelative(p.requiredVariance(1010, 1.0) - partial, d.added(), TOL, "top-up");
    assertEquals(p.requiredVariance(1010, 1.0), d.presentAfter(), 0.0);
  }

  @Test
  void averageDividesByKSquaredAndCountsSharedSamplesOnce() {
    List<ModelNoiseState> models = List.of(new ModelNoiseState(4.0, 1100), new ModelNoiseState(8.0, 1050),
        new ModelNoiseState(6.0, 1000));
    ModelNoiseState avg = ModelNoiseState.average(1000, models);
    assertEquals(18.0 / 9, avg.presentVariance(), 0.0);
    assertEquals(1000 + 100 + 50 + 0, avg.samplesAbsorbed());
    assertEquals(new ModelNoiseState(5.0, 7), ModelNoiseState.average(7, Collections.nCopies(1, new ModelNoiseState(5.0, 7))));
    assertThrows(IllegalArgumentException.class, () -> ModelNoiseState.average(0, List.of()));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ModelNoiseState.average(1000, List.of(new ModelNoiseState(1, 999))));
    assertTrue(e.getMessage().contains("fewer than"), e.getMessage());
  }

  @Test
  void rejectsInvalidInput() {
    PrivacyParameters p = PrivacyParameters.withDelta0(100, 1.0, 1e-3);
    assertThrows(IllegalArgumentException.class, () -> new IncrementalAccountant(p, 0));
    assertThrows(IllegalArgumentException.class, () -> new IncrementalAccountant(p, Double.NaN));
    assertThrows(IllegalArgumentException.class, () -> new IncrementalAccountant(p, Double.POSITIVE_INFINITY));
    assertThrows(NullPointerException.class, () -> new IncrementalAccountant(null, 1));
    IncrementalAccountant acc = new IncrementalAccountant(p, 1);
    assertThrows(IllegalArgumentException.class, () -> acc.decide(ModelNoiseState.EMPTY, -1));
    assertThrows(IllegalArgumentException.class, () -> acc.decide(new ModelNoiseState(0, Long.MAX_VALUE), 1));
    assertThrows(IllegalArgumentException.class, () -> new ModelNoiseState(-1, 0));
    assertThrows(IllegalArgumentException.class, () -> new ModelNoiseState(Double.NaN, 0));
    assertThrows(IllegalArgumentException.class, () -> new ModelNoiseState(0, -1));
  }
}
