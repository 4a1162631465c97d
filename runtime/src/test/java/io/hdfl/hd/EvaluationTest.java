package io.hdfl.hd;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class EvaluationTest {
  @Test
  void handComputedExample() {
    int[] truth = {0, 0, 0, 1, 1, 2};
    int[] pred = {0, 0, 1, 1, 0, 1};
    float[] margins = {0.1f, 0.2f, 0.3f, 0.4f, 0.5f, 0.6f};
    Evaluation e = Evaluation.of(truth, new Predictions(pred, margins, new float[6]), 4);
    assertEquals(3.0 / 6, e.accuracy(), 1e-12);
    assertArrayEquals(new int[] {2, 1, 0, 0}, e.confusion()[0]);
    assertArrayEquals(new int[] {1, 1, 0, 0}, e.confusion()[1]);
    assertArrayEquals(new int[] {0, 1, 0, 0}, e.confusion()[2]);
    assertEquals(2.0 / 3, e.recall()[0], 1e-12);
    assertEquals(0.5, e.recall()[1], 1e-12);
    assertEquals(0.0, e.recall()[2], 1e-12);
    assertTrue(Double.isNaN(e.recall()[3]), "class 3 has no support");
    // F1: class0 2*2/(3+3)=0.6667, class1 2*1/(2+3)=0.4, class2 0; class3 absent everywhere.
    assertEquals((2.0 * 2 / 6 + 2.0 / 5 + 0) / 3, e.macroF1(), 1e-12);
    assertEquals(0.35, e.meanMargin(), 1e-6);
  }
}
