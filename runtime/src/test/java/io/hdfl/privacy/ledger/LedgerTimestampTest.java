package io.hdfl.privacy.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.SplittableRandom;
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
}
