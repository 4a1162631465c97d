package io.hdfl.privacy.noise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The exact samplers, on reproducible bits so that every statistical check is deterministic (the
 * thresholds are still 5 standard errors or a 10^-6 chi-square quantile).
 */
class DiscreteGaussianSamplerTest {
  private static final int N = 1_000_000;
  /** Trials per probability in the coin tests. */
  private static final int COINS = 250_000;

  @Test
  void runsExactlyTheRequestedSigmaWhenItIsOfTheSamplersForm() {
    DiscreteGaussianSampler s15 = new DiscreteGaussianSampler(2.25, new SeededBits(1));
    assertEquals(2, s15.t());
    assertEquals(0, BigDecimal.valueOf(s15.t() * s15.q()).divide(BigDecimal.valueOf(s15.d()))
        .compareTo(new BigDecimal("2.25")));
    assertEquals(2.25, s15.sigmaSquared(), 0);
    DiscreteGaussianSampler s3 = new DiscreteGaussianSampler(9, new SeededBits(1));
    assertEquals(4, s3.t());
    assertEquals(9, s3.sigmaSquared(), 0);
  }

  @Test
  void roundsOtherSigmasUpByLessThanTwoToTheMinus19() {
    SplittableRandom r = new SplittableRandom(5);
    for (int i = 0; i < 2000; i++) {
      double s2 = Math.exp(r.nextDouble(0, Math.log(0x1p48)));
      DiscreteGaussianSampler s = new DiscreteGaussianSampler(s2, new SeededBits(i));
      BigDecimal exact = BigDecimal.valueOf(s.t()).multiply(BigDecimal.valueOf(s.q()))
          .divide(BigDecimal.valueOf(s.d()));
      BigDecimal requested = new BigDecimal(s2);
      assertTrue(exact.compareTo(requested) >= 0, "below request at " + s2);
      double excess = exact.subtract(requested).divide(requested, MathContext.DECIMAL64).doubleValue();
      assertTrue(excess < 0x1p-19, "excess " + excess + " at " + s2);
      assertTrue(new BigDecimal(s.sigmaSquared()).compareTo(exact) >= 0, "reported σ² below the exact one at " + s2);
      assertTrue(s.sigmaSquared() <= exact.doubleValue() * (1 + 0x1p-52), "reported σ² too high at " + s2);
    }
  }

  @Test
  void exactDistributionAtSigma1point5() {
    checkDistribution(2.25, 11);
  }

  @Test
  void exactDistributionAtSigma3() {
    checkDistribution(9, 12);
  }

  /** Chi-square over every integer with an expected count ≥ 5 plus two tail bins, and each bin at 5 SE. */
  private static void checkDistribution(double s2, long seed) {
    DiscreteGaussianSampler s = new DiscreteGaussianSampler(s2, new SeededBits(seed));
    int limit = (int) Math.ceil(40 * Math.sqrt(s2));
    double norm = 0;
    for (int z = -limit; z <= limit; z++) {
      norm += Math.exp(-(double) z * z / (2 * s2));
    }
    int l = 0;
    while (N * Math.exp(-(double) (l + 1) * (l + 1) / (2 * s2)) / norm >= 5) {
      l++;
    }
    long[] counts = new long[2 * l + 3]; // [0] = below -l, [2l+2] = above l
    double sum = 0;
    double sumSq = 0;
    for (int i = 0; i < N; i++) {
      long z = s.sample();
      sum += z;
      sumSq += (double) z * z;
      counts[z < -l ? 0 : z > l ? 2 * l + 2 : (int) z + l + 1]++;
    }
    double tail = 0;
    for (int z = l + 1; z <= limit; z++) {
      tail += Math.exp(-(double) z * z / (2 * s2)) / norm;
    }
    double chi2 = 0;
    for (int b = 0; b < counts.length; b++) {
      double p = b == 0 || b == counts.length - 1 ? tail : Math.exp(-Math.pow(b - l - 1, 2) / (2 * s2)) / norm;
      double e = N * p;
      chi2 += (counts[b] - e) * (counts[b] - e) / e;
      double se = Math.sqrt(N * p * (1 - p));
      assertTrue(Math.abs(counts[b] - e) <= 5 * se, "bin " + b + " of σ²=" + s2 + ": " + counts[b] + " vs " + e);
    }
    int df = counts.length - 1;
    assertTrue(chi2 < chiSquareQuantile1e6(df), "chi-square " + chi2 + " with " + df + " df at σ²=" + s2);
    double var = DiscreteGaussianSampler.variance(s2);
    double mean = sum / N;
    assertTrue(Math.abs(mean) <= 5 * Math.sqrt(var / N), "mean " + mean);
    double empirical = sumSq / N - mean * mean;
    assertTrue(Math.abs(empirical - var) <= 5 * var * Math.sqrt(2.0 / N), "variance " + empirical + " vs " + var);
  }

  /** Upper 10^-6 quantile of chi-square with df degrees of freedom (Wilson–Hilferty). */
  static double chiSquareQuantile1e6(int df) {
    double z = 4.7534;
    double a = 2.0 / (9 * df);
    return df * Math.pow(1 - a + z * Math.sqrt(a), 3);
  }

  @Test
  void exactVarianceMatchesDirectSummation() {
    for (double s2 : new double[] {1, 1.44, 2.25, 9, 100, 5000, 0x1p38}) {
      double variance = DiscreteGaussianSampler.variance(s2);
      if (s2 <= 5000) {
        // Σ z²·w(z) / Σ w(z) with w(z) = exp(-z²/2σ²), out to 40σ (the rest is below 1e-300)
        int limit = (int) Math.ceil(40 * Math.sqrt(s2));
        double mass = 1;
        double second = 0;
        for (int z = 1; z <= limit; z++) {
          double w = Math.exp(-(double) z * z / (2 * s2));
          mass += 2 * w;
          second += 2.0 * z * z * w;
        }
        assertEquals(second / mass, variance, 1e-14 * s2, "σ² = " + s2);
      }
      assertTrue(variance <= s2, "the discrete Gaussian's variance is below its σ²");
    }
    assertEquals(-2.1123227e-7, DiscreteGaussianSampler.variance(1) - 1, 1e-13, "deficit at σ = 1");
    assertEquals(2.25, DiscreteGaussianSampler.variance(2.25), 0, "deficit below double precision at σ = 1.5");
  }

  @Test
  void bernoulliExpMinusGammaForGammaBelowAndAboveOne() {
    DiscreteGaussianSampler s = new DiscreteGaussianSampler(9, new SeededBits(21));
    long[][] gammas = {{0, 1}, {1, 4}, {1, 2}, {7_000_000_000_000L, 10_000_000_000_000L}, {1, 1}, {3, 2}, {11, 4},
        {5, 1}, {15, 2}, {(1L << 61) + 12345, 1L << 61}};
    for (long[] g : gammas) {
      long hits = 0;
      for (int i = 0; i < COINS; i++) {
        if (s.bernoulliExp(g[0], g[1])) {
          hits++;
        }
      }
      double p = Math.exp(-(double) g[0] / g[1]);
      double se = Math.sqrt(COINS * p * (1 - p));
      assertTrue(Math.abs(hits - COINS * p) <= 5 * se + 1e-9, "γ = " + g[0] + "/" + g[1] + ": " + hits + " vs " + COINS * p);
    }
    int minusOne = 0;
    for (int i = 0; i < COINS; i++) {
      if (s.bernoulliExpMinusOne()) {
        minusOne++;
      }
    }
    double p = Math.exp(-1);
    assertTrue(Math.abs(minusOne - COINS * p) <= 5 * Math.sqrt(COINS * p * (1 - p)), "exp(-1): " + minusOne);
  }

  @Test
  void bigIntegerPathMakesTheSameDecisionsAsTheLongPath() {
    DiscreteGaussianSampler a = new DiscreteGaussianSampler(9, new SeededBits(3));
    DiscreteGaussianSampler b = new DiscreteGaussianSampler(9, new SeededBits(3));
    SplittableRandom r = new SplittableRandom(4);
    for (int i = 0; i < 100_000; i++) {
      long den = 1 + r.nextLong(1L << 40);
      long num = r.nextLong(8 * den);
      assertEquals(a.bernoulliExp(num, den), b.bernoulliExp(BigInteger.valueOf(num), den), "at " + num + "/" + den);
    }
    BigInteger huge = BigInteger.ONE.shiftLeft(90);
    for (int i = 0; i < 1000; i++) {
      assertFalse(a.bernoulliExp(huge, 3), "exp(-2^90/3) is 0 in every practical sense");
    }
  }

  @Test
  void lazyBitsAndUniform() {
    SeededBits bits = new SeededBits(8);
    long before = bits.words;
    int ones = 0;
    for (int i = 0; i < 6400; i++) {
      ones += bits.nextBit();
    }
    assertEquals(100, bits.words - before, "a fair coin costs exactly one bit");
    assertTrue(Math.abs(ones - 3200) < 5 * 40);
    for (long bound : new long[] {3, 5, 1000, (1L << 40) + 3}) {
      double sum = 0;
      for (int i = 0; i < COINS; i++) {
        long u = bits.uniform(bound);
        assertTrue(u >= 0 && u < bound);
        sum += u;
      }
      double mean = (bound - 1) / 2.0;
      double sd = Math.sqrt(((double) bound * bound - 1) / 12);
      assertTrue(Math.abs(sum / COINS - mean) <= 5 * sd / Math.sqrt(COINS), "uniform(" + bound + ") mean " + sum / COINS);
    }
    assertEquals(0, bits.uniform(1));
    assertThrows(IllegalArgumentException.class, () -> bits.uniform(0));
  }

  @Test
  void discreteLaplaceHasTheRightShape() {
    DiscreteGaussianSampler s = new DiscreteGaussianSampler(9, new SeededBits(17)); // t = 4
    int l = 25;
    long[] counts = new long[2 * l + 1];
    for (int i = 0; i < COINS; i++) {
      long y = s.laplace();
      if (Math.abs(y) <= l) {
        counts[(int) y + l]++;
      }
    }
    double norm = (1 + Math.exp(-0.25)) / (1 - Math.exp(-0.25)); // Σ_z exp(-|z|/4)
    for (int z = -l; z <= l; z++) {
      double p = Math.exp(-Math.abs(z) / 4.0) / norm;
      double e = COINS * p;
      assertTrue(Math.abs(counts[z + l] - e) <= 5 * Math.sqrt(e * (1 - p)), "Laplace at " + z + ": " + counts[z + l] + " vs " + e);
    }
  }

  @Test
  void largeSigmaMoments() {
    double s2 = 0x1p38 + 12345; // σ ≈ 2^19, the secure source's range
    DiscreteGaussianSampler s = new DiscreteGaussianSampler(s2, new SeededBits(99));
    double[] x = new double[N];
    for (int i = 0; i < N; i++) {
      x[i] = s.sample();
    }
    new Moments(x).assertGaussian("discrete Gaussian σ²=" + s2, s.variance());
    assertEquals(s.sigmaSquared(), s.variance(), 0);
  }

  @Test
  void rejectsSigmaOutsideItsRange() {
    SeededBits bits = new SeededBits(1);
    for (double bad : new double[] {0.99, 0, -1, Double.NaN, Double.POSITIVE_INFINITY, 0x1p48 * 1.01}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new DiscreteGaussianSampler(bad, bits));
      assertTrue(e.getMessage().contains("must be in [1, 2^48]"), e.getMessage());
    }
    new DiscreteGaussianSampler(1, bits);
    new DiscreteGaussianSampler(0x1p48, bits).sample();
  }
}
