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
    int n = set.size();
    int s = model.classes();
    checkDims(model, set.dim());
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
        set.scores(kernels, r0, rows, model.vectors(), s, scores);
        for (int r = 0; r < rows; r++) {
          double qq = set.squaredNorm(r0 + r);
          double qScale = similarity == Similarity.COSINE ? (qq > 0 ? 1.0 / Math.sqrt(qq) : 0.0) : 1.0;
          decide(scores, r * s, s, invNorms, qScale, r0 + r, labels, margins, best);
        }
      }
    });
    return new Predictions(labels, margins, best);
  }

  private static void checkDims(ClassPrototypes model, int dim) {
    if (model.dim() != dim) {
      throw new IllegalArgumentException("model D=" + model.dim() + " but data D=" + dim);
    }
  }

  /** Predicts {@code n} row-major hypervectors. */
  public Predictions predict(ClassPrototypes model, float[] queries, int n, int threads) {
    int d = model.dim();
    int s = model.classes();
    if ((long) n * d > queries.length) {
      throw new IllegalArgumentException(n + " queries of D=" + d + " need " + (long) n * d + " values");
    }
    double[] invNorms = inverseNorms(model);
    int[] labels = new int[n];
    float[] margins = new float[n];
    float[] best = new float[n];
    int batches = (n + BATCH - 1) / BATCH;
    ParallelRows.run(batches, threads, 1, 4, (b0, b1) -> {
      float[] scores = new float[BATCH * s];
      float[] q = new float[BATCH * d];
      for (int b = b0; b < b1; b++) {
        int r0 = b * BATCH;
        int rows = Math.min(BATCH, n - r0);
        System.arraycopy(queries, r0 * d, q, 0, rows * d);
        kernels.dotScores(q, rows, model.vectors(), s, d, scores);
        for (int r = 0; r < rows; r++) {
          double qScale = 1.0;
          if (similarity == Similarity.COSINE) {
            double qq = kernels.sumOfSquares(q, r * d, d);
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
