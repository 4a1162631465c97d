package io.hdfl.privacy.ledger;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class LedgerEntryTest {
  private static final Pattern REFERENCE = Pattern.compile("[0-9a-f]{64}");

  @Test
  void isHashAcceptsExactlySixtyFourLowerCaseHexDigits() {
    String h = "0123456789abcdef".repeat(4);
    assertTrue(LedgerEntry.isHash(h));
    assertTrue(LedgerEntry.isHash(LedgerEntry.GENESIS_HASH));
    assertFalse(LedgerEntry.isHash(null));
    assertFalse(LedgerEntry.isHash(""));
    assertFalse(LedgerEntry.isHash(h.substring(1)));
    assertFalse(LedgerEntry.isHash(h + "0"));
    assertFalse(LedgerEntry.isHash(h.toUpperCase()));
    for (char bad : new char[] {'g', 'A', 'F', '/', ':', '`', ' ', '\u0663', '\uff10'}) {
      assertFalse(LedgerEntry.isHash(bad + h.substring(1)), "leading " + bad);
      assertFalse(LedgerEntry.isHash(h.substring(0, 63) + bad), "trailing " + bad);
    }
  }

  @Test
  void isHashAgreesWithTheRegularExpressionOnEveryCharacterInEveryPosition() {
    String h = "f".repeat(64);
    for (int pos : new int[] {0, 31, 63}) {
      for (char c = 0; c < 0x2100; c++) {
        String s = h.substring(0, pos) + c + h.substring(pos + 1);
        if (REFERENCE.matcher(s).matches() != LedgerEntry.isHash(s)) {
          throw new AssertionError("disagree on U+" + Integer.toHexString(c) + " at " + pos);
        }
      }
    }
  }

  @Test
  void isValidIdAgreesWithItsPatternOnEveryCharacterInEveryPositionAndEveryLength() {
    assertTrue(LedgerEntry.isValidId("peer-001"));
    assertTrue(LedgerEntry.isValidId("a"));
    assertTrue(LedgerEntry.isValidId("A" + "._-9".repeat(15) + "zzz")); // 64 characters
    assertFalse(LedgerEntry.isValidId("A" + "._-9".repeat(15) + "zzzz")); // 65
    assertFalse(LedgerEntry.isValidId(null));
    assertFalse(LedgerEntry.isValidId(""));
    assertFalse(LedgerEntry.isValidId("-peer"));
    assertFalse(LedgerEntry.isValidId("peer 1"));
    String base = "Peer.01_x-";
    for (int pos : new int[] {0, 1, 5, 9}) {
      for (char c = 0; c < 0x2100; c++) {
        String s = base.substring(0, pos) + c + base.substring(pos + 1);
        if (LedgerEntry.ID.matcher(s).matches() != LedgerEntry.isValidId(s)) {
          throw new AssertionError("disagree on U+" + Integer.toHexString(c) + " at " + pos);
        }
      }
    }
    for (int len = 0; len <= 70; len++) {
      String s = "p" + "-".repeat(Math.max(0, len - 1));
      String exact = s.substring(0, len);
      if (LedgerEntry.ID.matcher(exact).matches() != LedgerEntry.isValidId(exact)) {
        throw new AssertionError("disagree at length " + len);
      }
    }
  }
}
