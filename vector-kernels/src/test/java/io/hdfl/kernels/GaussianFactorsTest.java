package io.hdfl.kernels;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Gaussian noise drawn ahead ({@code gaussianFactors}) and added later ({@code addGaussian}). */
class GaussianFactorsTest {
  /** Awkward sizes, one and a part block, and a Fashion-MNIST model (10 × 2000). */
  private static final int[] SIZES = {1, 2, 3, 7, 8, 13, 31, 64, 100, 127, 128, 129, 162, 255, 1021, 10000, 20000};

  private static List<VectorKernels> kernels() {
    List<VectorKernels> all = new ArrayList<>();
    all.add(KernelPairs.scalar());
    if (VectorKernelsProvider.panamaUnavailableReason() == null) {
      all.addAll(KernelPairs.panamaVariants());
    }
    return all;
  }

  @Test
  void pairsAreEachBlocksHalfRoundedUp() {
    int block = 2 * VectorKernels.GAUSSIAN_BLOCK_PAIRS;
    for (int len = 0; len <= 5 * block + 3; len++) {
      int pairs = 0;
      for (int done = 0; done < len; done += block) {
        pairs += (Math.min(block, len - done) + 1) / 2;
      }
      assertEquals(pairs, VectorKernels.gaussianPairs(len), "len " + len);
    }
    assertEquals(10_000, VectorKernels.gaussianPairs(20_000));
    assertThrows(IllegalArgumentException.class, () -> VectorKernels.gaussianPairs(-1));
  }

  @Test
  void addingTheFactorsIsTheFillThenAxpyBitForBit() {
    for (VectorKernels k : kernels()) {
      for (int n : SIZES) {
        double sigma = 3.7 + n;
        float[] expected = KernelPairs.gaussian(n + 2, n, 50.0);
        float[] actual = expected.clone();
        float[] scratch = new float[n];
        SplittableRandom filled = new SplittableRandom(n);
        k.fillGaussian(scratch, 0, n, sigma, filled);
        k.axpy(1f, scratch, 0, expected, 1, n);

        int at = 5;
        int pairs = VectorKernels.gaussianPairs(n);
        double[] radius = new double[at + pairs + 3];
        double[] cos = new double[radius.length];
        double[] sin = new double[radius.length];
        SplittableRandom ahead = new SplittableRandom(n);
        assertEquals(pairs, k.gaussianFactors(n, radius, cos, sin, at, ahead));
        assertEquals(filled.nextLong(), ahead.nextLong(), k.describe() + " n=" + n + ": the same longs drawn");
        k.addGaussian(actual, 1, n, sigma, radius, cos, sin, at);

        for (int i = 0; i < expected.length; i++) {
          assertEquals(Float.floatToRawIntBits(expected[i]), Float.floatToRawIntBits(actual[i]),
              k.describe() + " n=" + n + " i=" + i + ": " + expected[i] + " vs " + actual[i]);
        }
        for (int j = 0; j < radius.length; j++) {
          if (j < at || j >= at + pairs) {
            assertEquals(0.0, radius[j] + cos[j] + sin[j], "outside the pairs, j=" + j);
          }
        }
      }
    }
  }

  @Test
  void factorsAreTheBoxMullerTermsOfTheDrawnUniforms() {
    for (VectorKernels k : kernels()) {
      int n = 300;
      int pairs = VectorKernels.gaussianPairs(n);
      double[] radius = new double[pairs];
      double[] cos = new double[pairs];
      double[] sin = new double[pairs];
      k.gaussianFactors(n, radius, cos, sin, 0, new SplittableRandom(11));
      SplittableRandom r = new SplittableRandom(11);
      for (int j = 0; j < pairs; j++) {
        double u1 = ((r.nextLong() >>> 11) + 1) * 0x1p-53;
        double u2 = (r.nextLong() >>> 11) * 0x1p-53;
        double tol = 1e-13;
        assertEquals(Math.sqrt(-2 * Math.log(u1)), radius[j], tol * Math.max(1, radius[j]), k.describe() + " j=" + j);
        assertEquals(Math.cos(2 * Math.PI * u2), cos[j], tol, k.describe() + " j=" + j);
        assertEquals(Math.sin(2 * Math.PI * u2), sin[j], tol, k.describe() + " j=" + j);
      }
    }
  }

  @Test
  void badArgumentsAreRefusedBeforeAnythingIsDrawnOrWritten() {
    for (VectorKernels k : kernels()) {
      SplittableRandom r = new SplittableRandom(3);
      long next = new SplittableRandom(3).nextLong();
      double[] small = new double[63];
      double[] ok = new double[64];
      assertThrows(IndexOutOfBoundsException.class, () -> k.gaussianFactors(128, small, ok, ok, 0, r));
      assertThrows(IndexOutOfBoundsException.class, () -> k.gaussianFactors(128, ok, ok, small, 0, r));
      assertThrows(IndexOutOfBoundsException.class, () -> k.gaussianFactors(128, ok, ok, ok, 1, r));
      assertThrows(NullPointerException.class, () -> k.gaussianFactors(128, ok, null, ok, 0, r));
      assertThrows(IllegalArgumentException.class, () -> k.gaussianFactors(-1, ok, ok, ok, 0, r));
      assertEquals(next, r.nextLong(), k.describe() + ": nothing drawn");

      float[] dst = new float[128];
      assertThrows(IndexOutOfBoundsException.class, () -> k.addGaussian(dst, 1, 128, 1.0, ok, ok, ok, 0));
      assertThrows(IndexOutOfBoundsException.class, () -> k.addGaussian(dst, 0, 128, 1.0, ok, small, ok, 0));
      assertThrows(IndexOutOfBoundsException.class, () -> k.addGaussian(dst, 0, 128, 1.0, ok, ok, ok, 1));
      assertArrayEquals(new float[128], dst, k.describe() + ": nothing written");
    }
  }
}
