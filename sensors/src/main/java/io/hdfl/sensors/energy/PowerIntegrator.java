package io.hdfl.sensors.energy;

/**
 * Integrates power samples into energy with the trapezoid rule: between samples (t₀, P₀) and
 * (t₁, P₁) it adds (P₀ + P₁)/2 · (t₁ − t₀). The first sample starts the count at 0 J. Not
 * thread-safe; its meter synchronizes.
 */
final class PowerIntegrator {

  private boolean started;
  private long lastNanos;
  private double lastWatts;
  private double joules;

  /** Adds a sample taken at {@code nanoTime}; returns the cumulative joules. */
  double add(double watts, long nanoTime) {
    if (!Double.isFinite(watts)) {
      throw new IllegalArgumentException("power sample is not finite: " + watts);
    }
    if (started) {
      long dt = nanoTime - lastNanos;
      if (dt < 0) {
        throw new IllegalArgumentException("power samples out of order: clock went back " + (-dt) + " ns");
      }
      joules += 0.5 * (lastWatts + watts) * (dt / 1e9);
    }
    started = true;
    lastNanos = nanoTime;
    lastWatts = watts;
    return joules;
  }
}
