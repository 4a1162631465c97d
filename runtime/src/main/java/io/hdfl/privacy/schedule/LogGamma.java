package io.hdfl.privacy.schedule;

/**
 * ln Γ(x) and ln n!, for the black-box baselines' cumulative noise (sums of logarithms of
 * consecutive sample counts). Small factorials come from an exact table (n! computed in a long for
 * n ≤ 20); everything else from the Stirling series, which at x ≥ 15 with seven terms is accurate to
 * rounding. Below 15, Γ(x) = Γ(x + m) / (x(x+1)…(x+m−1)) shifts the argument up first.
 *
 * <p>Accuracy: relative error of a few ulps for ln n! and for ln Γ(x) at x ≥ 15; absolute error
 * below 1e-14 for 0 < x < 15 (ln Γ has zeros at 1 and 2, where only absolute accuracy means
 * anything).
 */
public final class LogGamma {
  private static final double HALF_LN_TWO_PI = 0.91893853320467274178032973640562;
  private static final int TABLE_MAX = 20;
  private static final double STIRLING_FROM = 15;
  private static final double[] LN_FACTORIAL = new double[TABLE_MAX + 1];

  static {
    long f = 1;
    for (int n = 1; n <= TABLE_MAX; n++) {
      f *= n;
      LN_FACTORIAL[n] = Math.log((double) f);
    }
  }

  private LogGamma() {}

  /** ln n! for n ≥ 0. */
  public static double lnFactorial(long n) {
    if (n < 0) {
      throw new IllegalArgumentException("factorial of a negative number: " + n);
    }
    if (n <= TABLE_MAX) {
      return LN_FACTORIAL[(int) n];
    }
    return stirling(n + 1.0);
  }

  /** ln Γ(x) for x > 0 ({@code +Infinity} for x = +∞). */
  public static double lnGamma(double x) {
    if (!(x > 0)) {
      throw new IllegalArgumentException("ln Γ(x) needs x > 0, got " + x);
    }
    if (x == Double.POSITIVE_INFINITY) {
      return x;
    }
    if (x <= TABLE_MAX + 1 && x == Math.rint(x)) {
      return LN_FACTORIAL[(int) x - 1];
    }
    if (x >= STIRLING_FROM) {
      return stirling(x);
    }
    double product = 1;
    double y = x;
    while (y < STIRLING_FROM) {
      product *= y;
      y += 1;
    }
    return stirling(y) - Math.log(product);
  }

  /** ln Γ(x) = (x − ½)ln x − x + ½ln 2π + Σ B_2k / (2k(2k−1)x^(2k−1)), k = 1..7, for x ≥ 15. */
  private static double stirling(double x) {
    double inv = 1 / x;
    double inv2 = inv * inv;
    double series = inv * (1.0 / 12 + inv2 * (-1.0 / 360 + inv2 * (1.0 / 1260 + inv2 * (-1.0 / 1680
        + inv2 * (1.0 / 1188 + inv2 * (-691.0 / 360360 + inv2 * (1.0 / 156)))))));
    return (x - 0.5) * Math.log(x) - x + HALF_LN_TWO_PI + series;
  }
}
