package io.hdfl.kernels;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.SplittableRandom;
import jdk.incubator.vector.FloatVector;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The Panama kernels' int8 scores and sums of squares have, with 512-bit and with 256-bit vectors, the
 * bits of one scalar reference that adds in the order of 512-bit vectors (each of sixteen lanes sums
 * its elements with fused multiply-adds, the lanes are added from lane 0, the elements after the last
 * whole sixteen one by one): so a model trained on an AVX2 machine has the bits it has on an AVX-512
 * one. Skipped with other widths (NEON's 128 bits, SVE's wider ones), which add in other orders.
 */
class SumOrderTest {
  private static final int[] DIMS = {1, 7, 8, 15, 16, 17, 31, 63, 64, 65, 80, 100, 784, 1021, 2000, 2008, 10000};

  /** One int8 query's score against one prototype row, in the order of 512-bit vectors. */
  static float codeScore512(byte[] q, int qo, float[] p, int po, int d) {
    float[] lanes = new float[16];
    int whole = d - d % 16;
    for (int i = 0; i < whole; i++) {
      lanes[i % 16] = Math.fma((float) q[qo + i], p[po + i], lanes[i % 16]);
    }
    float s = 0f;
    for (float lane : lanes) {
      s += lane;
    }
    for (int i = whole; i < d; i++) {
      s += q[qo + i] * p[po + i];
    }
    return s;
  }

  /**
   * {@code Σ x²} in the order of 512-bit vectors: four accumulators over blocks of 64, blocks of 16
   * into the first, the four added lane by lane as {@code (a0 + a1) + (a2 + a3)}, the lanes added, the
   * rest one by one.
   */
  static float sumOfSquares512(float[] x, int off, int len) {
    float[][] acc = new float[4][16];
    int i = 0;
    for (; i + 64 <= len; i += 64) {
      for (int j = 0; j < 4; j++) {
        for (int k = 0; k < 16; k++) {
          float v = x[off + i + 16 * j + k];
          acc[j][k] = Math.fma(v, v, acc[j][k]);
        }
      }
    }
    for (; i + 16 <= len; i += 16) {
      for (int k = 0; k < 16; k++) {
        float v = x[off + i + k];
        acc[0][k] = Math.fma(v, v, acc[0][k]);
      }
    }
    float s = 0f;
    for (int k = 0; k < 16; k++) {
      s += (acc[0][k] + acc[1][k]) + (acc[2][k] + acc[3][k]);
    }
    for (; i < len; i++) {
      s += x[off + i] * x[off + i];
    }
    return s;
  }

  private static void requireOrderOf512Bits() {
    int lanes = FloatVector.SPECIES_PREFERRED.length();
    Assumptions.assumeTrue(lanes == 8 || lanes == 16, () -> lanes + " float lanes: these kernels add in another order");
  }

  @Test
  void everyInt8ScoreHasTheBitsOfThe512BitOrder() {
    requireOrderOf512Bits();
    for (VectorKernels k : KernelPairs.panamaVariants()) {
      for (int d : DIMS) {
        for (int s : new int[] {1, 4, 5, 9, 10, 26}) {
          String at = k.describe() + " d=" + d + " s=" + s;
          int nq = 5;
          byte[] q = KernelPairs.codes(nq * d + 3, d * 7L + s);
          float[] p = KernelPairs.gaussian(s * d, d * 13L + s, 1.0);
          float[] batch = new float[nq * s];
          k.dotScores(q, 3, nq, p, s, d, batch);
          int[] offsets = {3 + 4 * d, 3, 3 + 2 * d, 3 + d};
          for (int n = 1; n <= offsets.length; n++) {
            float[] at4 = new float[n * s];
            k.dotScoresAt(q, offsets, n, p, s, d, at4);
            for (int j = 0; j < n; j++) {
              for (int c = 0; c < s; c++) {
                float want = codeScore512(q, offsets[j], p, c * d, d);
                assertEquals(Float.floatToIntBits(want), Float.floatToIntBits(at4[j * s + c]),
                    at + " dotScoresAt n=" + n + " query " + j + " class " + c);
              }
            }
          }
          for (int j = 0; j < nq; j++) {
            for (int c = 0; c < s; c++) {
              float want = codeScore512(q, 3 + j * d, p, c * d, d);
              assertEquals(Float.floatToIntBits(want), Float.floatToIntBits(batch[j * s + c]),
                  at + " dotScores query " + j + " class " + c);
              assertEquals(Float.floatToIntBits(want), Float.floatToIntBits(k.dotScore(q, 3 + j * d, p, s, d, c)),
                  at + " dotScore query " + j + " class " + c);
            }
          }
          float[] two = new float[2 * 3];
          k.dotScoresOfTwoAt(q, offsets, 3, p, s, d, s - 1, 0, two);
          for (int j = 0; j < 3; j++) {
            assertEquals(Float.floatToIntBits(codeScore512(q, offsets[j], p, (s - 1) * d, d)),
                Float.floatToIntBits(two[2 * j]), at + " dotScoresOfTwoAt query " + j);
            assertEquals(Float.floatToIntBits(codeScore512(q, offsets[j], p, 0, d)),
                Float.floatToIntBits(two[2 * j + 1]), at + " dotScoresOfTwoAt query " + j);
          }
        }
      }
    }
  }

  @Test
  void sumsOfSquaresHaveTheBitsOfThe512BitOrder() {
    requireOrderOf512Bits();
    for (VectorKernels k : KernelPairs.panamaVariants()) {
      for (int len : DIMS) {
        // pixel-like rows (non-negative, many zeros) as an encoder normalizes, and Gaussian ones
        float[] pixels = new float[len + 2];
        SplittableRandom r = new SplittableRandom(len);
        for (int i = 0; i < pixels.length; i++) {
          pixels[i] = r.nextInt(3) == 0 ? 0f : r.nextInt(256) / 255f;
        }
        float[] gauss = KernelPairs.gaussian(len + 2, 5L * len, 3.0);
        for (float[] x : new float[][] {pixels, gauss}) {
          assertEquals(Float.floatToIntBits(sumOfSquares512(x, 2, len)), Float.floatToIntBits(k.sumOfSquares(x, 2, len)),
              k.describe() + " len=" + len);
        }
      }
    }
  }
}
