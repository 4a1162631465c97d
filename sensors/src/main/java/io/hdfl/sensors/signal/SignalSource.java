package io.hdfl.sensors.signal;

import java.io.IOException;
import java.time.Duration;
import java.util.List;

/**
 * A stream of timestamped multichannel {@link Sample}s: an ADC, a broker subscription, a replayed
 * file, a simulator. Pull API: {@link #next()} blocks until the next sample and returns {@code null}
 * at the end of the stream; {@link #next(Duration)} bounds the wait. For a push style, run a source in
 * a {@link SignalPump}.
 *
 * <p>Every sample has exactly {@link #channels()}{@code .size()} values, in channel order, and
 * timestamps that never go backwards (see {@link Sample} for the time base). Sources are not
 * thread-safe: one consumer pulls.
 */
public interface SignalSource extends AutoCloseable {

  /** The channels, in the order of each sample's values; never empty, names unique. */
  List<Channel> channels();

  /** The nominal sample rate in hertz (the rate the source is designed or configured for). */
  double sampleRateHz();

  /**
   * The next sample, waiting for it as long as needed (a paced replay waits until the sample is due).
   *
   * @return the sample, or {@code null} at the end of the stream (and on every call after it)
   * @throws IOException if the source fails; for files, {@link SignalFormatException} names the
   *     position of bad input
   * @throws InterruptedException if the thread is interrupted while waiting
   * @throws IllegalStateException if the source is closed
   */
  Sample next() throws IOException, InterruptedException;

  /**
   * The next sample if it comes within {@code timeout}. A sample not yet due is kept, not lost: a later
   * call returns it.
   *
   * @return the sample, or {@code null} at the end of the stream
   * @throws SignalTimeoutException if no sample came within the timeout (a stalled sensor, or a paced
   *     replay whose next sample is due later)
   * @throws IOException if the source fails
   * @throws InterruptedException if the thread is interrupted while waiting
   */
  Sample next(Duration timeout) throws IOException, InterruptedException;

  /** Releases the source (file, device, connection). Idempotent; {@code next} then throws. */
  @Override
  void close() throws IOException;
}
