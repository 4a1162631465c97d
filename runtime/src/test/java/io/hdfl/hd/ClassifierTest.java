package io.hdfl.hd;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hdfl.kernels.VectorKernels;
import io.hdfl.kernels.VectorKernelsProvider;
import org.junit.jupiter.api.Test;

class ClassifierTest {
  private static final VectorKernels K = VectorKernelsProvider.get();

  @Test
  void cosineAndDotDisagreeWhenNormsDiffer() {
    // Class 1 is long but points away; class 0 is short and aligned.
    ClassPrototypes p = ClassPrototypes.copyOf(2, 2, new float[] {1, 0, 10, 10});
    float[] q = {1, 0.2f};
    assertEquals(0, new Classifier(K, Similarity.COSINE).predictOne(p, q));
    assertEquals(1, new Classifier(K, Similarity.DOT).predictOne(p, q));
  }

  @Test
  void marginIsDifferenceOfTopTwoCosines() {
    ClassPrototypes p = ClassPrototypes.copyOf(3, 2, new float[] {1, 0, 0, 1, -1, 0});
    float[] q = {3, 4}; // cosines: 0.6, 0.8, -0.6
    Predictions pr = new Classifier(K, Similarity.COSINE).predict(p, q, 1, 1);
    assertEquals(1, pr.labels()[0]);
    assertEquals(0.2f, pr.margins()[0], 1e-6);
    assertEquals(0.8f, pr.bestScores()[0], 1e-6);
  }

  @Test
  void batchEqualsOneByOneForManyQueries() {
    int n = 333, d = 97, s = 7;
    float[] q = EncoderTest.randomRows(n, d, 8, 1.0);
    ClassPrototypes p = ClassPrototypes.copyOf(s, d, EncoderTest.randomRows(s, d, 9, 1.0));
    Classifier c = new Classifier(K, Similarity.COSINE);
    Predictions batch = c.predict(p, q, n, 2);
    int[] single = new int[n];
    for (int i = 0; i < n; i++) {
      single[i] = c.predictOne(p, java.util.Arrays.copyOfRange(q, i * d, (i + 1) * d));
    }
    assertArrayEquals(single, batch.labels());
  }

  @Test
  void anInt8SetIsClassifiedLikeItsFloatForm() {
    Encoder enc = new Encoder(new EncoderSpec(EncoderKind.COS, 20, 2000, 3L), K, 2);
    EncodedSet train = PrototypeTrainerTest.blobs(300, 1, enc);
    EncodedSet test = PrototypeTrainerTest.blobs(400, 2, enc);
    ClassPrototypes p = new ClassPrototypes(3, 2000);
    new PrototypeTrainer(K, Similarity.COSINE).bundle(p, train);
    for (Similarity sim : Similarity.values()) {
      Classifier c = new Classifier(K, sim);
      Predictions f = c.predict(p, test, 2);
      Predictions q = c.predict(p, test.quantize(), 2);
      int agree = 0;
      for (int i = 0; i < test.size(); i++) {
        if (f.labels()[i] == q.labels()[i]) {
          agree++;
        }
        // the scores are those of the decoded rows: within the rounding of the codes
        double tol = sim == Similarity.COSINE ? 2e-3 : 2e-3 * Math.abs(f.bestScores()[i]) + 1e-3;
        assertEquals(f.bestScores()[i], q.bestScores()[i], tol, sim + " sample " + i);
      }
      assertTrue(agree >= test.size() - 4, sim + ": " + agree + " of " + test.size() + " agree");
    }
    Classifier c = new Classifier(K, Similarity.COSINE);
    assertThrows(IllegalArgumentException.class,
        () -> c.predict(new ClassPrototypes(3, 1000), test.quantize(), 1));
  }
}
