package io.hdfl.sensors.signal;

import java.io.IOException;

/**
 * A {@link SignalSource} that gives the same samples, in the same order, each time it is opened with
 * the same settings: a recording, a CSV file, the seeded simulator. A device restarted in the middle of
 * a run skips what its previous run read ({@link #skip}) instead of learning the same samples again.
 * Sensors and broker subscriptions are not repeatable: what passed while a device was down is gone.
 */
public interface RepeatableSource extends SignalSource {

  /**
   * Samples delivered by {@code next} or passed by {@link #skip} since the source was opened. Safe to
   * read from any thread (the one consumer's progress, as of a recent sample).
   */
  long position();

  /**
   * Reads past the next {@code samples} samples without waiting for their pacing time; the pacing
   * starts again from the first sample delivered after the skip. Damaged input is reported as
   * {@code next} reports it.
   *
   * @return how many were skipped: fewer than asked only when the stream ended
   * @throws IllegalArgumentException if {@code samples} is negative
   * @throws IllegalStateException if the source is closed
   */
  long skip(long samples) throws IOException;
}
