package io.hdfl.sensors.window;

/** What {@link Windowing} does with a sample holding NaN or an infinity (a failed reading). */
public enum NonFinitePolicy {
  /**
   * Discard the sample and the samples buffered before it, so no window contains it (counted in
   * {@link WindowingStats#nonFiniteSamples()}); windowing restarts with the next sample.
   */
  DROP_WINDOW,
  /** Throw a {@link WindowingException} naming the channel and timestamp. */
  FAIL
}
