package io.hdfl.kernels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Random;
import org.junit.jupiter.api.Test;

class FiniteCheckTest {
  private static float[] finite(int n, long seed) {
    Random r = new Random(seed);
    float[] a = new float[n];
    for (int i = 0; i < n; i++) {
      a[i] = (r.nextFloat() - 0.5f) * 1e6f;
    }
    return a;
  }

  @Test
  void finiteValuesPassWhateverTheirMagnitude() {
    float[] a = finite(20000, 1);
    a[3] = Float.MAX_VALUE;
    a[4] = -Float.MAX_VALUE;
    a[5] = Float.MIN_VALUE;
    a[6] = -0.0f;
    assertEquals(-1, FiniteCheck.firstNonFinite(a));
    assertEquals(-1, FiniteCheck.firstNonFinite(new float[0]));
    assertEquals(Float.MAX_VALUE, FiniteCheck.maxAbs(a, 0, a.length));
    assertEquals(0f, FiniteCheck.maxAbs(a, 0, 0));
    assertEquals(Math.abs(a[7]), FiniteCheck.maxAbs(a, 7, 1));
  }

  @Test
  void findsTheFirstNanOrInfinityAnywhere() {
    float[] bad = {Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.intBitsToFloat(0x7fc00001)};
    for (int n : new int[] {1, 7, 16, 17, 20000}) {
      for (int at : new int[] {0, n / 2, n - 1}) {
        for (float v : bad) {
          float[] a = finite(n, n + at);
          a[at] = v;
          if (at + 1 < n) {
            a[n - 1] = Float.NaN; // a later one is not reported
          }
          assertEquals(at, FiniteCheck.firstNonFinite(a), "n=" + n + " at=" + at + " value=" + v);
        }
      }
    }
  }

  @Test
  void looksOnlyInsideTheRange() {
    float[] a = finite(100, 3);
    a[9] = Float.NaN;
    a[60] = Float.POSITIVE_INFINITY;
    assertEquals(-1, FiniteCheck.firstNonFinite(a, 10, 50));
    assertEquals(60, FiniteCheck.firstNonFinite(a, 10, 51));
    assertEquals(9, FiniteCheck.firstNonFinite(a, 9, 1));
    assertThrows(IndexOutOfBoundsException.class, () -> FiniteCheck.firstNonFinite(a, 90, 11));
  }
}
