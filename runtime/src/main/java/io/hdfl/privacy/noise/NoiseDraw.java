package io.hdfl.privacy.noise;

/**
 * What one {@link NoiseSource#add} call did, for the privacy ledger and the reports. All variances
 * are per coordinate, in model units.
 *
 * @param source the source's {@link NoiseSource#name() name}
 * @param requestedVariance the variance the caller asked for
 * @param mechanismVariance the variance parameter σ² of the mechanism actually run, never below the
 *     requested one; the privacy guarantee is computed from this (for the discrete Gaussian it is the
 *     σ² of N_Z(0, σ²) on the grid, rounded up to the sampler's rational, times gridStep²)
 * @param realisedVariance the exact variance of the noise added to each coordinate (for the discrete
 *     Gaussian slightly below its σ², by a relative amount of about 8π²σ_Z²·e^(−2π²σ_Z²) for σ_Z = σ
 *     in grid steps, which is below double precision once σ_Z ≥ 1.5; it does not include the
 *     snapping to the grid, see below)
 * @param gridStep the grid the noise lives on (0 = no grid: continuous noise added in floating
 *     point). Before the noise is added, every value is snapped to this grid (moved by at most
 *     gridStep/2), a deterministic change that can raise the L2 sensitivity by at most gridStep per
 *     coordinate in which neighbouring inputs differ ({@link #snapSensitivity})
 * @param draws how many coordinates received noise (0 when the variance is 0)
 * @param roundedResults how many noised values gridStep·n were not exactly representable in float32
 *     (|n| > 2^24, i.e. beyond about 8σ for the secure source) and were stored as the nearest float32:
 *     a function of the exact noised value n alone, so post-processing that leaks nothing
 */
public record NoiseDraw(
    String source,
    double requestedVariance,
    double mechanismVariance,
    double realisedVariance,
    double gridStep,
    long draws,
    long roundedResults) {

  public NoiseDraw {
    if (source == null) {
      throw new NullPointerException("source");
    }
    if (!(requestedVariance >= 0 && mechanismVariance >= requestedVariance && realisedVariance >= 0
        && gridStep >= 0 && draws >= 0 && roundedResults >= 0 && roundedResults <= draws)) {
      throw new IllegalArgumentException("inconsistent noise draw: " + source + " requested " + requestedVariance
          + ", mechanism " + mechanismVariance + ", realised " + realisedVariance + ", grid " + gridStep
          + ", draws " + draws + ", rounded " + roundedResults);
    }
  }

  /** The record of a call that added nothing (variance 0). */
  static NoiseDraw none(String source) {
    return new NoiseDraw(source, 0, 0, 0, 0, 0, 0);
  }

  /** True when noise was added (variance > 0 and at least one coordinate). */
  public boolean added() {
    return draws > 0 && mechanismVariance > 0;
  }

  /**
   * Upper bound on what snapping to the grid can add to the L2 sensitivity when neighbouring inputs
   * differ in {@code differingCoordinates} coordinates: {@code gridStep·√differingCoordinates}
   * (each of the two values moves by at most gridStep/2). 0 for a source without a grid.
   */
  public double snapSensitivity(long differingCoordinates) {
    if (differingCoordinates < 0) {
      throw new IllegalArgumentException("differing coordinates must be >= 0, got " + differingCoordinates);
    }
    return gridStep * Math.sqrt((double) differingCoordinates);
  }
}
