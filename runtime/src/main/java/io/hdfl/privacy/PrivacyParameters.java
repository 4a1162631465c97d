package io.hdfl.privacy;

/**
 * The constants of the Gaussian mechanism on HD models (DESIGN §4): dimension D, budget ε and
 * coefficient δ0 (δ = δ0 / samples protected). With sensitivity Δ = s·√D (s = 1 for a model one
 * sample enters once; s = 1/K for the average of K models), the Gaussian mechanism needs variance
 * σ² ≥ 2Δ²ln(1.25/δ)/ε² = c·s²·ln(1.25·n/δ0) for n samples, where c = 2D/ε². δ0 = 1 is
 * FedHDPrivacy's δ = 1/samples; user-chosen δ0 must lie strictly inside (0, 1) ({@link #withDelta0}).
 */
public record PrivacyParameters(int dim, double epsilon, double delta0) {
  public PrivacyParameters {
    if (dim < 1) {
      throw new IllegalArgumentException("dimension D must be >= 1, got " + dim);
    }
    if (!(epsilon > 0) || !Double.isFinite(epsilon)) {
      throw new IllegalArgumentException("epsilon must be a finite number > 0, got " + epsilon);
    }
    if (!(delta0 > 0 && delta0 <= 1)) {
      throw new IllegalArgumentException("delta0 must be in (0, 1] (1 meaning delta = 1/samples), got " + delta0);
    }
  }

  /**
   * PrivateDFL's parameters: δ0 given by the user, strictly inside (0, 1).
   */
  public static PrivacyParameters withDelta0(int dim, double epsilon, double delta0) {
    if (!(delta0 > 0 && delta0 < 1)) {
      throw new IllegalArgumentException("delta0 must be in (0, 1), got " + delta0);
    }
    return new PrivacyParameters(dim, epsilon, delta0);
  }

  /** FedHDPrivacy's convention δ = 1/samples, i.e. δ0 = 1. */
  public static PrivacyParameters perSampleDelta(int dim, double epsilon) {
    return new PrivacyParameters(dim, epsilon, 1.0);
  }

  /** c = 2D/ε². */
  public double c() {
    return 2.0 * dim / (epsilon * epsilon);
  }

  /**
   * Variance the Gaussian mechanism requires in a model that has absorbed {@code samples} samples,
   * with sensitivity {@code sensitivityScale}·√D: {@code c·s²·ln(1.25·samples/δ0)}.
   */
  public double requiredVariance(long samples, double sensitivityScale) {
    if (samples < 1) {
      throw new IllegalArgumentException("samples must be >= 1, got " + samples);
    }
    if (!(sensitivityScale > 0) || !Double.isFinite(sensitivityScale)) {
      throw new IllegalArgumentException("sensitivity scale must be > 0, got " + sensitivityScale);
    }
    return c() * sensitivityScale * sensitivityScale * Math.log(1.25 * samples / delta0);
  }
}
