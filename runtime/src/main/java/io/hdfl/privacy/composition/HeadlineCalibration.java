package io.hdfl.privacy.composition;

import java.util.Locale;

/**
 * Whether the classical Gaussian calibration σ² = 2Δ²ln(1.25/δ)/ε² meets its headline ε for one
 * release. It is proven for ε &lt; 1 and holds somewhat above; for a large ε it does not (at δ = 1e-5
 * from ε ≈ 8.4: at ε = 10 one release has exact ε = 10.39), and a report must not print the headline
 * as the guarantee then.
 */
public final class HeadlineCalibration {
  private HeadlineCalibration() {}

  /** The exact (Gaussian-DP) ε at {@code delta} of one release calibrated classically to (epsilon, delta). */
  public static double exactEpsilon(double epsilon, double delta) {
    double mu = epsilon / Math.sqrt(2 * Math.log(1.25 / delta));
    return GaussianComposition.repeated(1, mu, 1).epsilonExact(delta);
  }

  /**
   * A warning when one release's exact ε exceeds the headline {@code epsilon} at {@code delta}, naming
   * both; null when the headline holds. Give the largest δ a release was calibrated at (the first
   * update's, δ0 over the fewest samples): the classical calibration is furthest from its headline
   * there.
   */
  public static String warning(double epsilon, double delta) {
    double exact = exactEpsilon(epsilon, delta);
    if (!(exact > epsilon * (1 + 1e-9))) {
      return null;
    }
    return String.format(Locale.ROOT, "WARNING: the classical calibration is proven for epsilon < 1; at epsilon = %s and"
        + " delta = %.3g one released model alone has exact epsilon = %.4g, more than the headline: the per-observer"
        + " figures, computed from the noise itself, are the guarantee", epsilon, delta, exact);
  }
}
