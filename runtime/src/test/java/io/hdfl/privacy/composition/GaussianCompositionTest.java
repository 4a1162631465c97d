package io.hdfl.privacy.composition;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class GaussianCompositionTest {

  @Test
  void tFoldGaussianRdpIsTheClosedForm() {
    // RDP of T Gaussian releases with sensitivity Δ and noise σ: α/(2σ²)·T·Δ².
    double delta = 3.0, sigma2 = 7.5, alpha = 3.14159;
    int t = 40;
    GaussianComposition g = GaussianComposition.repeated(t, delta, sigma2);
    assertEquals(alpha / (2 * sigma2) * t * delta * delta, g.rdp(alpha), 1e-12);
    assertEquals(t * delta * delta / sigma2, g.mu() * g.mu(), 1e-12);
    // Heterogeneous releases add up.
    GaussianComposition h = GaussianComposition.of(List.of(new GaussianRelease(1, 2.71828 * 2.71828, "a"),
        new GaussianRelease(1, 6.28319 * 6.28319, "b")));
    assertEquals(alpha / (2 * 2.71828 * 2.71828) + alpha / (2 * 6.28319 * 6.28319), h.rdp(alpha), 1e-12);
  }

  /** Published vector: Google dp_accounting, test_compute_epsilon_delta_pure_dp. */
  @Test
  void publishedVectorConstantRdp() {
    double[] orders = new double[31];
    double[] rdp = new double[31];
    for (int i = 0; i < 31; i++) {
      orders[i] = i + 2;
      rdp[i] = 1.1;
    }
    double[] r = GaussianComposition.epsilonFromRdp(orders, rdp, 1e-5);
    assertEquals(1.32783806176, r[0], 1e-10);
    assertEquals(32, r[1]);
  }

  /** Published vector: σ = 4.530877117 gives exactly (1, 1e-6) through the RDP conversion. */
  @Test
  void publishedVectorGaussianRdpConversion() {
    GaussianComposition g = GaussianComposition.repeated(1, 1.0, 4.530877117 * 4.530877117);
    // dp_accounting minimises over orders 1.000..99.999 step 0.001; we minimise continuously.
    assertEquals(1.0, g.epsilonRdp(1e-6), 1e-6);
  }

  /** The exact curve against Balle & Wang (2018) Thm 8 for μ = 1, and the ordering of the bounds. */
  @Test
  void exactCurveIsTightAndBelowTheBounds() {
    GaussianComposition g = GaussianComposition.repeated(1, 1.0, 1.0);
    for (double eps = 0; eps < 10; eps += 0.37) {
      double expected = 0.5 * erfcReference((eps - 0.5) / Math.sqrt(2))
          - Math.exp(eps) * 0.5 * erfcReference((eps + 0.5) / Math.sqrt(2));
      assertEquals(expected, g.deltaExact(eps), 1e-9 * expected + 1e-300, "eps " + eps); // Simpson reference is good to ~1e-11
    }
    for (double delta : new double[] {1e-3, 1e-6, 1e-9, 1e-12}) {
      for (double mu : new double[] {0.05, 0.5, 1, 3, 10}) {
        GaussianComposition c = GaussianComposition.repeated(1, mu, 1.0);
        double exact = c.epsilonExact(delta);
        double rdp = c.epsilonRdp(delta);
        double zcdp = c.epsilonZcdp(delta);
        assertTrue(exact <= rdp + 1e-9 && rdp <= zcdp + 1e-9, mu + " " + delta + ": " + exact + " " + rdp + " " + zcdp);
        assertEquals(delta, c.deltaExact(exact), 1e-6 * delta);
      }
    }
  }

  /**
   * Large μ (a wire reader of a retraining ring): the exact ε used to stop at ln(Double.MAX_VALUE) ≈
   * 709.8, where e^ε overflowed. References: the same curve bisected with 60-digit arithmetic (mpmath).
   */
  @Test
  void exactEpsilonBeyondWhereTheExponentialOverflows() {
    assertEquals(1567.12582748303, GaussianComposition.repeated(1, 50, 1.0).epsilonExact(1e-10), 1e-9 * 1567);
    assertEquals(24642.9816760516, GaussianComposition.repeated(1, 216, 1.0).epsilonExact(5.56e-10), 1e-9 * 24643);
    assertEquals(96.7172719638677, GaussianComposition.repeated(1, 10, 1.0).epsilonExact(1e-6), 1e-9 * 96.7);
    GaussianComposition big = GaussianComposition.repeated(1, 216, 1.0);
    assertTrue(big.epsilonExact(5.56e-10) <= big.epsilonRdp(5.56e-10), "the exact curve is below the RDP bound");
  }

  @Test
  void logCdfFollowsTheTailWhereTheCdfUnderflows() {
    // ln Φ(z), 40-digit references (mpmath), on both sides of the switch to the asymptotic series
    // absolute: the series' last term (105/z^8) is 1.5e-10 at z = -30.1, so a wrong one would show
    assertEquals(-451.32291245852863447, StandardNormal.logCdf(-29.9), 1e-11);
    assertEquals(-457.32956441638225788, StandardNormal.logCdf(-30.1), 1e-11);
    assertEquals(-804.60844201375378817, StandardNormal.logCdf(-40), 1e-11);
    assertEquals(-5005.5242086942050886, StandardNormal.logCdf(-100), 1e-10);
    assertEquals(-45006.62273211866336, StandardNormal.logCdf(-300), 1e-9);
    assertEquals(Math.log(0.15865525393145707), StandardNormal.logCdf(-1), 1e-15);
  }

  @Test
  void standardNormalTailsAreAccurate() {
    // Reference values of Φ(−z): z = 1, 5, 10, 20, 37.
    assertEquals(0.15865525393145707, StandardNormal.cdf(-1), 1e-15);
    assertEquals(2.866515718791939e-7, StandardNormal.cdf(-5), 1e-12 * 2.87e-7);
    assertEquals(7.619853024160527e-24, StandardNormal.cdf(-10), 1e-11 * 7.62e-24);
    assertEquals(2.7536241186062336e-89, StandardNormal.cdf(-20), 1e-10 * 2.75e-89);
    assertEquals(0.5, StandardNormal.cdf(0), 1e-16);
    assertEquals(1 - 0.15865525393145707, StandardNormal.cdf(1), 1e-15);
  }

  @Test
  void zeroAndInfiniteCases() {
    assertEquals(0, GaussianComposition.of(List.of()).epsilonRdp(1e-5));
    assertEquals(0, GaussianComposition.repeated(3, 0, 1).epsilonExact(1e-5));
    assertEquals(Double.POSITIVE_INFINITY, GaussianComposition.repeated(1, 1, 0).epsilonExact(1e-5));
    assertEquals(Double.POSITIVE_INFINITY, GaussianComposition.repeated(1, 1, 0).epsilonRdp(1e-5));
    assertThrows(IllegalArgumentException.class, () -> GaussianComposition.repeated(1, 1, 1).epsilonRdp(0));
    assertThrows(IllegalArgumentException.class, () -> new GaussianRelease(-1, 1, "x"));
  }

  /** erfc by composite Simpson integration of its definition, independent of StandardNormal. */
  private static double erfcReference(double x) {
    // erfc(x) = 2/√π ∫_x^∞ e^{-t²} dt; integrate to x + 12 (the rest is below 1e-60 relative).
    int n = 200_000;
    double a = x, b = x + 12, h = (b - a) / n, s = Math.exp(-a * a) + Math.exp(-b * b);
    for (int i = 1; i < n; i++) {
      double t = a + i * h;
      s += (i % 2 == 0 ? 2 : 4) * Math.exp(-t * t);
    }
    return 2 / Math.sqrt(Math.PI) * s * h / 3;
  }
}
