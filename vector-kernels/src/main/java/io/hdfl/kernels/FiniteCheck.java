package io.hdfl.kernels;

/**
 * Whether float values are all finite, at the speed of a vectorized loop. A check that stops at the
 * first NaN or infinity cannot be vectorized by C2; this one takes {@code max(|x|)} over the whole
 * range with no exit (NaN propagates through {@link Math#max}, an infinity is larger than any finite
 * value), which C2 compiles to a vector reduction, and looks for the offending index only when there
 * is one. A ring hop checks its model four times (copy, noise, encoding, decoding): about 4 µs each
 * instead of 11 µs for S·D = 20000 on a 2-core AVX-512 VM.
 */
public final class FiniteCheck {
  private FiniteCheck() {}

  /** The index of the first NaN or infinite value in {@code a[off .. off+len)}, or -1 if there is none. */
  public static int firstNonFinite(float[] a, int off, int len) {
    float max = maxAbs(a, off, len);
    if (max <= Float.MAX_VALUE) {
      return -1;
    }
    for (int i = off, end = off + len; i < end; i++) {
      if (!Float.isFinite(a[i])) {
        return i;
      }
    }
    throw new AssertionError("max |x| is " + max + " but every value is finite");
  }

  /**
   * The largest |value| in {@code a[off .. off+len)} (0 for an empty range): NaN if a value is NaN,
   * else infinity if one is infinite, so it is finite exactly when every value is.
   */
  public static float maxAbs(float[] a, int off, int len) {
    KernelArgs.range(a, off, len, "a");
    float max = 0f;
    for (int i = off, end = off + len; i < end; i++) {
      max = Math.max(max, Math.abs(a[i]));
    }
    return max;
  }

  /** {@link #firstNonFinite(float[], int, int)} over the whole array. */
  public static int firstNonFinite(float[] a) {
    return firstNonFinite(a, 0, a.length);
  }
}
