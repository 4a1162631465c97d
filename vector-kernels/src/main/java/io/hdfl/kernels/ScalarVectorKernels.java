package io.hdfl.kernels;

import java.util.random.RandomGenerator;

/**
 * The reference implementation: plain loops, always available, and the yardstick the Panama kernels
 * are tested against.
 */
public final class ScalarVectorKernels implements VectorKernels {
  static final ScalarVectorKernels INSTANCE = new ScalarVectorKernels();
  private static final int MIN_ROWS_PER_THREAD = 16;

  @Override
  public String name() {
    return "scalar";
  }

  @Override
  public String describe() {
    return "scalar (reference loops)";
  }

  @Override
  public int vectorBits() {
    return Float.SIZE;
  }

  @Override
  public PackedMatrix pack(float[] rowMajor, int rows, int cols) {
    return PackedMatrix.pack(rowMajor, rows, cols, cols);
  }

  @Override
  public PackedMatrix pack(int rows, int cols, int threads, PackedMatrix.RowSource source) {
    return PackedMatrix.build(rows, cols, cols, threads, source);
  }

  @Override
  public void project(float[] x, int xOff, int n, int f, PackedMatrix b, float[] out, int outOff, int threads) {
    KernelArgs.project(x, xOff, n, f, b, out, outOff);
    ParallelRows.run(n, threads, 1, MIN_ROWS_PER_THREAD,
        (lo, hi) -> projectRows(x, xOff, f, b, out, outOff, lo, hi));
  }

  /** Rows {@code [lo, hi)} of the projection, for any panel width. */
  static void projectRows(float[] x, int xOff, int f, PackedMatrix b, float[] out, int outOff, int lo, int hi) {
    int d = b.cols();
    int w = b.panelWidth();
    float[] p = b.data();
    int panels = b.panels();
    for (int i = lo; i < hi; i++) {
      int row = outOff + i * d;
      java.util.Arrays.fill(out, row, row + d, 0f);
      for (int k = 0; k < f; k++) {
        float a = x[xOff + i * f + k];
        for (int pj = 0; pj < panels; pj++) {
          int c0 = pj * w;
          int cw = Math.min(w, d - c0);
          int base = pj * w * f + k * w;
          for (int j = 0; j < cw; j++) {
            out[row + c0 + j] += a * p[base + j];
          }
        }
      }
    }
  }

  @Override
  public void cos(float[] src, int srcOff, float[] dst, int dstOff, int len) {
    KernelArgs.range(src, srcOff, len, "src");
    KernelArgs.range(dst, dstOff, len, "dst");
    for (int i = 0; i < len; i++) {
      dst[dstOff + i] = (float) Math.cos(src[srcOff + i]);
    }
  }

  @Override
  public void sign(float[] src, int srcOff, float[] dst, int dstOff, int len) {
    KernelArgs.range(src, srcOff, len, "src");
    KernelArgs.range(dst, dstOff, len, "dst");
    for (int i = 0; i < len; i++) {
      dst[dstOff + i] = src[srcOff + i] < 0f ? -1f : 1f;
    }
  }

  @Override
  public float dot(float[] a, int aOff, float[] b, int bOff, int len) {
    KernelArgs.range(a, aOff, len, "a");
    KernelArgs.range(b, bOff, len, "b");
    float s = 0f;
    for (int i = 0; i < len; i++) {
      s += a[aOff + i] * b[bOff + i];
    }
    return s;
  }

  @Override
  public void axpy(float alpha, float[] x, int xOff, float[] y, int yOff, int len) {
    KernelArgs.range(x, xOff, len, "x");
    KernelArgs.range(y, yOff, len, "y");
    for (int i = 0; i < len; i++) {
      y[yOff + i] += alpha * x[xOff + i];
    }
  }

  @Override
  public void scale(float alpha, float[] x, int off, int len) {
    KernelArgs.range(x, off, len, "x");
    for (int i = 0; i < len; i++) {
      x[off + i] *= alpha;
    }
  }

  @Override
  public float sumOfSquares(float[] x, int off, int len) {
    KernelArgs.range(x, off, len, "x");
    float s = 0f;
    for (int i = 0; i < len; i++) {
      float v = x[off + i];
      s += v * v;
    }
    return s;
  }

  @Override
  public void dotScores(float[] queries, int qOff, int nq, float[] protos, int s, int d, float[] scores) {
    KernelArgs.scores(queries, qOff, nq, protos, s, d, scores);
    for (int q = 0; q < nq; q++) {
      for (int c = 0; c < s; c++) {
        scores[q * s + c] = score(queries, qOff + q * d, protos, c * d, d);
      }
    }
  }

  @Override
  public void dotScoresAt(float[] queries, int[] offsets, int n, float[] protos, int s, int d, float[] scores) {
    KernelArgs.scoresAt(queries, offsets, n, protos, s, d, scores);
    for (int k = 0; k < n; k++) {
      for (int c = 0; c < s; c++) {
        scores[k * s + c] = score(queries, offsets[k], protos, c * d, d);
      }
    }
  }

  @Override
  public float dotScore(float[] queries, int qOff, float[] protos, int s, int d, int c) {
    KernelArgs.scoreOf(queries, qOff, protos, s, d, c);
    return score(queries, qOff, protos, c * d, d);
  }

  private static float score(float[] q, int qo, float[] p, int po, int d) {
    float acc = 0f;
    for (int i = 0; i < d; i++) {
      acc += q[qo + i] * p[po + i];
    }
    return acc;
  }

  @Override
  public void axpy(float alpha, byte[] x, int xOff, float[] y, int yOff, int len) {
    KernelArgs.range(x, xOff, len, "x");
    KernelArgs.range(y, yOff, len, "y");
    for (int i = 0; i < len; i++) {
      y[yOff + i] += alpha * x[xOff + i];
    }
  }

  @Override
  public void dotScores(byte[] queries, int qOff, int nq, float[] protos, int s, int d, float[] scores) {
    KernelArgs.scores(queries, qOff, nq, protos, s, d, scores);
    for (int q = 0; q < nq; q++) {
      for (int c = 0; c < s; c++) {
        scores[q * s + c] = score(queries, qOff + q * d, protos, c * d, d);
      }
    }
  }

  @Override
  public void dotScoresAt(byte[] queries, int[] offsets, int n, float[] protos, int s, int d, float[] scores) {
    KernelArgs.scoresAt(queries, offsets, n, protos, s, d, scores);
    for (int k = 0; k < n; k++) {
      for (int c = 0; c < s; c++) {
        scores[k * s + c] = score(queries, offsets[k], protos, c * d, d);
      }
    }
  }

  @Override
  public float dotScore(byte[] queries, int qOff, float[] protos, int s, int d, int c) {
    KernelArgs.scoreOf(queries, qOff, protos, s, d, c);
    return score(queries, qOff, protos, c * d, d);
  }

  private static float score(byte[] q, int qo, float[] p, int po, int d) {
    float acc = 0f;
    for (int i = 0; i < d; i++) {
      acc += q[qo + i] * p[po + i];
    }
    return acc;
  }

  @Override
  public int argmax(float[] x, int off, int len) {
    return argmaxOf(x, off, len);
  }

  static int argmaxOf(float[] x, int off, int len) {
    if (len < 1) {
      throw new IllegalArgumentException("argmax of an empty range");
    }
    KernelArgs.range(x, off, len, "x");
    int best = -1;
    float bestValue = Float.NEGATIVE_INFINITY;
    for (int i = 0; i < len; i++) {
      float v = x[off + i];
      if (Float.isNaN(v)) {
        continue;
      }
      if (best < 0 || v > bestValue) {
        best = i;
        bestValue = v;
      }
    }
    return Math.max(best, 0);
  }

  @Override
  public void fillGaussian(float[] dst, int off, int len, double sigma, RandomGenerator rng) {
    KernelArgs.range(dst, off, len, "dst");
    for (int done = 0; done < len; ) {
      int outs = Math.min(len - done, 2 * GAUSSIAN_BLOCK_PAIRS);
      int m = (outs + 1) / 2;
      for (int p = 0; p < m; p++) {
        double u1 = BoxMuller.openUniform(rng.nextLong());
        double u2 = BoxMuller.uniform(rng.nextLong());
        double r = Math.sqrt(-2.0 * Math.log(u1)) * sigma;
        double theta = BoxMuller.TWO_PI * u2;
        dst[off + done + p] = (float) (r * Math.cos(theta));
        if (m + p < outs) {
          dst[off + done + m + p] = (float) (r * Math.sin(theta));
        }
      }
      done += outs;
    }
  }

  @Override
  public int gaussianFactors(int len, double[] radius, double[] cos, double[] sin, int at, RandomGenerator rng) {
    int pairs = VectorKernels.gaussianPairs(len);
    KernelArgs.gaussianFactors(radius, cos, sin, at, pairs);
    for (int j = at; j < at + pairs; j++) {
      double u1 = BoxMuller.openUniform(rng.nextLong());
      double u2 = BoxMuller.uniform(rng.nextLong());
      double theta = BoxMuller.TWO_PI * u2;
      radius[j] = Math.sqrt(-2.0 * Math.log(u1));
      cos[j] = Math.cos(theta);
      sin[j] = Math.sin(theta);
    }
    return pairs;
  }

  @Override
  public void addGaussian(float[] dst, int off, int len, double sigma, double[] radius, double[] cos, double[] sin,
      int at) {
    KernelArgs.range(dst, off, len, "dst");
    KernelArgs.gaussianFactors(radius, cos, sin, at, VectorKernels.gaussianPairs(len));
    int j = at;
    for (int done = 0; done < len; ) {
      int outs = Math.min(len - done, 2 * GAUSSIAN_BLOCK_PAIRS);
      int m = (outs + 1) / 2;
      int base = off + done;
      for (int p = 0; p < m; p++) {
        double r = radius[j + p] * sigma;
        dst[base + p] += (float) (r * cos[j + p]);
        if (m + p < outs) {
          dst[base + m + p] += (float) (r * sin[j + p]);
        }
      }
      j += m;
      done += outs;
    }
  }
}
