package io.hdfl.hd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.hdfl.kernels.VectorKernels;
import io.hdfl.kernels.VectorKernelsProvider;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ClassPrototypesTest {
  private static final VectorKernels K = VectorKernelsProvider.get();

  private static float[] gaussian(int n, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    float[] v = new float[n];
    for (int i = 0; i < n; i++) {
      v[i] = (float) (r.nextGaussian() * 3);
    }
    return v;
  }

  /** The definition: the sum of squares of row c in double, in order. */
  private static double sumOfSquares(float[] v, int c, int d) {
    double s = 0;
    for (int i = c * d; i < (c + 1) * d; i++) {
      s += (double) v[i] * v[i];
    }
    return s;
  }

  private static void assertNorms(ClassPrototypes p, String when) {
    float[] v = p.toArray();
    for (int c = 0; c < p.classes(); c++) {
      assertEquals(sumOfSquares(v, c, p.dim()), p.normSq(c), 0.0, when + ": normSq of " + c);
      assertEquals(Math.sqrt(p.normSq(c)), p.norm(c), 0.0, when + ": norm of " + c);
    }
  }

  @Test
  void normsFollowTheStoredValuesThroughEveryKindOfChange() {
    int s = 5;
    int d = 37;
    ClassPrototypes p = ClassPrototypes.copyOf(s, d, gaussian(s * d, 1));
    float[] copied = p.toArray();
    for (int c = s - 1; c >= 0; c--) { // the square roots asked for first: they compute the norms too
      assertEquals(Math.sqrt(sumOfSquares(copied, c, d)), p.norm(c), 0.0, "copied: norm of " + c);
    }
    assertNorms(p, "copied");

    // a direct change is seen once it is declared, even by a class updated before any norm is read
    p.vectors()[2 * d + 3] += 100f;
    p.vectors()[4 * d] = -7f;
    p.recomputeNorms();
    p.add(1, 0.5f, gaussian(d, 2), 0, K);
    float[] v = p.toArray();
    for (int c = 0; c < s; c++) {
      // add() sums its class in the kernel's float lanes; every other class is the double sum
      double expected = c == 1 ? K.sumOfSquares(v, d, d) : sumOfSquares(v, c, d);
      assertEquals(expected, p.normSq(c), 0.0, "direct change, then add to class 1: class " + c);
    }
    p.recomputeNorms();
    assertNorms(p, "recomputed");

    // an update that knows its dot product keeps the norm within rounding of the exact one
    EncodedSet set = EncodedSet.of(gaussian(2 * d, 3), 2, d, new int[] {0, 3}, s);
    float[] before = p.toArray();
    double dot = 0;
    float[] h = set.row(1);
    for (int j = 0; j < d; j++) {
      dot += (double) before[3 * d + j] * h[j];
    }
    p.recomputeNorms();
    p.addKnowing(3, -1f, set, 1, dot, K);
    float[] after = p.toArray();
    // the O(1) update from the norm recomputed before it (not from a stale one), to the bit
    double expected = Math.max(0.0, sumOfSquares(before, 3, d) + 2.0 * -1f * dot + set.squaredNorm(1));
    assertEquals(expected, p.normSq(3), 0.0, "the O(1) update");
    assertEquals(sumOfSquares(after, 3, d), p.normSq(3), 1e-6 * sumOfSquares(after, 3, d),
        "and within float rounding of the stored row's sum");
    assertEquals(Math.sqrt(p.normSq(3)), p.norm(3), 0.0);
    for (int c : new int[] {0, 1, 2, 4}) {
      assertEquals(sumOfSquares(after, c, d), p.normSq(c), 0.0, "untouched class " + c);
    }

    ClassPrototypes zero = new ClassPrototypes(2, 3);
    assertEquals(0.0, zero.norm(1), 0.0);
    assertThrows(IndexOutOfBoundsException.class, () -> zero.norm(2));
    assertThrows(IndexOutOfBoundsException.class, () -> zero.normSq(-1));
  }
}
