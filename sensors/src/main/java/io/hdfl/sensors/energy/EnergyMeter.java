package io.hdfl.sensors.energy;

/**
 * A source of cumulative energy in joules for this device or process, with the provenance of its
 * figures. Implementations are thread-safe.
 *
 * <p>Readings are cumulative from the moment the meter started counting (an implementation says
 * when); only differences between two readings of the same meter mean anything, see
 * {@link RoundEnergy#between}.
 */
public interface EnergyMeter extends AutoCloseable {

  /** Short stable name used in reports and logs, e.g. {@code rapl:package-0}. */
  String name();

  /** Whether this meter's figures are MEASURED or ESTIMATED, and by what. */
  Provenance provenance();

  /**
   * Reads the cumulative energy now.
   *
   * @throws EnergyMeterException if the meter can no longer be read (the message names the meter
   *     and the cause)
   */
  EnergyReading read();

  /** Releases what the meter holds (a device handle, a sampler thread). Idempotent. */
  @Override
  default void close() {}
}
