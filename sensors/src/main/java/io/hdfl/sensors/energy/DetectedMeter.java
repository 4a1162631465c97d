package io.hdfl.sensors.energy;

import java.util.Objects;

/**
 * The meter {@link EnergyMeters#detect} chose and why, in one line for logs and run reports, e.g.
 * {@code energy: ESTIMATED cpu-model:x86-server-core; no meter: powercap: /sys/class/powercap absent; ...}.
 */
public record DetectedMeter(EnergyMeter meter, String reason) {

  public DetectedMeter {
    Objects.requireNonNull(meter, "meter");
    Objects.requireNonNull(reason, "reason");
    if (reason.contains("\n")) {
      throw new IllegalArgumentException("reason must be one line");
    }
  }
}
