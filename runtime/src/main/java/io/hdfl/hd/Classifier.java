package io.hdfl.hd;

import io.hdfl.kernels.ParallelRows;
import io.hdfl.kernels.VectorKernels;

/**
 * Batch inference: one GEMM-like pass of queries against the S prototypes, then per query the argmax
 * and top-2 margin. With {@link Similarity#COSINE} scores are {@code C_s·H / (|C_s| |H|)} (0 for an
 * all-zero prototype or query); with {@link Similarity#DOT} they are {@code C_s·H}.
 */
public final class Classifier {
  private static final int BATCH = 64;

  private final VectorKernels kernels;
  private final Similarity similarity;

  public Classifier(VectorKernels kernels, Similarity similarity) {
    this.kernels = kernels;
    this.similarity = similarity;
  }

  public Similarity similarity() {
    return similarity;
  }

  /** Predicts every sample of {@code set} (float32 or int8). */
  public Predictions predict(ClassPrototypes model, EncodedSet set, int threads) {
    if (!set.quantized()) {
      return predict(model, set.vectors(), set.size(), threads);
    }
    if (model.dim() != set.dim()) {
      throw new IllegalArgumentException("model D=" + model.dim() + " but data D=" + set.dim());
    }
    int s = model.classes();
    return predict(model, set.size(), threads, new Queries() {
      @Override
      public void score(int r0, int rows, float[] scores) {
        set.scores(kernels, r0, rows, model.vectors(), s, scores);
      }

      @Override
      public double squaredNorm(int i) {
        return set.squaredNorm(i);
      }
    });
  }

  /** Predicts {@code n} row-major hypervectors. */
  public Predictions predict(ClassPrototypes model, float[] queries, int n, int threads) {
    int d = model.dim();
    int s = model.classes();
    if ((long) n * d > queries.length) {
      throw new IllegalArgumentException(n + " queries of D=" + d + " need " + (long) n * d + " values");
    }
    return predict(model, n, threads, new Queries() {
      @Override
      public void score(int r0, int rows, float[] scores) {
        kernels.dotScores(queries, r0 * d, rows, model.vectors(), s, d, scores);
      }

      @Override
      public double squaredNorm(int i) {
        return kernels.sumOfSquares(queries, i * d, d);
      }
    });
  }

  /** The queries of one prediction, in whatever form they are stored. */
  private interface Queries {
    /** Scores queries {@code r0 .. r0+rows} against every prototype: {@code scores[r*S + c]}. */
    void score(int r0, int rows, float[] scores);

    /** |H_i|², for cosine scoring. */
    double squaredNorm(int i);
  }

  private Predictions predict(ClassPrototypes model, int n, int threads, Queries queries) {
    int s = model.classes();
    double[] invNorms = inverseNorms(model);
    int[] labels = new int[n];
    float[] margins = new float[n];
    float[] best = new float[n];
    int batches = (n + BATCH - 1) / BATCH;
    ParallelRows.run(batches, threads, 1, 4, (b0, b1) -> {
      float[] scores = new float[BATCH * s];
      for (int b = b0; b < b1; b++) {
        int r0 = b * BATCH;
        int rows = Math.min(BATCH, n - r0);
        queries.score(r0, rows, scores);
        for (int r = 0; r < rows; r++) {
          double qScale = 1.0;
          if (similarity == Similarity.COSINE) {
            double qq = queries.squaredNorm(r0 + r);
            qScale = qq > 0 ? 1.0 / Math.sqrt(qq) : 0.0;
          }
          decide(scores, r * s, s, invNorms, qScale, r0 + r, labels, margins, best);
        }
      }
    });
    return new Predictions(labels, margins, best);
  }

  /** Predicts one hypervector; returns its class. */
  public int predictOne(ClassPrototypes model, float[] h) {
    return predict(model, h, 1, 1).labels()[0];
  }

  private double[] inverseNorms(ClassPrototypes model) {
    double[] inv = new double[model.classes()];
    for (int c = 0; c < inv.length; c++) {
      double n2 = model.normSq(c);
      inv[c] = similarity == Similarity.DOT ? 1.0 : (n2 > 0 ? 1.0 / Math.sqrt(n2) : 0.0);
    }
    return inv;
  }

  private static void decide(float[] scores, int off, int s, double[] invNorms, double qScale, int i,
      int[] labels, float[] margins, float[] best) {
    double top = Double.NEGATIVE_INFINITY;
    double second = Double.NEGATIVE_INFINITY;
    int arg = 0;
    for (int c = 0; c < s; c++) {
      double v = scores[off + c] * invNorms[c] * qScale;
      if (v > top) {
        second = top;
        top = v;
        arg = c;
      } else if (v > second) {
        second = v;
      }
    }
    labels[i] = arg;
    best[i] = (float) top;
    margins[i] = s > 1 ? (float) (top - second) : 0f;
  }
}
