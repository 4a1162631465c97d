package io.hdfl.sensors.signal;

/**
 * How fast a recorded or simulated source delivers samples: as fast as the consumer pulls, at real
 * time (a sample is delivered when its timestamp, relative to the first sample's, has elapsed on the
 * wall clock), or accelerated ×N (N times faster than real time; N &lt; 1 slows down).
 *
 * <p>Pacing never drops or reorders samples: a consumer slower than the pace simply receives the
 * late samples at once, and the schedule stays anchored at the first sample (no drift accumulates).
 */
public final class Pacing {

  /** No waiting: samples are delivered as fast as they are pulled. */
  public static final Pacing AS_FAST_AS_POSSIBLE = new Pacing(0);
  /** One second of signal per second of wall time. */
  public static final Pacing REAL_TIME = new Pacing(1);

  private final double factor;

  private Pacing(double factor) {
    this.factor = factor;
  }

  /**
   * {@code factor} seconds of signal per second of wall time, e.g. 10 for ×10.
   *
   * @throws IllegalArgumentException if the factor is not finite and &gt; 0
   */
  public static Pacing accelerated(double factor) {
    if (!(factor > 0) || !Double.isFinite(factor)) {
      throw new IllegalArgumentException("pacing factor must be finite and > 0, got " + factor);
    }
    return factor == 1 ? REAL_TIME : new Pacing(factor);
  }

  /** Seconds of signal per wall second; 0 for {@link #AS_FAST_AS_POSSIBLE}. */
  public double factor() {
    return factor;
  }

  /** Whether samples are delivered without waiting. */
  public boolean isUnpaced() {
    return factor == 0;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Pacing p && Double.compare(p.factor, factor) == 0;
  }

  @Override
  public int hashCode() {
    return Double.hashCode(factor);
  }

  @Override
  public String toString() {
    return factor == 0 ? "as fast as possible" : factor == 1 ? "real time" : "×" + factor;
  }
}
