package io.hdfl.privacy.composition;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class HeadlineCalibrationTest {
  /**
   * One release with σ² = 2Δ²ln(1.25/δ)/ε² is μ-GDP with μ = ε/√(2 ln(1.25/δ)); its exact ε at δ
   * solves δ = Φ(−ε/μ + μ/2) − e^ε Φ(−ε/μ − μ/2) (Balle and Wang 2018), checked here at the returned ε.
   */
  @Test
  void theExactEpsilonOfOneClassicallyCalibratedReleaseSolvesTheGaussianDpCurve() {
    double delta = 1e-5;
    for (double eps : new double[] {0.5, 1, 4, 10}) {
      double exact = HeadlineCalibration.exactEpsilon(eps, delta);
      double mu = eps / Math.sqrt(2 * Math.log(1.25 / delta));
      double curve = StandardNormal.cdf(-exact / mu + mu / 2) - Math.exp(exact) * StandardNormal.cdf(-exact / mu - mu / 2);
      assertEquals(delta, curve, 1e-6 * delta, "eps " + eps);
    }
    assertEquals(10.39, HeadlineCalibration.exactEpsilon(10, delta), 0.005, "the README's example");
  }

  /** Proven below 1 and true a while above; from about 8.4 at δ = 1e-5 one release no longer meets it. */
  @Test
  void aWarningOnlyWhereTheHeadlineIsNotMet() {
    double delta = 1e-5;
    assertNull(HeadlineCalibration.warning(1, delta));
    assertNull(HeadlineCalibration.warning(8.3, delta));
    assertTrue(HeadlineCalibration.exactEpsilon(8.6, delta) > 8.6);
    String w = HeadlineCalibration.warning(10, delta);
    assertTrue(w != null && w.startsWith("WARNING: the classical calibration is proven for epsilon < 1; at epsilon = 10.0"
        + " and delta = 1.00e-05 one released model alone has exact epsilon = 10.39"), w);
  }
}
