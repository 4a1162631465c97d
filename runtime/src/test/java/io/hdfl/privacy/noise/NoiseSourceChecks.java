package io.hdfl.privacy.noise;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Argument checks every {@link NoiseSource} must pass. */
final class NoiseSourceChecks {
  private NoiseSourceChecks() {}

  static void rejectsBadArguments(NoiseSource source) {
    float[] model = {1, 2, 3, 4};
    for (double bad : new double[] {-1, -0.0 - 1e-300, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> source.add(model, bad));
      assertEquals("noise variance must be a finite number >= 0, got " + bad, e.getMessage());
    }
    IllegalArgumentException huge = assertThrows(IllegalArgumentException.class, () -> source.add(model, 1e300));
    assertTrue(huge.getMessage().contains("too large for float32"), huge.getMessage());
    IndexOutOfBoundsException range = assertThrows(IndexOutOfBoundsException.class, () -> source.add(model, 2, 3, 1.0));
    assertEquals("model: range [2, 5) outside array of length 4", range.getMessage());
    assertThrows(IndexOutOfBoundsException.class, () -> source.add(model, -1, 2, 1.0));
    assertThrows(IndexOutOfBoundsException.class, () -> source.add(model, 1, -1, 1.0));
    assertThrows(IndexOutOfBoundsException.class, () -> source.add(model, Integer.MAX_VALUE, 2, 1.0));
    assertThrows(NullPointerException.class, () -> source.add(null, 1.0));
    assertThrows(NullPointerException.class, () -> source.add(null, 0, 0, 1.0));
    float[] withNaN = {1, 2, Float.NaN, 4};
    IllegalArgumentException nan = assertThrows(IllegalArgumentException.class, () -> source.add(withNaN, 1.0));
    assertEquals("model value at index 2 is NaN; noise needs finite values", nan.getMessage());
    float[] withInf = {1, Float.NEGATIVE_INFINITY, 3, 4};
    assertThrows(IllegalArgumentException.class, () -> source.add(withInf, 1.0));
    assertArrayEquals(new float[] {1, 2, Float.NaN, 4}, withNaN, "a rejected call changes nothing");
    assertArrayEquals(new float[] {1, Float.NEGATIVE_INFINITY, 3, 4}, withInf, "a rejected call changes nothing");
    source.add(withNaN, 3, 1, 1.0); // the NaN is outside this range
    assertEquals(0, source.add(model, 4, 0, 1.0).draws(), "an empty range");
    assertArrayEquals(new float[] {1, 2, 3, 4}, model, "nothing changed so far");
  }
}
