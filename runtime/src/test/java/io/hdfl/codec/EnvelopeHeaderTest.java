package io.hdfl.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.junit.jupiter.api.Test;

class EnvelopeHeaderTest {
  private static boolean naive(byte[] b, byte v) {
    for (byte x : b) {
      if (x == v) {
        return true;
      }
    }
    return false;
  }

  @Test
  void containsFindsTheByteAtEveryPositionAndNeverElse() {
    byte q = (byte) '?';
    for (int n = 0; n <= 40; n++) {
      // neighbours of '?' in value (0x3E, 0x40), its high-bit twin (0xBF), and the bytes that carry
      // in the word-at-a-time test (0x00, 0x01, 0x80, 0xFF)
      byte[] fill = {0x3E, 0x40, (byte) 0xBF, 0x00, 0x01, (byte) 0x80, (byte) 0xFF, 'a'};
      for (byte f : fill) {
        byte[] b = new byte[n];
        java.util.Arrays.fill(b, f);
        assertEquals(false, EnvelopeHeader.contains(b, q), "n=" + n + " fill=" + f);
        for (int at = 0; at < n; at++) {
          byte[] c = b.clone();
          c[at] = q;
          assertEquals(true, EnvelopeHeader.contains(c, q), "n=" + n + " at=" + at + " fill=" + f);
        }
      }
    }
    Random r = new Random(11);
    for (int i = 0; i < 20000; i++) {
      byte[] b = new byte[r.nextInt(70)];
      for (int j = 0; j < b.length; j++) {
        b[j] = (byte) (0x3C + r.nextInt(6)); // '<' .. 'A', '?' now and then
      }
      byte v = (byte) r.nextInt(256);
      assertEquals(naive(b, v), EnvelopeHeader.contains(b, v));
      assertEquals(naive(b, q), EnvelopeHeader.contains(b, q));
    }
  }
}
