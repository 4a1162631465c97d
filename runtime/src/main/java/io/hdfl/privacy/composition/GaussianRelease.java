package io.hdfl.privacy.composition;

/**
 * One release of a record through the Gaussian mechanism: the L2 sensitivity of what was released
 * with respect to that record, and the variance (per coordinate) of the noise the observer cannot
 * subtract. {@code what} says which release it is, for reports.
 */
public record GaussianRelease(double sensitivity, double variance, String what) {
  public GaussianRelease {
    if (!(sensitivity >= 0) || !Double.isFinite(sensitivity)) {
      throw new IllegalArgumentException("sensitivity must be finite and >= 0, got " + sensitivity);
    }
    if (!(variance >= 0) || Double.isNaN(variance)) {
      throw new IllegalArgumentException("variance must be >= 0, got " + variance);
    }
  }

  /** (Δ/σ)²: this release's contribution to μ² of the composed Gaussian DP guarantee. */
  public double muSquared() {
    if (sensitivity == 0) {
      return 0;
    }
    return variance == 0 ? Double.POSITIVE_INFINITY : sensitivity * sensitivity / variance;
  }
}
