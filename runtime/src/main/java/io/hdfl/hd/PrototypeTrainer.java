package io.hdfl.hd;

import io.hdfl.kernels.VectorKernels;
import java.util.SplittableRandom;

/**
 * Local learning of class prototypes: one-pass bundling ({@code C_s = Σ H} over samples of class s)
 * and perceptron retraining (for each sample in a shuffled order, predict with the current
 * prototypes; on a mistake {@code C_true += H} and {@code C_pred -= H}).
 */
public final class PrototypeTrainer {
  /** Called after each retraining epoch. */
  @FunctionalInterface
  public interface EpochListener {
    void epochDone(int epoch, int epochs, int mistakes);
  }

  private final VectorKernels kernels;
  private final Similarity similarity;

  public PrototypeTrainer(VectorKernels kernels, Similarity similarity) {
    this.kernels = kernels;
    this.similarity = similarity;
  }

  /** Adds every sample of {@code set} to its class prototype. */
  public void bundle(ClassPrototypes model, EncodedSet set) {
    check(model, set);
    float[] v = set.vectors();
    for (int i = 0; i < set.size(); i++) {
      kernels.axpy(1f, v, set.offset(i), model.vectors(), set.label(i) * model.dim(), model.dim());
    }
    model.recomputeNorms();
  }

  /**
   * Runs {@code epochs} perceptron passes, each over a fresh permutation drawn from {@code
   * SplittableRandom(seed)}; returns the mistakes of the last epoch (0 epochs: 0).
   */
  public int retrain(ClassPrototypes model, EncodedSet set, int epochs, long seed, EpochListener listener) {
    if (epochs < 0) {
      throw new IllegalArgumentException("epochs must be >= 0, got " + epochs);
    }
    check(model, set);
    SplittableRandom rng = new SplittableRandom(seed);
    int[] order = new int[set.size()];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    int mistakes = 0;
    for (int e = 1; e <= epochs; e++) {
      shuffle(order, rng);
      mistakes = epoch(model, set, order);
      model.recomputeNorms();
      if (listener != null) {
        listener.epochDone(e, epochs, mistakes);
      }
    }
    return mistakes;
  }

  /** One pass in the given order; returns the number of mistakes (= updates). */
  int epoch(ClassPrototypes model, EncodedSet set, int[] order) {
    int s = model.classes();
    int d = model.dim();
    float[] protos = model.vectors();
    float[] v = set.vectors();
    float[] scores = new float[s];
    int mistakes = 0;
    for (int i : order) {
      int off = set.offset(i);
      kernels.dotScores(v, off, 1, protos, s, d, scores);
      int pred = 0;
      double best = Double.NEGATIVE_INFINITY;
      for (int c = 0; c < s; c++) {
        double score = scores[c];
        if (similarity == Similarity.COSINE) {
          double n2 = model.normSq(c);
          score = n2 > 0 ? score / Math.sqrt(n2) : 0.0;
        }
        if (score > best) {
          best = score;
          pred = c;
        }
      }
      int truth = set.label(i);
      if (pred != truth) {
        double hSq = set.squaredNorm(i);
        model.addKnowing(truth, 1f, v, off, scores[truth], hSq, kernels);
        model.addKnowing(pred, -1f, v, off, scores[pred], hSq, kernels);
        mistakes++;
      }
    }
    return mistakes;
  }

  private static void shuffle(int[] a, SplittableRandom rng) {
    for (int i = a.length - 1; i > 0; i--) {
      int j = rng.nextInt(i + 1);
      int t = a[i];
      a[i] = a[j];
      a[j] = t;
    }
  }

  private static void check(ClassPrototypes model, EncodedSet set) {
    if (model.dim() != set.dim()) {
      throw new IllegalArgumentException("model D=" + model.dim() + " but data D=" + set.dim());
    }
    if (set.classes() > model.classes()) {
      throw new IllegalArgumentException("data has " + set.classes() + " classes, model only " + model.classes());
    }
  }
}
