package io.hdfl.sensors.signal.pi4j;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongConsumer;

/**
 * A clock that moves only when slept on or advanced: records every sleep and can run a hook on each
 * (the hook sees the sleep's length; it runs before the time advances).
 */
final class FakeClock implements MonotonicClock {

  /** 2024-01-01T00:00:00Z in ns since the epoch. */
  static final long EPOCH = 1_704_067_200_000_000_000L;

  long now = 5_000_000_000L;
  final List<Long> sleeps = new ArrayList<>();
  LongConsumer onSleep = n -> {};

  @Override
  public long nanoTime() {
    return now;
  }

  @Override
  public long epochNanos() {
    return EPOCH;
  }

  @Override
  public void sleepNanos(long nanos) {
    sleeps.add(nanos);
    onSleep.accept(nanos);
    if (nanos > 0) {
      now += nanos;
    }
  }

  void advance(long nanos) {
    now += nanos;
  }
}
