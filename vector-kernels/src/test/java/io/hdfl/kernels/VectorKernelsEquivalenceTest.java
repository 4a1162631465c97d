package io.hdfl.kernels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Panama against the scalar reference over awkward sizes, with size-scaled tolerances. */
class VectorKernelsEquivalenceTest {
  private final VectorKernels scalar = KernelPairs.scalar();

  /** Tolerance for a float sum of {@code len} terms of magnitude about {@code mag}. */
  private static double sumTolerance(int len, double mag) {
    return 1e-6 * mag * Math.max(1, len) + 1e-6;
  }

  @Test
  void cosMatchesReference() {
    for (VectorKernels panama : KernelPairs.panamaVariants()) {
      for (int n : KernelPairs.AWKWARD_SIZES) {
        float[] x = KernelPairs.gaussian(n + 5, n, 4.0);
        float[] a = new float[n + 2];
        float[] b = new float[n + 2];
        scalar.cos(x, 5, a, 2, n);
        panama.cos(x, 5, b, 2, n);
        for (int i = 0; i < n + 2; i++) {
          assertEquals(a[i], b[i], 1.5e-6, panama.describe() + " n=" + n + " i=" + i);
        }
        assertEquals(0f, b[0]);
        assertEquals(0f, b[1]);
      }
    }
  }

  @Test
  void signMatchesReferenceAndMapsZeroToPlusOne() {
    for (VectorKernels panama : KernelPairs.panamaVariants()) {
      for (int n : KernelPairs.AWKWARD_SIZES) {
        float[] x = KernelPairs.gaussian(n, 7 + n, 1.0);
        x[0] = 0f;
        if (n > 2) {
          x[n - 1] = -0f;
          x[1] = Float.MIN_VALUE * -1;
        }
        float[] a = new float[n];
        float[] b = new float[n];
        scalar.sign(x, 0, a, 0, n);
        panama.sign(x, 0, b, 0, n);
        for (int i = 0; i < n; i++) {
          assertEquals(a[i], b[i], "n=" + n + " i=" + i);
          assertEquals(x[i] < 0 ? -1f : 1f, b[i]);
        }
        assertEquals(1f, b[0]);
      }
    }
  }

  @Test
  void dotAxpyScaleSumOfSquaresMatchReference() {
    for (VectorKernels panama : KernelPairs.panamaVariants()) {
      for (int n : KernelPairs.AWKWARD_SIZES) {
        float[] x = KernelPairs.gaussian(n + 3, 100 + n, 1.0);
        float[] y = KernelPairs.gaussian(n + 1, 200 + n, 1.0);
        double exact = 0;
        double exactSq = 0;
        for (int i = 0; i < n; i++) {
          exact += (double) x[3 + i] * y[1 + i];
          exactSq += (double) x[3 + i] * x[3 + i];
        }
        double tol = sumTolerance(n, 1.0);
        assertEquals(exact, scalar.dot(x, 3, y, 1, n), tol, "scalar dot n=" + n);
        assertEquals(exact, panama.dot(x, 3, y, 1, n), tol, "panama dot n=" + n);
        assertEquals(exactSq, panama.sumOfSquares(x, 3, n), sumTolerance(n, 1.0), "sumsq n=" + n);
        assertEquals(scalar.sumOfSquares(x, 3, n), panama.sumOfSquares(x, 3, n), 2 * sumTolerance(n, 1.0));

        float[] ya = y.clone();
        float[] yb = y.clone();
        scalar.axpy(-0.37f, x, 3, ya, 1, n);
        panama.axpy(-0.37f, x, 3, yb, 1, n);
        assertEquals(y[0], yb[0]);
        for (int i = 0; i <= n; i++) {
          assertEquals(ya[i], yb[i], 1e-6, "axpy n=" + n + " i=" + i);
        }
        float[] sa = x.clone();
        float[] sb = x.clone();
        scalar.scale(1.75f, sa, 3, n);
        panama.scale(1.75f, sb, 3, n);
        for (int i = 0; i < n + 3; i++) {
          assertEquals(sa[i], sb[i], "scale n=" + n + " i=" + i);
        }
      }
    }
  }

  @Test
  void blockAndSingleClassScoresHaveTheBitsOfDotScores() {
    List<VectorKernels> all = new java.util.ArrayList<>(KernelPairs.panamaVariants());
    all.add(scalar);
    for (VectorKernels k : all) {
      for (int d : KernelPairs.AWKWARD_SIZES) {
        for (int s : new int[] {1, 3, 4, 5, 8, 10, 12, 13, 26}) {
          float[] q = KernelPairs.gaussian(3 * d + 1, d * 29L + s, 1.0);
          float[] p = KernelPairs.gaussian(s * d, d * 13L + s, 1.0);
          checkBlockAndSingleBits(k.describe(), d, s, new QueryScores() {
            @Override
            public void at(int[] offsets, int n, float[] out) {
              k.dotScoresAt(q, offsets, n, p, s, d, out);
            }

            @Override
            public void alone(int off, float[] out) {
              k.dotScores(q, off, 1, p, s, d, out);
            }

            @Override
            public float one(int off, int c) {
              return k.dotScore(q, off, p, s, d, c);
            }

            @Override
            public void ofTwo(int[] offsets, int n, int a, int b, float[] out) {
              k.dotScoresOfTwoAt(q, offsets, n, p, s, d, a, b, out);
            }
          });
        }
      }
    }
  }

  /** The scoring calls of one kernel on one array of queries (float or int8) and prototypes. */
  private interface QueryScores {
    void at(int[] offsets, int n, float[] out);

    void alone(int off, float[] out);

    float one(int off, int c);

    void ofTwo(int[] offsets, int n, int a, int b, float[] out);
  }

  /**
   * Blocks of one to nine of three queries of D={@code d} (in one array of 3d+1 values: apart,
   * repeated, and overlapping by all but one component) and single-class scores have the bits of each
   * query's batch scores, and out-of-range calls throw.
   */
  private static void checkBlockAndSingleBits(String who, int d, int s, QueryScores k) {
    int[] starts = {0, 2 * d, d + 1, d, 2 * d, 0, d + 1, 0, d};
    for (int n = 1; n <= starts.length; n++) {
      float[] block = new float[n * s];
      k.at(starts, n, block);
      for (int j = 0; j < n; j++) {
        float[] alone = new float[s];
        k.alone(starts[j], alone);
        for (int c = 0; c < s; c++) {
          String at = who + " d=" + d + " s=" + s + " block of " + n + ", query " + starts[j] + " c=" + c;
          assertEquals(Float.floatToRawIntBits(alone[c]), Float.floatToRawIntBits(block[j * s + c]), "block, " + at);
          assertEquals(Float.floatToRawIntBits(alone[c]), Float.floatToRawIntBits(k.one(starts[j], c)),
              "single class, " + at);
        }
      }
    }
    // two classes of each query of a block (a perceptron pass's rescoring), in either order or the same
    int[][] classPairs = {{0, s - 1}, {s - 1, 0}, {s / 2, s / 2}, {s > 2 ? 1 : 0, s > 2 ? s - 2 : s - 1}};
    for (int[] ab : classPairs) {
      for (int n = 0; n <= starts.length; n++) {
        float[] two = new float[2 * n + 1];
        two[2 * n] = 42f;
        k.ofTwo(starts, n, ab[0], ab[1], two);
        for (int j = 0; j < n; j++) {
          String at = who + " d=" + d + " s=" + s + " two classes " + ab[0] + "," + ab[1] + " of " + n + ", query "
              + starts[j];
          assertEquals(Float.floatToRawIntBits(k.one(starts[j], ab[0])), Float.floatToRawIntBits(two[2 * j]), at);
          assertEquals(Float.floatToRawIntBits(k.one(starts[j], ab[1])), Float.floatToRawIntBits(two[2 * j + 1]), at);
        }
        assertEquals(42f, two[2 * n], "written past 2n");
      }
    }
    int past = 2 * d + 2;
    assertThrows(IndexOutOfBoundsException.class, () -> k.ofTwo(new int[] {0, past}, 2, 0, 0, new float[4]));
    assertThrows(IndexOutOfBoundsException.class, () -> k.ofTwo(new int[] {0, d}, 2, 0, s, new float[4]));
    assertThrows(IndexOutOfBoundsException.class, () -> k.ofTwo(new int[] {0, d}, 2, -1, 0, new float[4]));
    assertThrows(IndexOutOfBoundsException.class, () -> k.ofTwo(new int[] {0, d}, 2, 0, 0, new float[3]));
    assertThrows(IndexOutOfBoundsException.class, () -> k.ofTwo(new int[] {0, d}, 3, 0, 0, new float[6]));
    assertThrows(NullPointerException.class, () -> k.ofTwo(null, 0, 0, 0, new float[2]));
    assertThrows(IndexOutOfBoundsException.class, () -> k.at(new int[] {0, past}, 2, new float[2 * s]));
    assertThrows(IndexOutOfBoundsException.class, () -> k.at(new int[] {0, -1}, 2, new float[2 * s]));
    assertThrows(IndexOutOfBoundsException.class, () -> k.at(new int[] {0, d}, 2, new float[2 * s - 1]));
    assertThrows(IndexOutOfBoundsException.class, () -> k.at(new int[] {0, d}, 3, new float[3 * s]));
    assertThrows(NullPointerException.class, () -> k.at(null, 0, new float[s]));
    assertThrows(IndexOutOfBoundsException.class, () -> k.one(past, 0));
    assertThrows(IndexOutOfBoundsException.class, () -> k.one(0, s));
    assertThrows(IndexOutOfBoundsException.class, () -> k.one(0, -1));
  }

  @Test
  void codeKernelsMatchDoublePrecisionSums() {
    List<VectorKernels> all = new java.util.ArrayList<>(KernelPairs.panamaVariants());
    all.add(scalar);
    for (VectorKernels k : all) {
      for (int d : KernelPairs.AWKWARD_SIZES) {
        for (int s : new int[] {1, 3, 4, 5, 8, 10, 13, 26}) {
          int nq = d >= 1021 ? 5 : 6; // a tile of four queries and the rest alone
          byte[] q = KernelPairs.codes(nq * d + 2, d * 37L + s);
          float[] p = KernelPairs.gaussian(s * d, d * 19L + s, 1.0);
          float[] got = new float[nq * s];
          k.dotScores(q, 2, nq, p, s, d, got);
          for (int j = 0; j < nq; j++) {
            float[] alone = new float[s];
            k.dotScores(q, 2 + j * d, 1, p, s, d, alone);
            for (int c = 0; c < s; c++) {
              assertEquals(Float.floatToRawIntBits(alone[c]), Float.floatToRawIntBits(got[j * s + c]),
                  k.describe() + " batch against alone, d=" + d + " s=" + s + " query " + j + " c=" + c);
              double exact = 0;
              for (int i = 0; i < d; i++) {
                exact += (double) q[2 + j * d + i] * p[c * d + i];
              }
              assertEquals(exact, got[j * s + c], 2 * sumTolerance(d, 127.0),
                  k.describe() + " d=" + d + " s=" + s + " query " + j + " c=" + c);
            }
          }
          int past = (nq - 1) * d + 3;
          assertThrows(IndexOutOfBoundsException.class, () -> k.dotScores(q, past, 1, p, s, d, got));
        }
        // axpy: alpha times each code, added to y in place and nowhere else
        byte[] x = KernelPairs.codes(d + 3, 300 + d);
        float[] y = KernelPairs.gaussian(d + 2, 400 + d, 1.0);
        float[] z = y.clone();
        k.axpy(-0.0078125f, x, 3, z, 1, d);
        assertEquals(y[0], z[0], 0f);
        for (int i = 0; i < d; i++) {
          assertEquals(y[1 + i] + -0.0078125 * x[3 + i], z[1 + i], 1e-6, k.describe() + " axpy d=" + d + " i=" + i);
        }
        assertEquals(y[d + 1], z[d + 1], 0f);
        assertThrows(IndexOutOfBoundsException.class, () -> k.axpy(1f, x, 4, z, 0, d));
      }
    }
  }

  @Test
  void codeBlockAndSingleClassScoresHaveTheBitsOfDotScores() {
    List<VectorKernels> all = new java.util.ArrayList<>(KernelPairs.panamaVariants());
    all.add(scalar);
    for (VectorKernels k : all) {
      for (int d : KernelPairs.AWKWARD_SIZES) {
        for (int s : new int[] {1, 3, 4, 5, 8, 9, 10, 12, 13, 26}) {
          byte[] q = KernelPairs.codes(3 * d + 1, d * 23L + s);
          float[] p = KernelPairs.gaussian(s * d, d * 11L + s, 1.0);
          checkBlockAndSingleBits(k.describe() + " int8", d, s, new QueryScores() {
            @Override
            public void at(int[] offsets, int n, float[] out) {
              k.dotScoresAt(q, offsets, n, p, s, d, out);
            }

            @Override
            public void alone(int off, float[] out) {
              k.dotScores(q, off, 1, p, s, d, out);
            }

            @Override
            public float one(int off, int c) {
              return k.dotScore(q, off, p, s, d, c);
            }

            @Override
            public void ofTwo(int[] offsets, int n, int a, int b, float[] out) {
              k.dotScoresOfTwoAt(q, offsets, n, p, s, d, a, b, out);
            }
          });
        }
      }
    }
  }

  @Test
  void dotScoresMatchReference() {
    for (VectorKernels panama : KernelPairs.panamaVariants()) {
      for (int d : KernelPairs.AWKWARD_SIZES) {
        for (int s : new int[] {1, 3, 4, 5, 8, 10, 13, 26}) {
          int nq = d >= 1021 ? 2 : 3;
          float[] q = KernelPairs.gaussian(nq * d, d * 31L + s, 1.0);
          float[] p = KernelPairs.gaussian(s * d, d * 17L + s, 1.0);
          float[] a = new float[nq * s];
          float[] b = new float[nq * s];
          scalar.dotScores(q, nq, p, s, d, a);
          panama.dotScores(q, nq, p, s, d, b);
          for (int i = 0; i < a.length; i++) {
            assertEquals(a[i], b[i], 2 * sumTolerance(d, 1.0), "d=" + d + " s=" + s + " i=" + i);
          }
          // the last query in place, at its offset in the batch: the same scores as in the batch
          float[] one = new float[s];
          panama.dotScores(q, (nq - 1) * d, 1, p, s, d, one);
          for (int c = 0; c < s; c++) {
            assertEquals(b[(nq - 1) * s + c], one[c], 0f, "offset query, d=" + d + " s=" + s + " c=" + c);
          }
          scalar.dotScores(q, (nq - 1) * d, 1, p, s, d, one);
          for (int c = 0; c < s; c++) {
            assertEquals(a[(nq - 1) * s + c], one[c], 0f, "scalar offset query, d=" + d + " s=" + s + " c=" + c);
          }
          int past = (nq - 1) * d + 1;
          assertThrows(IndexOutOfBoundsException.class, () -> panama.dotScores(q, past, 1, p, s, d, one));
          assertThrows(IndexOutOfBoundsException.class, () -> scalar.dotScores(q, past, 1, p, s, d, one));
        }
      }
    }
  }

  @Test
  void projectionMatchesDoublePrecisionReference() {
    int[] ns = {1, 3, 7, 8, 13, 64, 100};
    int[] fs = {1, 3, 31, 100, 617};
    int[] ds = {1, 7, 8, 31, 64, 100, 1021};
    SplittableRandom pick = new SplittableRandom(5);
    // Each shape's references (scalar kernel, double precision) are computed once for all Panama
    // variants: the suite also runs on emulated aarch64, where the references dominate its time.
    List<VectorKernels> panamas = KernelPairs.panamaVariants();
    for (int n : ns) {
      for (int f : fs) {
        for (int d : ds) {
          if ((long) n * f * d > 4_000_000 && pick.nextInt(2) != 0) {
            continue; // keep the suite fast; large shapes are sampled (each checks both variants)
          }
          checkProjection(panamas, n, f, d, 1 + (n + f + d) % 2);
        }
      }
    }
    checkProjection(panamas, 300, 784, 2000, 2); // several row and column blocks, two threads
    checkProjection(panamas, 9, 2100, 100, 1); // f > KC_MAX: three k blocks accumulate into C
  }

  @Test
  void projectionWithForeignPackingIsStillCorrect() {
    for (VectorKernels panama : KernelPairs.panamaVariants()) {
      int n = 9, f = 13, d = 70;
      float[] x = KernelPairs.gaussian(n * f, 1, 1.0);
      float[] b = KernelPairs.gaussian(f * d, 2, 1.0);
      float[] viaScalarPacking = new float[n * d];
      float[] viaOwnPacking = new float[n * d];
      panama.project(x, n, f, scalar.pack(b, f, d), viaScalarPacking, 1);
      scalar.project(x, n, f, panama.pack(b, f, d), viaOwnPacking, 2);
      for (int i = 0; i < n * d; i++) {
        assertEquals(viaScalarPacking[i], viaOwnPacking[i], 1e-4);
      }
    }
  }

  @Test
  void projectionHonoursOffsetsAndLeavesTheRestAlone() {
    List<VectorKernels> all = new java.util.ArrayList<>(List.of(scalar));
    all.addAll(KernelPairs.panamaVariants());
    int n = 6, f = 19, d = 53, xOff = 7, outOff = 11;
    float[] x = KernelPairs.gaussian(xOff + n * f, 3, 1.0);
    float[] b = KernelPairs.gaussian(f * d, 4, 1.0);
    for (VectorKernels k : all) {
      float[] whole = new float[n * d];
      float[] sub = new float[n * f];
      System.arraycopy(x, xOff, sub, 0, n * f);
      PackedMatrix packed = k.pack(b, f, d);
      k.project(sub, n, f, packed, whole, 1);
      float[] out = new float[outOff + n * d + 5];
      java.util.Arrays.fill(out, 42f);
      k.project(x, xOff, n, f, packed, out, outOff, 2);
      for (int i = 0; i < out.length; i++) {
        boolean inside = i >= outOff && i < outOff + n * d;
        assertEquals(inside ? whole[i - outOff] : 42f, out[i], k.describe() + " i=" + i);
      }
    }
  }

  private void checkProjection(List<VectorKernels> panamas, int n, int f, int d, int threads) {
    float[] x = KernelPairs.gaussian(n * f, n * 1000L + f, 1.0);
    float[] b = KernelPairs.gaussian(f * d, f * 1000L + d, 1.0);
    float[] outScalar = new float[n * d];
    scalar.project(x, n, f, scalar.pack(b, f, d), outScalar, threads);
    double[] bt = new double[d * f]; // b transposed, so the reference reads both operands in order
    for (int k = 0; k < f; k++) {
      for (int j = 0; j < d; j++) {
        bt[j * f + k] = b[k * d + j];
      }
    }
    double[] exact = new double[n * d];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < d; j++) {
        double sum = 0;
        for (int k = 0; k < f; k++) {
          sum += x[i * f + k] * bt[j * f + k];
        }
        exact[i * d + j] = sum;
      }
    }
    double tol = 1e-5 * Math.sqrt(f) * 4 + 1e-5;
    String shape = " n=" + n + " f=" + f + " d=" + d;
    assertClose(exact, outScalar, tol, d, "scalar" + shape);
    for (VectorKernels panama : panamas) {
      float[] outPanama = new float[n * d];
      java.util.Arrays.fill(outPanama, Float.NaN); // the kernel must overwrite, not accumulate
      panama.project(x, n, f, panama.pack(b, f, d), outPanama, threads);
      assertClose(exact, outPanama, tol, d, panama.describe() + shape);
    }
  }

  /** Every element within tol; the message (built only on failure) names the element's (row, column). */
  private static void assertClose(double[] exact, float[] actual, double tol, int d, String what) {
    for (int i = 0; i < exact.length; i++) {
      if (!(Math.abs(exact[i] - actual[i]) <= tol)) {
        assertEquals(exact[i], actual[i], tol, what + " at (" + i / d + "," + i % d + ")");
      }
    }
  }

  @Test
  void gaussianFillConsumesTheGeneratorIdentically() {
    for (VectorKernels panama : KernelPairs.panamaVariants()) {
      for (int n : KernelPairs.AWKWARD_SIZES) {
        float[] a = new float[n + 1];
        float[] b = new float[n + 1];
        SplittableRandom ra = new SplittableRandom(99);
        SplittableRandom rb = new SplittableRandom(99);
        scalar.fillGaussian(a, 1, n, 2.5, ra);
        panama.fillGaussian(b, 1, n, 2.5, rb);
        assertEquals(ra.nextLong(), rb.nextLong(), "both must draw the same number of longs, n=" + n);
        assertEquals(0f, b[0]);
        for (int i = 1; i <= n; i++) {
          assertEquals(a[i], b[i], 1e-5 * Math.max(1, Math.abs(a[i])), "n=" + n + " i=" + i);
        }
      }
    }
  }

  @Test
  void argmaxAgreesAndIgnoresNaN() {
    for (VectorKernels panama : KernelPairs.panamaVariants()) {
      float[] x = {Float.NaN, 1f, 3f, 3f, -2f};
      assertEquals(2, scalar.argmax(x, 0, x.length));
      assertEquals(2, panama.argmax(x, 0, x.length));
      assertEquals(0, panama.argmax(new float[] {Float.NaN}, 0, 1));
      assertTrue(panama.argmax(x, 3, 2) == 0);
    }
  }
}
