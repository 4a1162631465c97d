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

  /**
   * One pass in the given order; returns the number of mistakes (= updates). Samples are scored in
   * pairs ({@link VectorKernels#dotScoresPair}: the prototypes are read once for two samples, and the
   * two samples' encodings stream from memory side by side); when the first of a pair changes the
   * model, the second is scored again against the changed model. Every decision and update is
   * therefore bit for bit the one-sample-at-a-time perceptron's.
   */
  int epoch(ClassPrototypes model, EncodedSet set, int[] order) {
    int s = model.classes();
    int d = model.dim();
    float[] protos = model.vectors();
    float[] v = set.vectors();
    float[] scores = new float[2 * s];
    int mistakes = 0;
    int k = 0;
    for (; k + 1 < order.length; k += 2) {
      int first = order[k];
      int second = order[k + 1];
      kernels.dotScoresPair(v, set.offset(first), set.offset(second), protos, s, d, scores);
      if (learn(model, set, first, scores, 0)) {
        mistakes++;
        kernels.dotScores(v, set.offset(second), 1, protos, s, d, scores);
        mistakes += learn(model, set, second, scores, 0) ? 1 : 0;
      } else {
        mistakes += learn(model, set, second, scores, s) ? 1 : 0;
      }
    }
    if (k < order.length) {
      kernels.dotScores(v, set.offset(order[k]), 1, protos, s, d, scores);
      mistakes += learn(model, set, order[k], scores, 0) ? 1 : 0;
    }
    return mistakes;
  }

  /**
   * The perceptron step for sample {@code i} given its scores against the current model at {@code
   * scores[base..base+S)}: predicts, and on a mistake adds the sample to its class and subtracts it
   * from the predicted one. Returns whether it did.
   */
  private boolean learn(ClassPrototypes model, EncodedSet set, int i, float[] scores, int base) {
    int s = model.classes();
    int pred = 0;
    double best = Double.NEGATIVE_INFINITY;
    for (int c = 0; c < s; c++) {
      double score = scores[base + c];
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
    if (pred == truth) {
      return false;
    }
    int off = set.offset(i);
    double hSq = set.squaredNorm(i);
    model.addKnowing(truth, 1f, set.vectors(), off, scores[base + truth], hSq, kernels);
    model.addKnowing(pred, -1f, set.vectors(), off, scores[base + pred], hSq, kernels);
    return true;
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
