package io.hdfl.bench;

import java.util.Locale;

/**
 * A projection shape {@code n×f×D}: n input rows of f features projected onto D dimensions. Written
 * {@code "nxfxD"} in JMH parameters, e.g. {@code "60000x784x2000"}.
 */
record Shape(int n, int f, int d) {

  Shape {
    if (n < 1 || f < 1 || d < 1) {
      throw new IllegalArgumentException("shape dimensions must be >= 1: " + n + "x" + f + "x" + d);
    }
    if ((long) n * f > Integer.MAX_VALUE - 16 || (long) n * d > Integer.MAX_VALUE - 16) {
      throw new IllegalArgumentException("shape " + n + "x" + f + "x" + d + " does not fit in a Java array");
    }
  }

  /** Parses {@code "nxfxD"} ({@code x}, {@code X} or {@code ×} as separator). */
  static Shape parse(String s) {
    String[] parts = s.trim().toLowerCase(Locale.ROOT).split("[x×]");
    if (parts.length != 3) {
      throw new IllegalArgumentException("shape must be n x f x D, e.g. 60000x784x2000, not '" + s + "'");
    }
    try {
      return new Shape(Integer.parseInt(parts[0].trim()), Integer.parseInt(parts[1].trim()),
          Integer.parseInt(parts[2].trim()));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("shape must be n x f x D, e.g. 60000x784x2000, not '" + s + "'", e);
    }
  }

  /** Floating-point operations of the projection GEMM: {@code 2·n·f·D}. */
  double gemmFlops() {
    return 2.0 * n * f * d;
  }

  @Override
  public String toString() {
    return n + "x" + f + "x" + d;
  }
}
