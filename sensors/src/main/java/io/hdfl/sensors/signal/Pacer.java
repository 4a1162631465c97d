package io.hdfl.sensors.signal;

import java.util.concurrent.TimeUnit;

/**
 * Schedules samples by their timestamps under a {@link Pacing}: the first sample asked for anchors
 * the schedule (its timestamp ↔ the wall clock then); sample {@code t} is due at
 * {@code anchorWall + (t − anchorStream) / factor}. Not thread-safe.
 */
final class Pacer {

  /** The wall clock and sleep, injectable so pacing is tested exactly. */
  interface Clock {
    long nanoTime();

    void sleepNanos(long nanos) throws InterruptedException;
  }

  /** {@link System#nanoTime()} and {@link TimeUnit#sleep}. */
  static final Clock SYSTEM = new Clock() {
    @Override
    public long nanoTime() {
      return System.nanoTime();
    }

    @Override
    public void sleepNanos(long nanos) throws InterruptedException {
      TimeUnit.NANOSECONDS.sleep(nanos);
    }
  };

  private final Pacing pacing;
  private final Clock clock;
  private boolean anchored;
  private long anchorWall;
  private long anchorStream;

  Pacer(Pacing pacing, Clock clock) {
    this.pacing = pacing;
    this.clock = clock;
  }

  Pacing pacing() {
    return pacing;
  }

  Clock clock() {
    return clock;
  }

  /** Anchors the schedule again at the next sample asked for (after samples were skipped). */
  void restart() {
    anchored = false;
  }

  /** Nanoseconds until the sample stamped {@code timestampNanos} is due; ≤ 0 when due. */
  long remainingNanos(long timestampNanos) {
    if (pacing.isUnpaced()) {
      return 0;
    }
    long now = clock.nanoTime();
    if (!anchored) {
      anchored = true;
      anchorWall = now;
      anchorStream = timestampNanos;
      return 0;
    }
    double offset = (double) (timestampNanos - anchorStream) / pacing.factor();
    double remaining = anchorWall + offset - now;
    return remaining >= Long.MAX_VALUE ? Long.MAX_VALUE : (long) Math.ceil(remaining);
  }

  /**
   * Waits until the sample is due, but at most {@code maxWaitNanos}.
   *
   * @return true if it is due now, false if the wait ended first
   */
  boolean awaitDue(long timestampNanos, long maxWaitNanos) throws InterruptedException {
    long start = clock.nanoTime();
    while (true) {
      long remaining = remainingNanos(timestampNanos);
      if (remaining <= 0) {
        return true;
      }
      long waited = clock.nanoTime() - start;
      if (waited >= maxWaitNanos) {
        return false;
      }
      clock.sleepNanos(Math.min(remaining, maxWaitNanos - waited));
    }
  }
}
