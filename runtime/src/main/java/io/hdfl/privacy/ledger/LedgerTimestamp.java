package io.hdfl.privacy.ledger;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * A ledger entry's informational timestamp, {@code uuuu-MM-dd'T'HH:mm:ss.SSS'Z'} in UTC (milliseconds
 * truncated). Every ring hop signs one entry, and {@link DateTimeFormatter} took about a sixth of
 * the signing step there (its field lookups and padding printers); years 0000-9999 are written digit
 * by digit instead, with the same text, and any other year goes through the formatter.
 */
final class LedgerTimestamp {
  static final DateTimeFormatter FORMAT =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);
  /** Characters of a timestamp in years 0000-9999 (where {@link LedgerCodec#prevHashAt} looks first). */
  static final int LENGTH = 24;
  /** What {@link #isValid} accepts up to the seconds, a {@code d} for each ASCII digit. */
  private static final String SHAPE = "dddd-dd-ddTdd:dd:dd";
  /** Most digits of a fraction of a second {@link #isValid} accepts (nanoseconds). */
  private static final int MAX_FRACTION_DIGITS = 9;

  private LedgerTimestamp() {}

  /**
   * Whether {@code text} has the shape a ledger accepts: {@code dddd-dd-ddTdd:dd:dd}, optionally a
   * fraction of one to nine digits, then {@code Z} (ASCII digits; the fields' ranges are not checked:
   * the timestamp is informational). A loop rather than a regular expression: every ring hop checks
   * the timestamp it signs.
   */
  static boolean isValid(String text) {
    int seconds = SHAPE.length(); // where the fraction or the Z starts
    if (text == null || text.length() < seconds + 1 || text.length() > seconds + 2 + MAX_FRACTION_DIGITS
        || text.charAt(text.length() - 1) != 'Z') {
      return false;
    }
    for (int i = 0; i < seconds; i++) {
      char want = SHAPE.charAt(i);
      char c = text.charAt(i);
      if (want == 'd' ? c < '0' || c > '9' : c != want) {
        return false;
      }
    }
    int end = text.length() - 1;
    if (end == seconds) {
      return true; // no fraction
    }
    if (text.charAt(seconds) != '.' || end == seconds + 1) {
      return false;
    }
    for (int i = seconds + 1; i < end; i++) {
      char c = text.charAt(i);
      if (c < '0' || c > '9') {
        return false;
      }
    }
    return true;
  }

  static String format(Instant t) {
    LocalDateTime u = LocalDateTime.ofEpochSecond(t.getEpochSecond(), t.getNano(), ZoneOffset.UTC);
    int year = u.getYear();
    if (year < 0 || year > 9999) {
      return FORMAT.format(t);
    }
    char[] c = new char[LENGTH];
    digits(c, 0, year, 4);
    c[4] = '-';
    digits(c, 5, u.getMonthValue(), 2);
    c[7] = '-';
    digits(c, 8, u.getDayOfMonth(), 2);
    c[10] = 'T';
    digits(c, 11, u.getHour(), 2);
    c[13] = ':';
    digits(c, 14, u.getMinute(), 2);
    c[16] = ':';
    digits(c, 17, u.getSecond(), 2);
    c[19] = '.';
    digits(c, 20, t.getNano() / 1_000_000, 3);
    c[23] = 'Z';
    return new String(c);
  }

  /** Writes {@code v} (non-negative) as {@code width} decimal digits, zero-padded, at {@code c[at]}. */
  private static void digits(char[] c, int at, int v, int width) {
    for (int i = at + width - 1; i >= at; i--) {
      c[i] = (char) ('0' + v % 10);
      v /= 10;
    }
  }
}
