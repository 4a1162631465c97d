package io.hdfl.privacy.noise;

/** Argument checks shared by every {@link NoiseSource}, so a bad call fails the same way everywhere. */
final class NoiseArgs {
  /**
   * Largest variance accepted: σ = 2^120 keeps 2^7 σ-widths of headroom below the float32 maximum
   * (2^128), so a finite model cannot be pushed to infinity by the noise itself.
   */
  static final double MAX_VARIANCE = 0x1p240;

  private NoiseArgs() {}

  static void check(float[] model, int off, int len, double variance) {
    if (model == null) {
      throw new NullPointerException("model");
    }
    if (off < 0 || len < 0 || off > model.length - len) {
      throw new IndexOutOfBoundsException(
          "model: range [" + off + ", " + ((long) off + len) + ") outside array of length " + model.length);
    }
    if (!(variance >= 0) || !Double.isFinite(variance)) {
      throw new IllegalArgumentException("noise variance must be a finite number >= 0, got " + variance);
    }
    if (variance > MAX_VARIANCE) {
      throw new IllegalArgumentException(
          "noise variance " + variance + " is too large for float32 model values (max 2^240, σ = 2^120)");
    }
  }

  /** The largest |value| in the range; throws if a value is NaN or infinite. 0 for an empty range. */
  static float maxAbsFinite(float[] model, int off, int len) {
    float max = io.hdfl.kernels.FiniteCheck.maxAbs(model, off, len);
    if (!(max <= Float.MAX_VALUE)) {
      requireFinite(model, off, len); // throws, naming the first bad value
    }
    return max;
  }

  /** Throws if a value in the range is NaN or infinite (noise needs finite values). */
  static void requireFinite(float[] model, int off, int len) {
    int i = io.hdfl.kernels.FiniteCheck.firstNonFinite(model, off, len);
    if (i >= 0) {
      throw new IllegalArgumentException("model value at index " + i + " is " + model[i] + "; noise needs finite values");
    }
  }
}
