package io.hdfl.kernels;

/**
 * Argument checks shared by both implementations, so a bad call fails the same way everywhere. Each
 * check is written once over an array's length; the float and int8 (code) overloads only take the
 * length of their array, failing with the parameter's name when it is null.
 */
final class KernelArgs {
  private KernelArgs() {}

  private static int length(float[] a, String name) {
    if (a == null) {
      throw new NullPointerException(name);
    }
    return a.length;
  }

  private static int length(byte[] a, String name) {
    if (a == null) {
      throw new NullPointerException(name);
    }
    return a.length;
  }

  private static int length(double[] a, String name) {
    if (a == null) {
      throw new NullPointerException(name);
    }
    return a.length;
  }

  static void range(float[] a, int off, int len, String name) {
    range(length(a, name), off, len, name);
  }

  static void range(byte[] a, int off, int len, String name) {
    range(length(a, name), off, len, name);
  }

  /** The three Box–Muller factor arrays each hold {@code pairs} values from {@code at}. */
  static void gaussianFactors(double[] radius, double[] cos, double[] sin, int at, int pairs) {
    range(length(radius, "radius"), at, pairs, "radius");
    range(length(cos, "cos"), at, pairs, "cos");
    range(length(sin, "sin"), at, pairs, "sin");
  }

  private static void range(int length, int off, int len, String name) {
    if (off < 0 || len < 0 || off > length - len) {
      throw new IndexOutOfBoundsException(
          name + ": range [" + off + ", " + ((long) off + len) + ") outside array of length " + length);
    }
  }

  static void matrix(float[] a, long rows, long cols, String name) {
    matrix(a, 0, rows, cols, name);
  }

  static void matrix(float[] a, long off, long rows, long cols, String name) {
    matrix(length(a, name), off, rows, cols, name);
  }

  private static void matrix(int length, long off, long rows, long cols, String name) {
    if (off < 0 || rows < 0 || cols < 0 || off + rows * cols > length) {
      throw new IndexOutOfBoundsException(
          name + ": " + rows + "x" + cols + " at offset " + off + " does not fit in array of length " + length);
    }
  }

  static void project(float[] x, int xOff, int n, int f, PackedMatrix b, float[] out, int outOff) {
    if (b.rows() != f) {
      throw new IllegalArgumentException("basis has " + b.rows() + " rows but inputs have " + f + " features");
    }
    matrix(x, xOff, n, f, "x");
    matrix(out, outOff, n, b.cols(), "out");
  }

  static void scores(float[] queries, int qOff, int nq, float[] protos, int s, int d, float[] scores) {
    scores(length(queries, "queries"), qOff, nq, protos, s, d, scores);
  }

  static void scores(byte[] queries, int qOff, int nq, float[] protos, int s, int d, float[] scores) {
    scores(length(queries, "queries"), qOff, nq, protos, s, d, scores);
  }

  private static void scores(int queries, int qOff, int nq, float[] protos, int s, int d, float[] scores) {
    matrix(queries, qOff, nq, d, "queries");
    matrix(protos, s, d, "protos");
    matrix(scores, nq, s, "scores");
  }

  static void scoresAt(float[] queries, int[] offsets, int n, float[] protos, int s, int d, float[] scores) {
    scoresAt(length(queries, "queries"), offsets, n, protos, s, d, scores);
  }

  static void scoresAt(byte[] queries, int[] offsets, int n, float[] protos, int s, int d, float[] scores) {
    scoresAt(length(queries, "queries"), offsets, n, protos, s, d, scores);
  }

  private static void scoresAt(int queries, int[] offsets, int n, float[] protos, int s, int d, float[] scores) {
    queriesAt(queries, offsets, n, d);
    matrix(protos, s, d, "protos");
    matrix(scores, n, s, "scores");
  }

  static void scoresOfTwoAt(float[] queries, int[] offsets, int n, float[] protos, int s, int d, int a, int b,
      float[] scores) {
    scoresOfTwoAt(length(queries, "queries"), offsets, n, protos, s, d, a, b, scores);
  }

  static void scoresOfTwoAt(byte[] queries, int[] offsets, int n, float[] protos, int s, int d, int a, int b,
      float[] scores) {
    scoresOfTwoAt(length(queries, "queries"), offsets, n, protos, s, d, a, b, scores);
  }

  private static void scoresOfTwoAt(int queries, int[] offsets, int n, float[] protos, int s, int d, int a, int b,
      float[] scores) {
    queriesAt(queries, offsets, n, d);
    matrix(protos, s, d, "protos");
    classOf(a, s);
    classOf(b, s);
    matrix(scores, n, 2, "scores");
  }

  /** The {@code n} queries of {@code d} values at {@code offsets[0..n)} lie in an array of {@code queries}. */
  private static void queriesAt(int queries, int[] offsets, int n, int d) {
    if (offsets == null) {
      throw new NullPointerException("offsets");
    }
    if (n < 0 || n > offsets.length) {
      throw new IndexOutOfBoundsException("n=" + n + " outside 0.." + offsets.length + " (offsets given)");
    }
    for (int k = 0; k < n; k++) {
      matrix(queries, offsets[k], 1, d, "queries");
    }
  }

  private static void classOf(int c, int s) {
    if (c < 0 || c >= s) {
      throw new IndexOutOfBoundsException("class " + c + " outside 0.." + (s - 1));
    }
  }

  static void scoreOf(float[] queries, int qOff, float[] protos, int s, int d, int c) {
    scoreOf(length(queries, "queries"), qOff, protos, s, d, c);
  }

  static void scoreOf(byte[] queries, int qOff, float[] protos, int s, int d, int c) {
    scoreOf(length(queries, "queries"), qOff, protos, s, d, c);
  }

  private static void scoreOf(int queries, int qOff, float[] protos, int s, int d, int c) {
    matrix(queries, qOff, 1, d, "queries");
    matrix(protos, s, d, "protos");
    classOf(c, s);
  }
}
