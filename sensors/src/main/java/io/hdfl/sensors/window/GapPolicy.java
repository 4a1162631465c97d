package io.hdfl.sensors.window;

/**
 * What {@link Windowing} does when sample timing breaks the nominal period P (detected from each
 * sample's timestamp against the previous one's, with tolerance τ·P):
 * <ul>
 *   <li>a <b>gap</b>: the interval is k·P ± τ·P with k ≥ 2, so k − 1 samples are missing;
 *   <li>an <b>irregular</b> interval: not within τ·P of any multiple k ≥ 1 of P (too early, a
 *       duplicate or a jittered sample beyond the tolerance).
 * </ul>
 * No policy lets a window silently span a discontinuity.
 */
public enum GapPolicy {
  /**
   * Discard the samples buffered so far and start windowing afresh at the sample after the break:
   * every window that would have spanned it is lost (counted as a discontinuity).
   */
  DROP_WINDOW,
  /**
   * Fill up to {@code maxFill} missing samples with copies of the last sample (same values and label,
   * timestamps on the nominal grid), marked in {@link Window#filledSamples()}; longer gaps and
   * irregular intervals are handled as {@link #DROP_WINDOW}.
   */
  FILL_PREVIOUS,
  /** Throw a {@link WindowingException} naming the timestamps. */
  FAIL
}
