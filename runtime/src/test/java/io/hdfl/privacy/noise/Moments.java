package io.hdfl.privacy.noise;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Sample moments of draws that should be N(0, variance) (or a discrete Gaussian with that exact
 * variance), with checks at 5 standard errors: a correct sampler fails one of them with probability
 * around 10^-6.
 */
final class Moments {
  final long n;
  final double mean;
  final double variance;
  final double skewness;
  final double kurtosis;
  final long positive;
  final long negative;

  Moments(double[] x) {
    n = x.length;
    double sum = 0;
    long pos = 0;
    long neg = 0;
    for (double v : x) {
      sum += v;
      if (v > 0) {
        pos++;
      } else if (v < 0) {
        neg++;
      }
    }
    double m = sum / n;
    double s2 = 0;
    double s3 = 0;
    double s4 = 0;
    for (double v : x) {
      double c = v - m;
      double c2 = c * c;
      s2 += c2;
      s3 += c2 * c;
      s4 += c2 * c2;
    }
    mean = m;
    variance = s2 / (n - 1);
    double pv = s2 / n;
    skewness = (s3 / n) / Math.pow(pv, 1.5);
    kurtosis = (s4 / n) / (pv * pv);
    positive = pos;
    negative = neg;
  }

  /** Checks mean, variance, skewness, kurtosis and the balance of signs against N(0, expectedVariance). */
  void assertGaussian(String what, double expectedVariance) {
    double meanSe = Math.sqrt(expectedVariance / n);
    double varSe = expectedVariance * Math.sqrt(2.0 / n);
    String report = String.format("%s: n=%d mean=%.6g (se %.3g) var=%.8g expected %.8g (se %.3g) skew=%.5f kurt=%.5f +%d -%d",
        what, n, mean, meanSe, variance, expectedVariance, varSe, skewness, kurtosis, positive, negative);
    assertTrue(Math.abs(mean) <= 5 * meanSe, "mean, " + report);
    assertTrue(Math.abs(variance - expectedVariance) <= 5 * varSe, "variance, " + report);
    assertTrue(Math.abs(skewness) <= 5 * Math.sqrt(6.0 / n), "skewness, " + report);
    assertTrue(Math.abs(kurtosis - 3) <= 5 * Math.sqrt(24.0 / n), "kurtosis, " + report);
    long nonZero = positive + negative;
    assertTrue(Math.abs(positive - negative) <= 5 * Math.sqrt(nonZero), "sign balance, " + report);
  }
}
