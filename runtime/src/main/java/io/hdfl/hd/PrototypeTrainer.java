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
    for (int i = 0; i < set.size(); i++) {
      set.addTo(kernels, 1f, i, model.vectors(), set.label(i) * model.dim());
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
   * One pass in the given order; returns the number of mistakes (= updates). Samples (float32 or int8,
   * see {@link EncodedSet#quantize}) are scored two at a time, so the prototypes are read once for both
   * (from L2: S × D floats do not fit in L1); when the first one changes two classes, the second one's
   * scores for those two are computed again, so the pass is bit for bit the one-sample-at-a-time
   * perceptron.
   */
  int epoch(ClassPrototypes model, EncodedSet set, int[] order) {
    int s = model.classes();
    float[] protos = model.vectors();
    float[] scores = new float[2 * s];
    int mistakes = 0;
    int k = 0;
    for (; k + 1 < order.length; k += 2) {
      int first = order[k];
      int second = order[k + 1];
      set.scoresPair(kernels, first, second, protos, s, scores);
      int pred = learn(model, set, first, scores, 0);
      if (pred >= 0) {
        mistakes++;
        int truth = set.label(first);
        scores[s + truth] = set.score(kernels, second, protos, s, truth);
        scores[s + pred] = set.score(kernels, second, protos, s, pred);
      }
      if (learn(model, set, second, scores, s) >= 0) {
        mistakes++;
      }
    }
    if (k < order.length) {
      set.scores(kernels, order[k], 1, protos, s, scores);
      if (learn(model, set, order[k], scores, 0) >= 0) {
        mistakes++;
      }
    }
    return mistakes;
  }

  /**
   * Predicts sample {@code i} from its scores at {@code scores[so..so+S)}; on a mistake adds it to its
   * class and subtracts it from the predicted one. Returns the predicted class on a mistake, else -1.
   */
  private int learn(ClassPrototypes model, EncodedSet set, int i, float[] scores, int so) {
    int pred = 0;
    double best = Double.NEGATIVE_INFINITY;
    for (int c = 0; c < model.classes(); c++) {
      double score = scores[so + c];
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
      return -1;
    }
    model.addKnowing(truth, 1f, set, i, scores[so + truth], kernels);
    model.addKnowing(pred, -1f, set, i, scores[so + pred], kernels);
    return pred;
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
