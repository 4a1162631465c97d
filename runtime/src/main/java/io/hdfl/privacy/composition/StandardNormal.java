package io.hdfl.privacy.composition;

/**
 * The standard normal CDF with small relative error in both tails (needed for δ values down to
 * 1e-300): erfc from the positive-term series of erf for |x| < 3 and a continued fraction beyond.
 */
final class StandardNormal {
  private static final double SQRT_PI = Math.sqrt(Math.PI);
  private static final double SQRT2 = Math.sqrt(2.0);

  private StandardNormal() {}

  /** Φ(z) = P(Z ≤ z). */
  static double cdf(double z) {
    if (Double.isNaN(z)) {
      return Double.NaN;
    }
    return 0.5 * erfc(-z / SQRT2);
  }

  /**
   * ln Φ(z), also where Φ(z) underflows (z far below 0): from the asymptotic series of Mills' ratio,
   * Φ(z) = φ(z)/|z| · (1 − 1/z² + 3/z⁴ − 15/z⁶ + 105/z⁸ − …), below z = −30 (relative error of the
   * truncated series under 2e-12 there), and ln of {@link #cdf} above.
   */
  static double logCdf(double z) {
    if (Double.isNaN(z)) {
      return Double.NaN;
    }
    if (z > -30) {
      return Math.log(cdf(z));
    }
    double w = 1 / (z * z);
    double series = 1 - w * (1 - 3 * w * (1 - 5 * w * (1 - 7 * w)));
    return -0.5 * z * z - Math.log(-z) - 0.5 * Math.log(2 * Math.PI) + Math.log(series);
  }

  /** Complementary error function, relative error around 1e-13 or better. */
  static double erfc(double x) {
    if (x < 0) {
      return 2.0 - erfc(-x);
    }
    if (x < 3.0) {
      return 1.0 - erf(x);
    }
    if (x > 27.3) {
      return 0.0; // below the smallest subnormal double
    }
    // Continued fraction erfc(x) = exp(-x²)/√π · 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + ...)))), Lentz.
    double tiny = 1e-300;
    double f = x;
    double c = x;
    double d = 0;
    for (int n = 1; n < 500; n++) {
      double a = n / 2.0;
      d = x + a * d;
      d = Math.abs(d) < tiny ? tiny : d;
      c = x + a / c;
      c = Math.abs(c) < tiny ? tiny : c;
      d = 1.0 / d;
      double delta = c * d;
      f *= delta;
      if (Math.abs(delta - 1.0) < 1e-16) {
        break;
      }
    }
    return Math.exp(-x * x) / (SQRT_PI * f);
  }

  /** erf via the series 2/√π·e^{-x²}·Σ 2ⁿx^{2n+1}/(1·3·…·(2n+1)), whose terms are all positive. */
  private static double erf(double x) {
    double term = x;
    double sum = x;
    double x2 = x * x;
    for (int n = 1; n < 200; n++) {
      term *= 2.0 * x2 / (2 * n + 1);
      sum += term;
      if (term < 1e-17 * sum) {
        break;
      }
    }
    return 2.0 / SQRT_PI * Math.exp(-x2) * sum;
  }
}
