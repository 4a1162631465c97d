package io.hdfl.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class BFloat16Test {
  @Test
  void exactValuesAreKept() {
    for (float v : new float[] {0f, -0f, 1f, -2f, 0.25f, 3.0f, 1.5f, -1.0078125f, Float.MIN_NORMAL, 65536f}) {
      assertEquals(Float.floatToRawIntBits(v), Float.floatToRawIntBits(BFloat16.round(v)), "value " + v);
    }
  }

  @Test
  void roundsToNearestTiesToEven() {
    // 1 + 2^-8 is halfway between 1 and 1 + 2^-7: ties to the even mantissa, 1.
    assertEquals(1f, BFloat16.round(1f + 0x1p-8f));
    // 1 + 3·2^-8 is halfway between 1 + 2^-7 (odd) and 1 + 2^-6 (even): up.
    assertEquals(1f + 0x1p-6f, BFloat16.round(1f + 3 * 0x1p-8f));
    // Just above the halfway point rounds up, just below rounds down.
    assertEquals(1f + 0x1p-7f, BFloat16.round(Math.nextUp(1f + 0x1p-8f)));
    assertEquals(1f, BFloat16.round(Math.nextDown(1f + 0x1p-8f)));
    assertEquals(-1f, BFloat16.round(-1f - 0x1p-8f));
    // Rounding carries into the exponent.
    assertEquals(2f, BFloat16.round(Math.nextDown(2f)));
  }

  @Test
  void relativeErrorOfNormalValuesIsAtMostTwoToTheMinusEight() {
    SplittableRandom r = new SplittableRandom(3);
    for (int i = 0; i < 200_000; i++) {
      float v = Float.intBitsToFloat(r.nextInt());
      if (!Float.isFinite(v) || Math.abs(v) < Float.MIN_NORMAL || Math.abs(v) > 3.3e38f) {
        continue;
      }
      float b = BFloat16.round(v);
      assertTrue(Math.abs((double) b - v) <= Math.scalb(Math.abs((double) v), -8), v + " -> " + b);
      assertEquals(0, Float.floatToRawIntBits(b) & 0xFFFF, "low bits cleared");
    }
  }

  @Test
  void overflowAndNaN() {
    assertEquals(Float.POSITIVE_INFINITY, BFloat16.round(Float.MAX_VALUE));
    assertEquals(Float.NEGATIVE_INFINITY, BFloat16.round(-Float.MAX_VALUE));
    assertEquals(Float.POSITIVE_INFINITY, BFloat16.round(Float.POSITIVE_INFINITY));
    assertTrue(Float.isNaN(BFloat16.round(Float.NaN)));
    assertTrue(Float.isNaN(BFloat16.round(Float.intBitsToFloat(0x7FFF_FFFF)))); // would round to Inf without care
    assertTrue(Float.isNaN(BFloat16.round(Float.intBitsToFloat(0x7F80_0001)))); // low-payload NaN stays NaN
    float largest = Float.intBitsToFloat(0x7F7F_0000);
    assertEquals(largest, BFloat16.round(largest));
  }
}
