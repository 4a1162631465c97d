package io.hdfl.sensors.energy;

import java.util.Objects;

/**
 * Energy spent between two readings of one meter, e.g. one federated round.
 *
 * @param joules energy between the readings (≥ 0)
 * @param seconds wall time between the readings (≥ 0)
 * @param provenance the meter's provenance (both readings share it)
 */
public record RoundEnergy(double joules, double seconds, Provenance provenance) {

  public RoundEnergy {
    Objects.requireNonNull(provenance, "provenance");
    if (!(joules >= 0) || !Double.isFinite(joules)) {
      throw new IllegalArgumentException(provenance.source() + ": round energy must be finite and ≥ 0, got " + joules);
    }
    if (!(seconds >= 0) || !Double.isFinite(seconds)) {
      throw new IllegalArgumentException(provenance.source() + ": round duration must be finite and ≥ 0, got " + seconds);
    }
  }

  /**
   * The energy between {@code before} and {@code after}, two readings of the same meter.
   *
   * @throws IllegalArgumentException if the readings come from different meters, are out of order,
   *     or the cumulative count went backwards (a meter fault, e.g. a reversed current sensor)
   */
  public static RoundEnergy between(EnergyReading before, EnergyReading after) {
    Objects.requireNonNull(before, "before");
    Objects.requireNonNull(after, "after");
    if (!before.provenance().source().equals(after.provenance().source())
        || before.provenance().kind() != after.provenance().kind()) {
      throw new IllegalArgumentException("readings come from different meters: "
          + before.provenance().label() + " and " + after.provenance().label());
    }
    long nanos = after.nanoTime() - before.nanoTime();
    if (nanos < 0) {
      throw new IllegalArgumentException(after.provenance().source() + ": readings are out of order ("
          + nanos + " ns between them)");
    }
    double joules = after.joules() - before.joules();
    if (joules < 0) {
      throw new IllegalArgumentException(after.provenance().source() + ": cumulative energy went backwards by "
          + (-joules) + " J between the readings");
    }
    return new RoundEnergy(joules, nanos / 1e9, after.provenance());
  }

  /** Mean power over the interval in watts; 0 for an empty interval. */
  public double averageWatts() {
    return seconds == 0 ? 0 : joules / seconds;
  }

  /** This round's joules plus {@code radio}'s estimate (for a meter whose rail leaves the radio out). */
  public double joulesWith(RadioEstimate radio) {
    return joules + radio.joules();
  }

  /** The source of {@link #joulesWith}: this round's meter and the radio estimate, e.g. {@code MEASURED rapl:… + ESTIMATED radio:…}. */
  public String sourceWith(RadioEstimate radio) {
    return provenance.label() + " + " + radio.provenance().label();
  }
}
