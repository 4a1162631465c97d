package io.hdfl.sensors.signal.pi4j;

/**
 * What a {@link PolledSignalSource} does when sampling cannot keep its schedule: a cycle (reading
 * every device once) took longer than the period (an <b>overrun</b>), or a sample started more than
 * the allowed lateness after its tick (a <b>missed tick</b>: the devices or the consumer were late).
 */
public enum OverrunPolicy {
  /**
   * Keep the schedule: skip the ticks that are too late (the timestamps then show a gap of whole
   * periods, which windowing detects), count overruns and missed ticks in
   * {@link PolledSignalSource#stats()}, and log the first of each once.
   */
  SKIP,
  /** Throw a {@link SamplingOverrunException} naming the cycle time or lateness and the period. */
  FAIL
}
