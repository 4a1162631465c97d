package io.hdfl.privacy.schedule;

/** Neumaier's compensated sum: the running total of many terms without accumulated rounding. */
final class CompensatedSum {
  private double sum;
  private double compensation;

  void add(double v) {
    double t = sum + v;
    if (Math.abs(sum) >= Math.abs(v)) {
      compensation += (sum - t) + v;
    } else {
      compensation += (v - t) + sum;
    }
    sum = t;
  }

  double value() {
    return sum + compensation;
  }
}
