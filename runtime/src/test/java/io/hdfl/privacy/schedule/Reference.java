package io.hdfl.privacy.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The tests' own references, written from the papers' formulas and deliberately not through the
 * code under test: ln(t/(t−1)) from the atanh series, sums of logarithms term by term.
 */
final class Reference {
  private Reference() {}

  /** ln(t/(t−1)) for t ≥ 2. */
  static double lnRatio(long t) {
    return lnRatio(t, t - 1);
  }

  /**
   * ln(a/b) for a ≥ b ≥ 1 without the cancellation of ln a − ln b: 2·atanh(x) = 2·Σ x^(2j+1)/(2j+1)
   * with x = (a−b)/(a+b) when x ≤ 1/3 (a/b ≤ 2); plain ln(a/b), far from 0, otherwise.
   */
  static double lnRatio(long a, long b) {
    double x = (double) (a - b) / (a + b);
    if (x > 1.0 / 3) {
      return Math.log((double) a / b);
    }
    double x2 = x * x;
    double term = x;
    double sum = 0;
    for (int j = 0; j < 60; j++) {
      sum += term / (2 * j + 1);
      term *= x2;
    }
    return 2 * sum;
  }

  /** Σ_{i=1..n} ln i with Kahan compensation. */
  static double sumLn(long n) {
    double sum = 0;
    double comp = 0;
    for (long i = 2; i <= n; i++) {
      double y = Math.log(i) - comp;
      double t = sum + y;
      comp = (t - sum) - y;
      sum = t;
    }
    return sum;
  }

  static void assertRelative(double expected, double actual, double tolerance, String what) {
    assertTrue(Double.isFinite(actual), what + ": not finite: " + actual);
    double scale = Math.abs(expected);
    if (scale == 0) {
      assertEquals(0.0, actual, 0.0, what);
      return;
    }
    double rel = Math.abs(actual - expected) / scale;
    assertTrue(rel <= tolerance, () -> what + ": expected " + expected + ", got " + actual + " (relative error " + rel + ")");
  }
}
