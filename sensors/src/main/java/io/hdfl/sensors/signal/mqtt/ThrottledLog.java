package io.hdfl.sensors.signal.mqtt;

import java.util.function.LongSupplier;

/**
 * Warnings about untrusted input, bounded so a misbehaving publisher cannot flood the log: the first
 * {@value #BURST} problems of a source are logged one line each, after that at most one line per minute,
 * which also says how many problems were not logged since the previous line. Every problem is still
 * counted in the source's stats. Text taken from the input goes through {@link #printable} first, so a
 * payload or topic cannot forge log lines.
 */
final class ThrottledLog {

  static final System.Logger LOG = System.getLogger("io.hdfl.sensors.signal.mqtt");
  static final int BURST = 10;
  static final long QUIET_NANOS = 60_000_000_000L;

  private final String source;
  private final LongSupplier nanoTime;
  private int logged;
  private long suppressed;
  private long lastLine;
  private int infoLogged;
  private long infoSuppressed;
  private long lastInfo;

  ThrottledLog(String source) {
    this(source, System::nanoTime);
  }

  ThrottledLog(String source, LongSupplier nanoTime) {
    this.source = source;
    this.nanoTime = nanoTime;
  }

  /** Logs {@code problem} at WARNING unless the budget is spent; returns whether it was logged. */
  synchronized boolean warn(String problem) {
    long now = nanoTime.getAsLong();
    if (logged < BURST) {
      logged++;
      lastLine = now;
      LOG.log(System.Logger.Level.WARNING, source + ": " + problem
          + (logged == BURST ? " (further problems of this source: at most one line per minute)" : ""));
      return true;
    }
    if (now - lastLine >= QUIET_NANOS) {
      LOG.log(System.Logger.Level.WARNING, source + ": " + problem + " (" + suppressed
          + " more problems not logged since the previous line; see the source's stats)");
      suppressed = 0;
      lastLine = now;
      return true;
    }
    suppressed++;
    return false;
  }

  /**
   * Logs a state change (birth, death, reconnect) at INFO, with its own budget like {@link #warn}: a
   * publisher that flaps between birth and death cannot flood the log either.
   */
  synchronized void info(String message) {
    long now = nanoTime.getAsLong();
    if (infoLogged < BURST) {
      infoLogged++;
      lastInfo = now;
      LOG.log(System.Logger.Level.INFO, source + ": " + message);
    } else if (now - lastInfo >= QUIET_NANOS) {
      LOG.log(System.Logger.Level.INFO, source + ": " + message + " (" + infoSuppressed
          + " more state changes not logged since the previous line)");
      infoSuppressed = 0;
      lastInfo = now;
    } else {
      infoSuppressed++;
    }
  }

  /**
   * {@code s} cut to {@code max} characters (with "..." when cut) and with control characters
   * replaced by {@code ?}, quoted; {@code null} prints as null.
   */
  static String printable(String s, int max) {
    if (s == null) {
      return "null";
    }
    StringBuilder b = new StringBuilder(Math.min(s.length(), max) + 5).append('\'');
    int n = Math.min(s.length(), max);
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      b.append(Character.isISOControl(c) || Character.isSurrogate(c) ? '?' : c);
    }
    if (s.length() > max) {
      b.append("...");
    }
    return b.append('\'').toString();
  }
}
