package io.hdfl.bench;

import java.util.SplittableRandom;

/**
 * Seeded benchmark inputs shaped like the real ones: L2-normalized feature rows (the encoder
 * normalizes every sample first), an N(0,1) basis, cos-encoded hypervectors and class prototypes.
 */
final class SyntheticInputs {
  /** Seed of every benchmark input; each array derives its own stream from it. */
  static final long SEED = 0x5EED_4DF1L;

  private SyntheticInputs() {}

  /** {@code n} rows of {@code f} features, uniform in [-1, 1), each row scaled to unit L2 norm. */
  static float[] normalizedRows(int n, int f, long seed) {
    float[] x = new float[Math.multiplyExact(n, f)];
    SplittableRandom rng = new SplittableRandom(seed);
    for (int i = 0; i < n; i++) {
      int o = i * f;
      double ss = 0;
      for (int k = 0; k < f; k++) {
        float v = (float) (2.0 * rng.nextDouble() - 1.0);
        x[o + k] = v;
        ss += (double) v * v;
      }
      float inv = ss > 0 ? (float) (1.0 / Math.sqrt(ss)) : 0f;
      for (int k = 0; k < f; k++) {
        x[o + k] *= inv;
      }
    }
    return x;
  }

  /** {@code len} draws of N(0, sigma²). */
  static float[] gaussian(int len, double sigma, long seed) {
    float[] a = new float[len];
    SplittableRandom rng = new SplittableRandom(seed);
    for (int i = 0; i < len; i++) {
      a[i] = (float) (sigma * rng.nextGaussian());
    }
    return a;
  }

  /** {@code n} cos-encoded hypervectors of dimension {@code d}: {@code cos(N(0,1))}, in [-1, 1]. */
  static float[] hypervectors(int n, int d, long seed) {
    float[] a = gaussian(Math.multiplyExact(n, d), 1.0, seed);
    for (int i = 0; i < a.length; i++) {
      a[i] = (float) Math.cos(a[i]);
    }
    return a;
  }

  /** {@code n} cos-encoded hypervectors as int8 codes, as {@code EncodedSet} keeps them: {@code round(x · 127)}. */
  static byte[] hypervectorCodes(int n, int d, long seed) {
    float[] h = hypervectors(n, d, seed);
    byte[] c = new byte[h.length];
    for (int i = 0; i < h.length; i++) {
      c[i] = (byte) Math.round(h[i] * 127f); // round(x / (1/127)), x in [-1, 1]
    }
    return c;
  }

  /**
   * {@code len} multiples of {@code 2^-scaleBits} with integer numerators in {@code (-limit, limit)}:
   * sums and halvings of such values are exact in float32, so results can be compared bit for bit.
   */
  static float[] dyadic(int len, int limit, int scaleBits, long seed) {
    float[] a = new float[len];
    SplittableRandom rng = new SplittableRandom(seed);
    float scale = (float) Math.scalb(1.0, -scaleBits);
    for (int i = 0; i < len; i++) {
      a[i] = rng.nextInt(-limit + 1, limit) * scale;
    }
    return a;
  }

  /**
   * {@code m} rows drawn at random (without replacement when {@code m <= n}) from the row-major
   * {@code n×f} matrix {@code x}, copied contiguously.
   */
  static float[] rowSample(float[] x, int n, int f, int m, long seed) {
    int[] rows = new int[n];
    for (int i = 0; i < n; i++) {
      rows[i] = i;
    }
    SplittableRandom rng = new SplittableRandom(seed);
    float[] out = new float[Math.multiplyExact(m, f)];
    for (int r = 0; r < m; r++) {
      int pick = r < n ? r + rng.nextInt(n - r) : rng.nextInt(n);
      if (r < n) {
        int t = rows[r];
        rows[r] = rows[pick];
        rows[pick] = t;
        pick = r;
      }
      System.arraycopy(x, rows[pick] * f, out, r * f, f);
    }
    return out;
  }
}
