package io.hdfl.sensors.signal.mqtt;

/**
 * How a JSON timestamp field is written. Epoch values are numbers (or numeric strings) counting from
 * 1970-01-01T00:00:00Z, integral or decimal (converted to whole nanoseconds, half-even); ISO-8601 is
 * text like {@code 2024-05-01T10:15:30.250Z} or {@code 2024-05-01T12:15:30.25+02:00}. Times must fall
 * within 1677-09-21 .. 2262-04-11 (nanoseconds since the epoch in a long).
 */
public enum TimestampFormat {
  EPOCH_SECONDS(1_000_000_000L),
  EPOCH_MILLIS(1_000_000L),
  EPOCH_MICROS(1_000L),
  EPOCH_NANOS(1L),
  ISO_8601(0L);

  private final long nanosPerUnit;

  TimestampFormat(long nanosPerUnit) {
    this.nanosPerUnit = nanosPerUnit;
  }

  /** Nanoseconds per unit of an epoch format (0 for {@link #ISO_8601}). */
  long nanosPerUnit() {
    return nanosPerUnit;
  }
}
