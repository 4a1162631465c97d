package io.hdfl.sensors.energy;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Power figures of a kind of device, for the {@link CpuTimeModelMeter} and {@link RadioEstimate}.
 * Shipped profiles are in {@link DeviceProfiles}; {@link DeviceProfiles#resolve} also builds
 * custom ones.
 *
 * @param name short identifier ({@code [a-z0-9._-]+}), e.g. {@code raspberry-pi-4}
 * @param activeWatts power added by one fully busy core, i.e. joules per CPU-second of the
 *     process (a process keeping two cores busy for 1 s uses 2 CPU-seconds)
 * @param idleWatts the device's power when idle, attributed in full to the process over wall time
 * @param radioJoulesPerByteSent radio energy per application byte sent
 * @param radioJoulesPerByteReceived radio energy per application byte received
 * @param source where the figures come from and what they assume (printed in reports)
 */
public record DeviceProfile(
    String name,
    double activeWatts,
    double idleWatts,
    double radioJoulesPerByteSent,
    double radioJoulesPerByteReceived,
    String source) {

  private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9._-]*");

  public DeviceProfile {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(source, "source");
    if (!NAME.matcher(name).matches()) {
      throw new IllegalArgumentException("device profile name must match [a-z0-9][a-z0-9._-]*, got '" + name + "'");
    }
    requireNonNegative(name, "active watts", activeWatts);
    requireNonNegative(name, "idle watts", idleWatts);
    requireNonNegative(name, "radio J/byte sent", radioJoulesPerByteSent);
    requireNonNegative(name, "radio J/byte received", radioJoulesPerByteReceived);
  }

  private static void requireNonNegative(String profile, String what, double value) {
    if (!(value >= 0) || !Double.isFinite(value)) {
      throw new IllegalArgumentException("device profile " + profile + ": " + what + " must be finite and ≥ 0, got " + value);
    }
  }

  /**
   * The CPU-time model: {@code cpuSeconds × activeWatts + idleWatts × wallSeconds} joules.
   */
  public double modelJoules(double cpuSeconds, double wallSeconds) {
    return cpuSeconds * activeWatts + idleWatts * wallSeconds;
  }

  /** One line: {@code raspberry-pi-4: 0.93 W per busy core, 2.7 W idle, radio 1.6e-07 / 1.2e-07 J/B}. */
  public String summary() {
    return name + ": " + activeWatts + " W per busy core, " + idleWatts + " W idle, radio "
        + radioJoulesPerByteSent + " J/B sent, " + radioJoulesPerByteReceived + " J/B received";
  }
}
