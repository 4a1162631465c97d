package io.hdfl.privacy.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.SplittableRandom;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class LedgerTimestampTest {
  private static void same(Instant t) {
    assertEquals(LedgerTimestamp.FORMAT.format(t), LedgerTimestamp.format(t), t.toString());
  }

  @Test
  void writesWhatTheFormatterWritesAcrossYearsZeroToNineThousandNineHundredNinetyNine() {
    SplittableRandom rng = new SplittableRandom(11);
    long min = ZonedDateTime.of(0, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC).toEpochSecond();
    long max = ZonedDateTime.of(9999, 12, 31, 23, 59, 59, 0, ZoneOffset.UTC).toEpochSecond();
    for (int i = 0; i < 20_000; i++) {
      same(Instant.ofEpochSecond(rng.nextLong(min, max + 1), rng.nextInt(1_000_000_000)));
    }
  }

  @Test
  void edgesOfDaysYearsAndMilliseconds() {
    same(Instant.EPOCH);
    same(Instant.ofEpochSecond(-1, 999_999_999)); // 1969-12-31T23:59:59.999: truncated, not rounded
    same(Instant.parse("2024-02-29T23:59:59.999999999Z")); // leap day
    same(Instant.parse("2026-12-31T23:59:59.000500Z"));
    same(Instant.parse("2027-01-01T00:00:00Z"));
    same(Instant.parse("0000-01-01T00:00:00Z"));
    same(Instant.parse("9999-12-31T23:59:59.999Z"));
    assertEquals("2026-11-26T09:05:03.007Z", LedgerTimestamp.format(Instant.parse("2026-11-26T09:05:03.007900Z")));
  }

  @Test
  void yearsOutsideFourDigitsGoThroughTheFormatter() {
    Instant late = Instant.parse("+10000-01-01T00:00:00Z");
    Instant early = Instant.parse("-0001-06-01T12:00:00Z");
    same(late);
    same(early);
    assertEquals('+', LedgerTimestamp.format(late).charAt(0));
  }

  /** The shape the ledger has always accepted, as a regular expression: the reference for {@link LedgerTimestamp#isValid}. */
  private static final Pattern SHAPE = Pattern.compile("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,9})?Z");

  private static void judgedLikeThePattern(String text) {
    assertEquals(SHAPE.matcher(text).matches(), LedgerTimestamp.isValid(text), text);
  }

  @Test
  void acceptsExactlyWhatThePatternAccepts() {
    assertTrue(LedgerTimestamp.isValid("2026-11-26T09:05:03.007Z"));
    assertTrue(LedgerTimestamp.isValid("2026-11-26T09:05:03Z"));
    assertTrue(LedgerTimestamp.isValid("2026-11-26T09:05:03.123456789Z"));
    assertFalse(LedgerTimestamp.isValid(null));
    for (String t : new String[] {"", "Z", "2026-11-26T09:05:03.Z", "2026-11-26T09:05:03.1234567890Z",
        "2026-11-26T09:05:03.007", "2026-11-26 09:05:03.007Z", "2026-11-26T09:05:03,007Z", "+2026-11-26T09:05:03Z",
        "2026-11-26T09:05:3Z", "2026-11-26T09:05:03.007ZZ", "2026-11-26T09:05:03.0a7Z", "2026-11-26T09:05:03.007z",
        "2026-1a-26T09:05:03Z", "\u0662026-11-26T09:05:03Z", "2026-11-26T09:05:03.\u0660Z"}) {
      judgedLikeThePattern(t);
    }
    // every one- and two-character change of valid timestamps, with and without fractions
    String alphabet = "0129-:.TZz+ a\u0663";
    SplittableRandom rng = new SplittableRandom(5);
    for (String valid : new String[] {"2026-11-26T09:05:03.007Z", "2026-11-26T09:05:03Z", "0000-00-00T00:00:00.1Z"}) {
      for (int i = 0; i < valid.length(); i++) {
        for (int k = 0; k < alphabet.length(); k++) {
          char[] c = valid.toCharArray();
          c[i] = alphabet.charAt(k);
          judgedLikeThePattern(new String(c));
          judgedLikeThePattern(valid.substring(0, i) + alphabet.charAt(k) + valid.substring(i)); // inserted
          judgedLikeThePattern(valid.substring(0, i) + valid.substring(i + 1)); // deleted
          c[rng.nextInt(c.length)] = alphabet.charAt(rng.nextInt(alphabet.length()));
          judgedLikeThePattern(new String(c));
        }
      }
    }
  }
}
