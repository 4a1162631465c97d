package io.hdfl.federation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hdfl.privacy.ledger.LedgerCodec;
import org.junit.jupiter.api.Test;

class RecentHashesTest {

  private static String hashOf(int i) {
    return LedgerCodec.hash("line " + i);
  }

  @Test
  void remembersTheLastCapacityHashesAndForgetsTheOldestFirst() {
    RecentHashes recent = new RecentHashes(5);
    for (int i = 0; i < 12; i++) {
      recent.add(hashOf(i));
      assertEquals(Math.min(i + 1, 5), recent.size());
      for (int j = 0; j <= i; j++) {
        assertEquals(j > i - 5, recent.contains(hashOf(j)), "hash " + j + " after adding " + i);
      }
      assertFalse(recent.contains(hashOf(i + 1)));
    }
  }

  @Test
  void readsAHashInPlaceAsItsCopyReadsIt() {
    String hash = hashOf(7);
    String line = "{\"v\":1,\"prev_hash\":\"" + hash + "\",\"timestamp\":\"x\"}";
    int at = LedgerCodec.prevHashAt(line);
    assertEquals(hash, line.substring(at, at + 64));
    RecentHashes recent = new RecentHashes(3);
    recent.add(line, at);
    assertTrue(recent.contains(hash));
    assertTrue(recent.contains(line, at));
    assertFalse(recent.contains(hashOf(8)));
  }

  @Test
  void theKeyIsTheFirstSixteenHexDigits() {
    assertEquals(0x0123456789abcdefL, RecentHashes.key("0123456789abcdef" + "f".repeat(48), 0));
    assertEquals(-1L, RecentHashes.key("ffffffffffffffff", 0));
    assertEquals(0xabL, RecentHashes.key("xx00000000000000ab", 2));
    // hashes that differ only after the 16th digit share a key: a 64-bit prefix stands for the hash
    assertEquals(RecentHashes.key("0".repeat(63) + "1", 0), RecentHashes.key("0".repeat(64), 0));
  }

  @Test
  void rejectsWhatIsNotSixteenLowerCaseHexDigits() {
    assertThrows(IllegalArgumentException.class, () -> RecentHashes.key("0123456789ABCDEF", 0));
    assertThrows(IllegalArgumentException.class, () -> RecentHashes.key("0123456789abcde:", 0));
    assertThrows(IllegalArgumentException.class, () -> RecentHashes.key("0123456789abcdeg", 0));
    assertThrows(IllegalArgumentException.class, () -> RecentHashes.key("0123456789abcde", 0));
    assertThrows(IllegalArgumentException.class, () -> RecentHashes.key("0123456789abcdef", 1));
    assertThrows(IllegalArgumentException.class, () -> new RecentHashes(0));
  }
}
