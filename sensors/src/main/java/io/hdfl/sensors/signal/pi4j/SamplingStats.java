package io.hdfl.sensors.signal.pi4j;

import java.util.Locale;

/**
 * What a {@link PolledSignalSource} has done so far.
 *
 * @param samples samples delivered
 * @param overruns cycles that took longer than the period
 * @param missedTicks scheduled samples skipped because they would have started too late
 * @param longestCycleNanos the longest cycle (reading every device once), in ns
 * @param maxLatenessNanos the latest start of a delivered sample after its tick, in ns
 */
public record SamplingStats(long samples, long overruns, long missedTicks, long longestCycleNanos,
    long maxLatenessNanos) {

  @Override
  public String toString() {
    return String.format(Locale.ROOT, "%d samples, %d overrun(s), %d missed tick(s), longest cycle %.3f ms, "
        + "max lateness %.3f ms", samples, overruns, missedTicks, longestCycleNanos / 1e6, maxLatenessNanos / 1e6);
  }
}
