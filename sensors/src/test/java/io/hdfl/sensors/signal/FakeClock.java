package io.hdfl.sensors.signal;

import java.util.ArrayList;
import java.util.List;

/** A pacing clock that only moves when slept on or advanced; records every sleep. */
final class FakeClock implements Pacer.Clock {

  long now = 1_000_000_000L;
  final List<Long> sleeps = new ArrayList<>();

  @Override
  public long nanoTime() {
    return now;
  }

  @Override
  public void sleepNanos(long nanos) {
    sleeps.add(nanos);
    now += nanos;
  }

  void advance(long nanos) {
    now += nanos;
  }
}
