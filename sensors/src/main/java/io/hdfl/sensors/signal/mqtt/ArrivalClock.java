package io.hdfl.sensors.signal.mqtt;

import java.time.Instant;
import java.util.function.LongSupplier;

/**
 * Arrival timestamps in nanoseconds since the Unix epoch that never go backwards: the monotonic clock
 * ({@link System#nanoTime()}) anchored once to the wall clock when the source starts, as for every
 * live source (see {@link io.hdfl.sensors.signal.Sample}). A wall-clock step (NTP) after the start does
 * not move arrival times.
 */
final class ArrivalClock {

  private final LongSupplier monotonic;
  private final long wallAnchor;
  private final long monotonicAnchor;

  ArrivalClock() {
    this(System::nanoTime, epochNanos(Instant.now()));
  }

  ArrivalClock(LongSupplier monotonic, long wallAnchorNanos) {
    this.monotonic = monotonic;
    this.monotonicAnchor = monotonic.getAsLong();
    this.wallAnchor = wallAnchorNanos;
  }

  /** Now, in nanoseconds since the epoch. */
  long nowNanos() {
    return wallAnchor + (monotonic.getAsLong() - monotonicAnchor);
  }

  /** The monotonic clock alone, for intervals. */
  long monotonicNanos() {
    return monotonic.getAsLong();
  }

  private static long epochNanos(Instant t) {
    return t.getEpochSecond() * 1_000_000_000L + t.getNano();
  }
}
