package io.hdfl.sensors.energy;

import java.util.Objects;

/**
 * One reading of an {@link EnergyMeter}.
 *
 * @param joules cumulative energy since the meter started counting
 * @param nanoTime {@link System#nanoTime()} (or the meter's injected clock) when it was taken
 * @param provenance what produced the figure
 */
public record EnergyReading(double joules, long nanoTime, Provenance provenance) {

  public EnergyReading {
    Objects.requireNonNull(provenance, "provenance");
    if (!Double.isFinite(joules)) {
      throw new IllegalArgumentException(provenance.source() + ": energy reading is not finite: " + joules);
    }
  }
}
