package io.hdfl.privacy.noise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class RandomBitsTest {
  private static final long TWO_32 = 1L << 32;

  /** ⌈a/b⌉ for a ≥ 0, b > 0, a + b below 2^63 (Math.ceilDiv is Java 18). */
  private static long ceilDiv(long a, long b) {
    return (a + b - 1) / b;
  }

  /** The r in [0, 2^32) that Lemire's step maps to v: a contiguous run, minus the rejected ones. */
  private static long acceptedPreimages(long v, long bound) {
    long first = ceilDiv(v * TWO_32, bound);
    long end = v + 1 == bound ? TWO_32 : ceilDiv((v + 1) * TWO_32, bound);
    long accepted = 0;
    for (long r = first; r < end; r++) {
      long out = RandomBits.multiplyShift(r, bound);
      if (out >= 0) {
        assertEquals(v, out, "r=" + r + " bound=" + bound);
        accepted++;
      }
    }
    // nothing outside the run maps to v
    if (first > 0) {
      assertTrue(RandomBits.multiplyShift(first - 1, bound) != v);
    }
    if (end < TWO_32) {
      assertTrue(RandomBits.multiplyShift(end, bound) != v);
    }
    return accepted;
  }

  @Test
  void everyValueHasExactlyTheSameNumberOfAcceptedPreimages() {
    SplittableRandom rnd = new SplittableRandom(4);
    long[] bounds = {65_536, 65_537, 1_000_003, 1_247_806, 1_251_329, 2_097_151, (1L << 31) - 1, 1L << 31, 3L << 29, 1_431_655_765};
    for (long bound : bounds) {
      long expected = TWO_32 / bound;
      long[] values = new long[400];
      for (int i = 0; i < values.length; i++) {
        values[i] = i < 3 ? i : i < 6 ? bound - 1 - (i - 3) : rnd.nextLong(bound);
      }
      for (long v : values) {
        assertEquals(expected, acceptedPreimages(v, bound), "value " + v + " of uniform(" + bound + ")");
      }
    }
  }

  @Test
  void uniformIsUniformForSmallAndLargeBounds() {
    SeededBits bits = new SeededBits(12);
    int n = 300_000;
    for (long bound : new long[] {2, 3, 7, 10, 1_251_329, 1L << 31, (1L << 31) + 1, (1L << 40) + 3}) {
      int bins = (int) Math.min(bound, 10);
      long[] counts = new long[bins];
      for (int i = 0; i < n; i++) {
        long u = bits.uniform(bound);
        assertTrue(u >= 0 && u < bound, "uniform(" + bound + ") gave " + u);
        counts[(int) (u * bins / bound)]++; // bins of equal size up to one value
      }
      double chi2 = 0;
      for (int b = 0; b < bins; b++) {
        long lo = ceilDiv(b * bound, bins);
        long hi = ceilDiv((b + 1) * bound, bins);
        double e = n * (double) (hi - lo) / bound;
        chi2 += (counts[b] - e) * (counts[b] - e) / e;
      }
      assertTrue(chi2 < DiscreteGaussianSamplerTest.chiSquareQuantile1e6(bins - 1), "uniform(" + bound + "): chi-square " + chi2);
    }
  }

  @Test
  void rejectsExactlyTheLowRemainders() {
    long bound = 3; // 2^32 mod 3 = 1: only r = 0 is rejected
    assertEquals(-1, RandomBits.multiplyShift(0, bound));
    assertEquals(0, RandomBits.multiplyShift(1, bound));
    assertEquals(2, RandomBits.multiplyShift(TWO_32 - 1, bound));
    long big = (1L << 31) + 1; // 2^32 mod (2^31 + 1) = 2^31 - 1
    long rejected = 0;
    for (long r = 0; r < 8; r++) {
      rejected += RandomBits.multiplyShift(r, big) < 0 ? 1 : 0;
    }
    assertEquals(4, rejected, "r = 0, 2, 4, 6 have low halves 0, 2, 4, 6 < 2^31 - 1");
    assertEquals(0, RandomBits.multiplyShift(0, 1L << 31), "2^32 mod 2^31 = 0: nothing is rejected");
  }
}
