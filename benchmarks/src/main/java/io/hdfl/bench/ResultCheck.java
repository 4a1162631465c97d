package io.hdfl.bench;

import java.util.Locale;
import java.util.SplittableRandom;

/**
 * The benchmarks' own correctness checks: kernel outputs against double-precision references. A
 * failed check throws {@link IllegalStateException}, which fails the JMH run (the harness runs with
 * fail-on-error), so a fast wrong kernel can never produce a figure.
 */
final class ResultCheck {
  /**
   * Tolerance of a float32 dot product of length k, relative to {@code Σ|a_i·b_i|}: {@code 1e-5·√k}.
   * Rounding gives about {@code √k·6e-8} typically and {@code k·6e-8} at worst (below this for k ≤
   * 25 000), while a wrong element, a dropped term or a missed k-block costs far more.
   */
  static final double DOT_RTOL_PER_SQRT_K = 1e-5;
  /** Max abs error of {@code VectorKernels.cos} against {@link Math#cos}, from the interface contract. */
  static final double COS_ATOL = 1e-6;
  /** Entries sampled from large outputs. */
  static final int SAMPLES = 500;

  private ResultCheck() {}

  /**
   * Checks sampled entries (always including the four corners) of {@code out = x·B}, with {@code x}
   * row-major {@code n×f} and {@code basis} row-major {@code f×d}.
   */
  static void projection(String what, float[] x, int n, int f, float[] basis, int d, float[] out) {
    entries(what, x, n, f, basis, d, out, false);
  }

  /** As {@link #projection}, for {@code h = cos(x·B)}. */
  static void encoded(String what, float[] x, int n, int f, float[] basis, int d, float[] h) {
    entries(what, x, n, f, basis, d, h, true);
  }

  private static void entries(String what, float[] x, int n, int f, float[] basis, int d, float[] out,
      boolean cos) {
    SplittableRandom rng = new SplittableRandom(SyntheticInputs.SEED ^ 0xC4EC);
    int samples = (int) Math.min(SAMPLES, (long) n * d);
    for (int s = 0; s < samples; s++) {
      int i;
      int j;
      if (s < 4) {
        i = (s & 1) == 0 ? 0 : n - 1;
        j = (s & 2) == 0 ? 0 : d - 1;
      } else {
        i = rng.nextInt(n);
        j = rng.nextInt(d);
      }
      double ref = 0;
      double mag = 0;
      for (int k = 0; k < f; k++) {
        double t = (double) x[i * f + k] * basis[k * d + j];
        ref += t;
        mag += Math.abs(t);
      }
      double tol = DOT_RTOL_PER_SQRT_K * Math.sqrt(f) * mag;
      if (cos) {
        ref = Math.cos(ref);
        tol += COS_ATOL;
      }
      float got = out[i * d + j];
      if (!(Math.abs(got - ref) <= tol)) {
        throw new IllegalStateException(String.format(Locale.ROOT,
            "%s: wrong %s at row %d, column %d of %dx%d: got %s, expected %s (tolerance %.3g)",
            what, cos ? "cos(x·B)" : "x·B", i, j, n, d, got, ref, tol));
      }
    }
  }

  /** Checks every element of {@code dst[0..len) = cos(src[0..len))}. */
  static void cos(String what, float[] src, float[] dst, int len) {
    for (int i = 0; i < len; i++) {
      double ref = Math.cos(src[i]);
      if (!(Math.abs(dst[i] - ref) <= COS_ATOL)) {
        throw new IllegalStateException(String.format(Locale.ROOT,
            "%s: wrong cos at %d: cos(%s) gave %s, expected %s (tolerance %.1g)",
            what, i, src[i], dst[i], ref, COS_ATOL));
      }
    }
  }

  /** Checks sampled entries of {@code scores[q·s + c] = dot(queries[q], protos[c])}. */
  static void scores(String what, float[] queries, int nq, float[] protos, int s, int d, float[] scores) {
    SplittableRandom rng = new SplittableRandom(SyntheticInputs.SEED ^ 0x5C0E);
    boolean all = (long) nq * s <= SAMPLES;
    int samples = all ? nq * s : SAMPLES;
    for (int t = 0; t < samples; t++) {
      int q = all ? t / s : rng.nextInt(nq);
      int c = all ? t % s : rng.nextInt(s);
      double ref = 0;
      double mag = 0;
      for (int i = 0; i < d; i++) {
        double p = (double) queries[q * d + i] * protos[c * d + i];
        ref += p;
        mag += Math.abs(p);
      }
      double tol = DOT_RTOL_PER_SQRT_K * Math.sqrt(d) * mag;
      float got = scores[q * s + c];
      if (!(Math.abs(got - ref) <= tol)) {
        throw new IllegalStateException(String.format(Locale.ROOT,
            "%s: wrong score for query %d, class %d (D=%d): got %s, expected %s (tolerance %.3g)",
            what, q, c, d, got, ref, tol));
      }
    }
  }

  /** Checks that {@code actual} equals {@code expected} bit for bit (for exactly representable results). */
  static void exact(String what, float[] expected, float[] actual) {
    if (expected.length != actual.length) {
      throw new IllegalStateException(what + ": length " + actual.length + ", expected " + expected.length);
    }
    for (int i = 0; i < expected.length; i++) {
      if (Float.floatToIntBits(expected[i]) != Float.floatToIntBits(actual[i])) {
        throw new IllegalStateException(String.format(Locale.ROOT,
            "%s: wrong value at %d: got %s, expected exactly %s", what, i, actual[i], expected[i]));
      }
    }
  }
}
