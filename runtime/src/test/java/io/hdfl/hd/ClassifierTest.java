package io.hdfl.hd;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

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
}
