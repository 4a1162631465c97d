package io.hdfl.sensors.energy;

import java.util.Objects;

/**
 * Radio energy estimated from traffic: bytes sent × the profile's joules per byte sent + bytes
 * received × joules per byte received. Always ESTIMATED: no meter here separates the radio's share.
 *
 * @param bytesSent application bytes sent (payload and protocol framing as counted by the caller)
 * @param bytesReceived application bytes received
 * @param profile the device profile whose radio figures are used
 */
public record RadioEstimate(long bytesSent, long bytesReceived, DeviceProfile profile) {

  public RadioEstimate {
    Objects.requireNonNull(profile, "profile");
    if (bytesSent < 0 || bytesReceived < 0) {
      throw new IllegalArgumentException("byte counts must be ≥ 0, got sent=" + bytesSent
          + " received=" + bytesReceived);
    }
  }

  /** The estimated radio energy in joules. */
  public double joules() {
    return bytesSent * profile.radioJoulesPerByteSent() + bytesReceived * profile.radioJoulesPerByteReceived();
  }

  /** {@code ESTIMATED radio:<profile>}. */
  public Provenance provenance() {
    return Provenance.estimated("radio:" + profile.name(), "bytes sent × " + profile.radioJoulesPerByteSent()
        + " J/B + bytes received × " + profile.radioJoulesPerByteReceived() + " J/B");
  }
}
