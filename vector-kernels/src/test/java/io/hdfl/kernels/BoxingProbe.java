package io.hdfl.kernels;

import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Calls every Panama kernel entry point {@link #WARM_UP} times (C2 compiles their loops meanwhile), then
 * prints the bytes each call allocates, one {@code alloc <name> <bytes>} line per entry point. Run by
 * {@link NoVectorBoxingTest} in a JVM of its own that inlines no method of {@code io.hdfl.kernels}: if
 * a kernel passed a vector to a helper of its own, or got one back, the vector would be boxed there
 * (a loop's accumulators at every iteration), which shows here as bytes a call.
 */
final class BoxingProbe {
  /** Calls before measuring (C2 compiles within them, with {@code -Xbatch}), and calls measured. */
  static final int WARM_UP = 3000;
  static final int MEASURED = 200;

  private BoxingProbe() {}

  public static void main(String[] args) {
    VectorKernels k = VectorKernelsProvider.panama().orElseThrow(() -> new IllegalStateException(
        "no Panama kernels: " + VectorKernelsProvider.reason()));
    SplittableRandom rng = new SplittableRandom(3);
    int d = 512 + 3; // whole vectors of every width, and a tail
    int s = 11; // every int8 tile with a one-class tail (KernelPriming.CLASSES); float32 also at S=12
    float[] protos = gaussian(rng, s * d);
    float[] queries = gaussian(rng, 4 * d);
    byte[] codes = new byte[4 * d];
    for (int i = 0; i < codes.length; i++) {
      codes[i] = (byte) (rng.nextInt(255) - 127);
    }
    float[] protos12 = gaussian(rng, 12 * d);
    float[] scores = new float[4 * 12];
    int[] four = {0, 2 * d, d, 3 * d};
    int[] one = {d};
    int[] three = {0, d, 3 * d};
    float[] out = new float[d];
    double[] radius = new double[VectorKernels.gaussianPairs(d)];
    double[] cos = new double[radius.length];
    double[] sin = new double[radius.length];
    float[] inputs = gaussian(rng, 8 * 24);
    PackedMatrix basis = k.pack(gaussian(rng, 24 * 64), 24, 64);
    float[] projected = new float[8 * 64];

    Map<String, Runnable> ops = new LinkedHashMap<>();
    ops.put("dotScoresAt(codes, 4)", () -> k.dotScoresAt(codes, four, 4, protos, s, d, scores));
    ops.put("dotScoresAt(codes, 2)", () -> k.dotScoresAt(codes, four, 2, protos, s, d, scores));
    ops.put("dotScoresAt(codes, 1)", () -> k.dotScoresAt(codes, one, 1, protos, s, d, scores));
    ops.put("dotScoresAt(codes, 1, S=9)", () -> k.dotScoresAt(codes, one, 1, protos, 9, d, scores));
    ops.put("dotScores(codes)", () -> k.dotScores(codes, 0, 4, protos, s, d, scores));
    ops.put("dotScoresOfTwoAt(codes)", () -> k.dotScoresOfTwoAt(codes, three, 3, protos, s, d, 2, 7, scores));
    ops.put("dotScore(codes)", () -> scores[0] = k.dotScore(codes, d, protos, s, d, 3));
    ops.put("axpy(codes)", () -> k.axpy(0.5f, codes, d, out, 0, d));
    ops.put("dotScoresAt(float32, 2)", () -> k.dotScoresAt(queries, four, 2, protos, s, d, scores));
    ops.put("dotScores(float32)", () -> k.dotScores(queries, 0, 4, protos, s, d, scores));
    ops.put("dotScores(float32, S=12)", () -> k.dotScores(queries, 0, 4, protos12, 12, d, scores));
    ops.put("dotScore(float32)", () -> scores[0] = k.dotScore(queries, d, protos, s, d, 3));
    ops.put("dot", () -> scores[0] = k.dot(queries, 0, protos, d, d));
    ops.put("sumOfSquares", () -> scores[0] = k.sumOfSquares(queries, 0, d));
    ops.put("axpy", () -> k.axpy(0.5f, queries, 0, out, 0, d));
    ops.put("scale", () -> k.scale(0.5f, out, 0, d));
    ops.put("cos", () -> k.cos(queries, 0, out, 0, d));
    ops.put("sign", () -> k.sign(queries, 0, out, 0, d));
    ops.put("gaussianFactors+addGaussian", () -> {
      k.gaussianFactors(d, radius, cos, sin, 0, rng);
      k.addGaussian(out, 0, d, 1.0, radius, cos, sin, 0);
    });
    ops.put("project", () -> k.project(inputs, 8, 24, basis, projected, 1));

    com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    for (Map.Entry<String, Runnable> op : ops.entrySet()) {
      Runnable call = op.getValue();
      for (int i = 0; i < WARM_UP; i++) {
        call.run();
      }
      long before = threads.getCurrentThreadAllocatedBytes();
      for (int i = 0; i < MEASURED; i++) {
        call.run();
      }
      long bytes = (threads.getCurrentThreadAllocatedBytes() - before) / MEASURED;
      System.out.println("alloc " + op.getKey() + " " + bytes);
    }
    System.out.println("kernels " + k.describe());
  }

  private static float[] gaussian(SplittableRandom rng, int n) {
    float[] a = new float[n];
    for (int i = 0; i < n; i++) {
      a[i] = (float) rng.nextGaussian();
    }
    return a;
  }
}
