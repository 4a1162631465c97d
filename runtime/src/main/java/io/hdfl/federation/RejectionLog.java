package io.hdfl.federation;

import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * Where a peer says why it refused a frame (a forged, altered, replayed or malformed model, ack,
 * update or packet), at most {@link #BURST} lines a minute. Anyone who can publish to the federation's
 * topics can send frames a peer refuses, as fast as the broker takes them; one warning each filled a
 * device's log (and its storage) at that rate. Beyond the burst the lines are counted, and the first
 * one let through in a later minute is preceded by how many were left out; {@link #summary} counts
 * them all (a device's run-timeout message shows it). A refusal identical to the last line written is
 * written again only {@link #REPEAT_QUIET_NANOS} after it, with how many times it came meanwhile: a
 * peer of other settings than this one's (a global model announced every 2 s, say) wrote the same
 * line 20 times a minute for as long as the device ran.
 */
final class RejectionLog {
  /** Lines written per {@link #WINDOW_NANOS}, before the rest of the window's are only counted. */
  static final int BURST = 20;
  static final long WINDOW_NANOS = 60_000_000_000L;
  /** How long a refusal identical to the last line written is only counted. */
  static final long REPEAT_QUIET_NANOS = 10 * WINDOW_NANOS;

  private final Consumer<String> sink;
  private final LongSupplier clock;
  private long windowStart;
  private int written;
  private long leftOut;
  private boolean started;
  private long total;
  private String last;
  private String lastWritten;
  private long lastWrittenAt;
  private long repeats;

  /** Lines go to {@code sink}, windows by {@code clock} (nanoseconds, as {@link System#nanoTime}). */
  RejectionLog(Consumer<String> sink, LongSupplier clock) {
    this.sink = sink;
    this.clock = clock;
  }

  /** Lines as messages of {@code level} to {@code logger}. */
  static RejectionLog of(System.Logger logger, System.Logger.Level level) {
    return new RejectionLog(line -> logger.log(level, line), System::nanoTime);
  }

  /** How many refusals were told so far (written or counted), and the last one; null before any. */
  synchronized String summary() {
    return total == 0 ? null : total + " frame(s) (the last: " + last + ")";
  }

  /** Writes {@code line}, unless this window's burst is spent (then it is counted). */
  void refused(String line) {
    long left;
    long repeated;
    String repeatedLine;
    synchronized (this) {
      total++;
      last = line;
      long now = clock.getAsLong();
      if (line.equals(lastWritten) && now - lastWrittenAt < REPEAT_QUIET_NANOS) {
        repeats++;
        return;
      }
      if (!started || now - windowStart >= WINDOW_NANOS) {
        started = true;
        windowStart = now;
        written = 0;
      }
      if (written >= BURST) {
        leftOut++;
        return;
      }
      written++;
      left = leftOut;
      leftOut = 0;
      repeated = repeats;
      repeatedLine = lastWritten;
      repeats = 0;
      lastWritten = line;
      lastWrittenAt = now;
    }
    // the counts go into the line written (one line, within the burst): the same refusal's, or the
    // previous refusal's, which came again after it was logged
    String counted = repeated == 0 ? "" : repeatedLine.equals(line)
        ? " (and " + repeated + " more time(s) since it was last logged)"
        : " (the refusal logged before this one came " + repeated + " more time(s) after it)";
    if (left > 0) {
      sink.accept(left + " more refused frame(s) not logged one by one (at most " + BURST + " lines a minute)");
    }
    sink.accept(line + counted);
  }
}
