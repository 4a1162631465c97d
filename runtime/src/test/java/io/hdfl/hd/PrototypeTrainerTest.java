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
