package io.hdfl.hd;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hdfl.kernels.VectorKernelsProvider;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.security.MessageDigest;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class BasisTest {

  /**
   * Peers derive the basis independently, so its bits are part of the protocol. This checksum was
   * computed once and must hold on every JDK and CPU (CI runs it on JDK 17 and 25).
   */
  @Test
  void pinnedChecksumOfSmallBasis() throws Exception {
    float[] b = Basis.entries(42L, 7, 33, 1);
    assertEquals(PINNED_SHA256, sha256(b));
    Basis full = Basis.generate(42L, 7, 33, VectorKernelsProvider.scalar(), 1);
    assertEquals(PINNED_PHASES_SHA256, sha256(full.phases()));
  }

  static final String PINNED_SHA256 = "478b8a36f26c77843ac5c6fc4aff0a26fcd20822a389eeb44d11d723214b00fd";
  static final String PINNED_PHASES_SHA256 = "479934a048e22f8890260bb94d610bdd07303672565a1ebd01196833bef3c7c3";

  @Test
  void entriesFollowTheSpecifiedAlgorithm() {
    long seed = -7L;
    int f = 3, d = 5; // odd D: Box-Muller pairs straddle rows
    float[] b = Basis.entries(seed, f, d, 1);
    long s = seed ^ Basis.BASIS_DOMAIN;
    for (int i = 0; i < f * d; i++) {
      long p = i / 2;
      double u1 = ((splitMix(s, 2 * p) >>> 11) + 1) * 0x1p-53;
      double u2 = (splitMix(s, 2 * p + 1) >>> 11) * 0x1p-53;
      double r = StrictMath.sqrt(-2 * StrictMath.log(u1));
      double th = 2 * StrictMath.PI * u2;
      float expected = (float) (i % 2 == 0 ? r * StrictMath.cos(th) : r * StrictMath.sin(th));
      assertEquals(Float.floatToIntBits(expected), Float.floatToIntBits(b[i]), "entry " + i);
    }
  }

  /** Independent SplitMix64: state advanced c+1 times by the golden gamma, then mixed. */
  private static long splitMix(long state, long c) {
    long z = state;
    for (long k = 0; k <= c; k++) {
      z += 0x9E3779B97F4A7C15L;
    }
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  @Test
  void independentOfThreadCountAndKernels() {
    float[] one = Basis.entries(123L, 64, 257, 1);
    float[] two = Basis.entries(123L, 64, 257, 2);
    assertArrayEquals(one, two);
    Basis a = Basis.generate(123L, 64, 257, VectorKernelsProvider.scalar(), 1);
    Basis b = Basis.generate(123L, 64, 257, VectorKernelsProvider.get(), 2);
    assertArrayEquals(a.packed().toRowMajor(), b.packed().toRowMajor());
    assertArrayEquals(one, a.packed().toRowMajor());
    assertNotEquals(one[0], Basis.entries(124L, 64, 257, 1)[0]);
  }

  @Test
  void columnBlocksAreTheBasisColumns() {
    int f = 13, d = 101;
    float[] all = Basis.entries(9L, f, d, 1);
    // even and odd starts (Box-Muller pairs straddle them), one column, the whole width
    int[][] ranges = {{0, d}, {1, 2}, {3, 50}, {50, 101}, {100, 101}};
    for (int[] range : ranges) {
      int from = range[0], to = range[1];
      for (var k : new io.hdfl.kernels.VectorKernels[] {VectorKernelsProvider.scalar(), VectorKernelsProvider.get()}) {
        float[] block = Basis.columns(9L, f, d, from, to, k, 2).toRowMajor();
        for (int r = 0; r < f; r++) {
          for (int c = from; c < to; c++) {
            assertEquals(Float.floatToIntBits(all[r * d + c]), Float.floatToIntBits(block[r * (to - from) + c - from]),
                k.name() + " [" + from + ", " + to + ") at " + r + "," + c);
          }
        }
      }
    }
    assertArrayEquals(Basis.generate(9L, f, d, VectorKernelsProvider.scalar(), 1).phases(), Basis.phases(9L, d));
    assertThrows(IllegalArgumentException.class, () -> Basis.columns(9L, f, d, 5, 5, VectorKernelsProvider.scalar(), 1));
    assertThrows(IllegalArgumentException.class, () -> Basis.columns(9L, f, d, -1, 5, VectorKernelsProvider.scalar(), 1));
    assertThrows(IllegalArgumentException.class, () -> Basis.columns(9L, f, d, 90, 102, VectorKernelsProvider.scalar(), 1));
  }

  @Test
  void entriesAreStandardNormalAndPhasesUniform() {
    int f = 200, d = 5000;
    float[] b = Basis.entries(9L, f, d, 2);
    double sum = 0, sumSq = 0;
    for (float v : b) {
      sum += v;
      sumSq += (double) v * v;
    }
    int n = b.length;
    assertEquals(0.0, sum / n, 5 / Math.sqrt(n));
    assertEquals(1.0, sumSq / n, 5 * Math.sqrt(2.0 / n));
    float[] ph = Basis.generate(9L, 1, 100_000, VectorKernelsProvider.scalar(), 1).phases();
    double mean = 0;
    for (float v : ph) {
      assertTrue(v >= 0 && v < 2 * Math.PI + 1e-6, "phase " + v);
      mean += v;
    }
    assertEquals(Math.PI, mean / ph.length, 5 * (2 * Math.PI / Math.sqrt(12)) / Math.sqrt(ph.length));
  }

  @Test
  void rejectsBadShapes() {
    assertThrows(IllegalArgumentException.class, () -> Basis.entries(1L, 0, 5, 1));
    assertThrows(IllegalArgumentException.class, () -> Basis.entries(1L, 1 << 16, 1 << 16, 1));
  }

  static String sha256(float[] v) throws Exception {
    ByteBuffer bb = ByteBuffer.allocate(v.length * 4).order(ByteOrder.LITTLE_ENDIAN);
    bb.asFloatBuffer().put(v);
    return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bb.array()));
  }
}
