package io.hdfl.hd;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hdfl.kernels.VectorKernels;
import io.hdfl.kernels.VectorKernelsProvider;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class PrototypeTrainerTest {
  private static final VectorKernels K = VectorKernelsProvider.get();

  /** Three overlapping Gaussian blobs in 20 features. */
  static EncodedSet blobs(int n, long seed, Encoder enc) {
    SplittableRandom r = new SplittableRandom(seed);
    int f = enc.features();
    float[] x = new float[n * f];
    int[] y = new int[n];
    for (int i = 0; i < n; i++) {
      y[i] = i % 3;
      for (int k = 0; k < f; k++) {
        double centre = (k % 3 == y[i]) ? 1.0 : 0.2;
        x[i * f + k] = (float) (centre + 0.45 * (r.nextDouble() * 2 - 1));
      }
    }
    return EncodedSet.encode(enc, x, n, y, 3, 2);
  }

  @Test
  void bundlingSumsTheHypervectorsOfEachClass() {
    float[] v = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    EncodedSet set = EncodedSet.of(v, 3, 3, new int[] {0, 1, 0}, 2);
    ClassPrototypes p = new ClassPrototypes(2, 3);
    new PrototypeTrainer(K, Similarity.COSINE).bundle(p, set);
    assertArrayEquals(new float[] {8, 10, 12, 4, 5, 6}, p.toArray());
    assertEquals(64 + 100 + 144, p.normSq(0), 1e-9);
  }

  @Test
  void perceptronUpdateMovesTruthTowardAndPredictionAwayFromSample() {
    // Prototype 1 wins for the sample of class 0: one update must apply C0 += H, C1 -= H.
    float[] h = {1, 0};
    EncodedSet set = EncodedSet.of(h, 1, 2, new int[] {0}, 2);
    ClassPrototypes p = ClassPrototypes.copyOf(2, 2, new float[] {0, 1, 1, 0.1f});
    PrototypeTrainer t = new PrototypeTrainer(K, Similarity.COSINE);
    assertEquals(1, t.epoch(p, set, new int[] {0}));
    assertArrayEquals(new float[] {1, 1, 0, 0.1f}, p.toArray());
    assertEquals(2.0, p.normSq(0), 1e-6);
    assertEquals(0.01, p.normSq(1), 1e-6);
    assertEquals(0, t.epoch(p, set, new int[] {0}));
  }

  @Test
  void aPassInBlocksIsBitForBitThePassOneSampleAtATime() {
    // sample counts that leave every remainder of a block, class counts around the
    // kernels' groups of eight and four, both similarities, and passes enough for the JIT to compile
    // float32 and int8 sets alike
    for (VectorKernels k : new VectorKernels[] {K, VectorKernelsProvider.scalar()}) {
      for (Similarity sim : Similarity.values()) {
        for (boolean quantized : new boolean[] {false, true}) {
        for (int[] shape : new int[][] {{101, 10, 300}, {64, 3, 37}, {33, 26, 50}, {7, 12, 4}, {102, 5, 64}}) {
          int n = shape[0], s = shape[1], d = shape[2];
          SplittableRandom r = new SplittableRandom(n * 31L + s);
          float[] v = new float[n * d];
          int[] y = new int[n];
          for (int i = 0; i < n; i++) {
            y[i] = r.nextInt(s);
            for (int j = 0; j < d; j++) {
              v[i * d + j] = (float) (r.nextGaussian() + (j % s == y[i] ? 0.5 : 0.0));
            }
          }
          EncodedSet set = quantized ? EncodedSet.of(v, n, d, y, s).quantize() : EncodedSet.of(v, n, d, y, s);
          assertEquals(quantized, set.quantized());
          float[] start = new float[s * d];
          for (int j = 0; j < start.length; j++) {
            start[j] = (float) r.nextGaussian();
          }
          // the set's own block (int8 samples: four with 512-bit kernels, one on AVX2, else two), and
          // blocks of two, three and four: none, one or more later samples rescored after a mistake
          assertEquals(quantized ? k.codeScoringBlock() : 2, set.scoringBlock(k));
          ClassPrototypes paired = ClassPrototypes.copyOf(s, d, start);
          ClassPrototypes twos = ClassPrototypes.copyOf(s, d, start);
          ClassPrototypes threes = ClassPrototypes.copyOf(s, d, start);
          ClassPrototypes fours = ClassPrototypes.copyOf(s, d, start);
          ClassPrototypes single = ClassPrototypes.copyOf(s, d, start);
          PrototypeTrainer trainer = new PrototypeTrainer(k, sim);
          int[] order = new int[n];
          for (int i = 0; i < n; i++) {
            order[i] = i;
          }
          int updates = 0;
          for (int pass = 0; pass < 40; pass++) {
            for (int i = n - 1; i > 0; i--) {
              int j = r.nextInt(i + 1);
              int t = order[i];
              order[i] = order[j];
              order[j] = t;
            }
            int mistakes = trainer.epoch(paired, set, order);
            assertEquals(oneAtATime(k, sim, single, set, order), mistakes, "pass " + pass);
            assertEquals(mistakes, trainer.epoch(twos, set, order, 2), "blocks of 2, pass " + pass);
            assertEquals(mistakes, trainer.epoch(threes, set, order, 3), "blocks of 3, pass " + pass);
            assertEquals(mistakes, trainer.epoch(fours, set, order, 4), "blocks of 4, pass " + pass);
            String at = k.describe() + " " + sim + (quantized ? " int8" : "") + " n=" + n + " s=" + s + " d=" + d + " pass " + pass;
            assertArrayEquals(single.toArray(), paired.toArray(), at);
            assertArrayEquals(single.toArray(), twos.toArray(), "blocks of 2, " + at);
            assertArrayEquals(single.toArray(), threes.toArray(), "blocks of 3, " + at);
            assertArrayEquals(single.toArray(), fours.toArray(), "blocks of 4, " + at);
            for (int c = 0; c < s; c++) {
              assertEquals(single.normSq(c), paired.normSq(c), 0.0, at + " norm of " + c);
              assertEquals(single.normSq(c), fours.normSq(c), 0.0, "blocks of 4, " + at + " norm of " + c);
            }
            updates += mistakes;
          }
          assertTrue(updates >= 10, "the passes must change the model, n=" + n + " s=" + s + ": " + updates);
        }
        }
      }
    }
  }

  /** The perceptron pass scoring one sample at a time (the definition {@code epoch} must match). */
  private static int oneAtATime(VectorKernels k, Similarity sim, ClassPrototypes model, EncodedSet set, int[] order) {
    int s = model.classes();
    float[] scores = new float[s];
    int mistakes = 0;
    for (int i : order) {
      set.scores(k, i, 1, model.vectors(), s, scores);
      int pred = 0;
      double best = Double.NEGATIVE_INFINITY;
      for (int c = 0; c < s; c++) {
        double score = scores[c];
        if (sim == Similarity.COSINE) {
          score = model.normSq(c) > 0 ? score / Math.sqrt(model.normSq(c)) : 0.0;
        }
        if (score > best) {
          best = score;
          pred = c;
        }
      }
      int truth = set.label(i);
      if (pred != truth) {
        model.addKnowing(truth, 1f, set, i, scores[truth], k);
        model.addKnowing(pred, -1f, set, i, scores[pred], k);
        mistakes++;
      }
    }
    return mistakes;
  }

  @Test
  void retrainingImprovesTrainingAccuracyAndIsDeterministic() {
    Encoder enc = new Encoder(new EncoderSpec(EncoderKind.COS, 20, 1000, 3L), K, 2);
    EncodedSet train = blobs(600, 1, enc);
    EncodedSet test = blobs(300, 2, enc);
    for (Similarity sim : Similarity.values()) {
      PrototypeTrainer t = new PrototypeTrainer(K, sim);
      Classifier c = new Classifier(K, sim);
      ClassPrototypes p = new ClassPrototypes(3, 1000);
      t.bundle(p, train);
      double onePass = Evaluation.of(test.labels(), c.predict(p, test, 2), 3).accuracy();
      ClassPrototypes q = p.copy();
      int[] mistakes = new int[11];
      t.retrain(p, train, 10, 42L, (e, total, m) -> mistakes[e] = m);
      t.retrain(q, train, 10, 42L, null);
      assertEquals(p, q, "same seed, same model");
      double retrained = Evaluation.of(test.labels(), c.predict(p, test, 2), 3).accuracy();
      assertTrue(retrained >= onePass - 0.01, sim + ": " + onePass + " -> " + retrained);
      assertTrue(retrained > 0.9, sim + " accuracy " + retrained);
      assertTrue(mistakes[10] <= mistakes[1], "mistakes should not grow: " + java.util.Arrays.toString(mistakes));
    }
  }
}
