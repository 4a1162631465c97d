package io.hdfl.codec;

/**
 * bfloat16: the upper half of an IEEE-754 binary32 (sign, 8 exponent bits, 7 mantissa bits). The
 * conversion from float rounds to nearest, ties to even, so the relative error of a normal value is
 * at most 2⁻⁸; the exponent range is float's, so only values within half an ulp of
 * {@link Float#MAX_VALUE} overflow to infinity.
 */
public final class BFloat16 {
  private BFloat16() {}

  /** The bfloat16 bits (low 16 bits of the result) nearest to {@code v}; NaN stays NaN. */
  public static int toBits(float v) {
    int bits = Float.floatToRawIntBits(v);
    if ((bits & 0x7F80_0000) == 0x7F80_0000 && (bits & 0x007F_FFFF) != 0) {
      return (bits >>> 16) | 0x0040; // NaN: keep it quiet and a NaN (rounding could make it Inf)
    }
    return (bits + 0x7FFF + ((bits >>> 16) & 1)) >>> 16;
  }

  /** The float with bfloat16 bits {@code bits} (low 16 bits used); exact. */
  public static float fromBits(int bits) {
    return Float.intBitsToFloat((bits & 0xFFFF) << 16);
  }

  /** {@code v} rounded to the nearest bfloat16 value, as a float. */
  public static float round(float v) {
    return fromBits(toBits(v));
  }
}
