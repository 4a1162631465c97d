package io.hdfl.sensors.signal.pi4j;

import java.time.Instant;
import java.util.concurrent.locks.LockSupport;

/**
 * The time base of the hardware sources: a monotonic clock for schedules and conversion waits, the
 * wall clock (read once, to anchor timestamps to the Unix epoch) and a sleep with sub-millisecond
 * resolution. Injectable so schedules, polls and overruns are tested exactly.
 */
interface MonotonicClock {

  /** Monotonic nanoseconds ({@link System#nanoTime()}). */
  long nanoTime();

  /** The wall clock now, in nanoseconds since the Unix epoch (UTC). */
  long epochNanos();

  /** Sleeps about {@code nanos} (nothing when ≤ 0). */
  void sleepNanos(long nanos) throws InterruptedException;

  /**
   * The system clocks. Sleeping parks the thread until the monotonic deadline: on JDK 17
   * {@code Thread.sleep(millis, nanos)} rounds to whole milliseconds, too coarse for a 1.2 ms ADS1115
   * conversion; {@code parkNanos} wakes within the kernel's timer slack (about 50 µs on Linux).
   */
  MonotonicClock SYSTEM = new MonotonicClock() {
    @Override
    public long nanoTime() {
      return System.nanoTime();
    }

    @Override
    public long epochNanos() {
      Instant now = Instant.now();
      return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }

    @Override
    public void sleepNanos(long nanos) throws InterruptedException {
      long deadline = System.nanoTime() + nanos;
      for (long left = nanos; left > 0; left = deadline - System.nanoTime()) {
        LockSupport.parkNanos(left);
        if (Thread.interrupted()) {
          throw new InterruptedException("interrupted while sleeping");
        }
      }
    }
  };
}
