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
   * see {@link EncodedSet#quantize}) are scored a block at a time ({@link EncodedSet#scoringBlock}: four
   * int8 samples with 512-bit kernels, one on AVX2, else two), so the prototypes are read once for the
   * block (from L2: S × D floats do not fit in L1); when a sample changes two classes, the later
   * samples of its block have their scores for those two computed again, together ({@link
   * EncodedSet#scoresOfTwoAt}), so the pass is bit for bit the one-sample-at-a-time perceptron. (Blocks
   * of four with each later sample rescored alone, one chain of multiply-adds at a time, took back what
   * the tiles saved: on Fashion-MNIST about one sample in seven is a mistake late in a run, more early
   * on.)
   */
  int epoch(ClassPrototypes model, EncodedSet set, int[] order) {
    return epoch(model, set, order, set.scoringBlock(kernels));
  }

  /** {@link #epoch(ClassPrototypes, EncodedSet, int[])} in blocks of {@code block} samples (tests try others). */
  int epoch(ClassPrototypes model, EncodedSet set, int[] order, int block) {
    int s = model.classes();
    float[] protos = model.vectors();
    float[] scores = new float[block * s];
    int[] offsets = new int[block];
    int[] later = new int[block];
    float[] rescored = new float[2 * block];
    int mistakes = 0;
    for (int k = 0; k < order.length; k += block) {
      int n = Math.min(block, order.length - k);
      for (int j = 0; j < n; j++) {
        offsets[j] = set.offset(order[k + j]);
      }
      set.scoresAt(kernels, offsets, n, protos, s, scores);
      for (int j = 0; j < n; j++) {
        int i = order[k + j];
        int pred = learn(model, set, i, scores, j * s);
        if (pred < 0) {
          continue;
        }
        mistakes++;
        int truth = set.label(i);
        int rest = n - j - 1;
        if (rest > 0) {
          System.arraycopy(offsets, j + 1, later, 0, rest);
          set.scoresOfTwoAt(kernels, later, rest, protos, s, truth, pred, rescored);
          for (int r = 0; r < rest; r++) {
            scores[(j + 1 + r) * s + truth] = rescored[2 * r];
            scores[(j + 1 + r) * s + pred] = rescored[2 * r + 1];
          }
        }
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
    boolean cosine = similarity == Similarity.COSINE;
    double[] norms = model.norms();
    for (int c = 0, s = model.classes(); c < s; c++) {
      double score = scores[so + c];
      if (cosine) {
        double norm = norms[c];
        score = norm > 0 ? score / norm : 0.0;
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
