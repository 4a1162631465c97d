package io.hdfl.kernels;

import java.util.SplittableRandom;

/**
 * Calls the int8 scoring and update kernels, which a federation calls thousands of times, on one loop
 * iteration's worth of dimensions ten thousand times, once per JVM, so that C2 compiles them from their
 * normal entry before the real work needs them.
 *
 * <p>Called first at real sizes, each of these kernels loops long enough in its first few calls that
 * HotSpot compiles it on-stack (OSR) before it compiles it normally, and then again on-stack at its
 * other loop (the parts of a widened code vector, one part on AVX-512 but a loop until C2 folds it;
 * {@link Order512Kernels}, which score on 256-bit vectors, loop over 16 dimensions at a time). In a
 * Fashion-MNIST ring (D=2000, S=10, 2-core VM) those on-stack compilations cost C2 0.14-0.31 s each,
 * three to nine times the normal compilation of the same kernel, all during the federation; and until
 * C2 had compiled them, the recorder's first evaluation ran the Vector API's Java fallback for
 * 0.55-0.95 s. A call over one iteration counts as a call but adds only one or two loop back-edges
 * (three on NEON, whose code vectors are widened in two parts), so the normal compilation's threshold
 * (50 calls at the launchers' {@code CompileThresholdScaling} of 0.01) comes before the on-stack one
 * (400 back-edges) (README, Federation).
 *
 * <p>The calls come in {@link #BURSTS} bursts, {@link #PAUSE_MILLIS} ms apart. C2 compiles a method once
 * its profiled (C1 tier 3) code has counted enough calls, a threshold that rises with the length of
 * C2's queue, which is long while a command loads and encodes its data; and calls made before that
 * code is installed count for nothing. On a slow 2-core VM a thousand calls in one go left the 2×8 tile
 * ({@code dot8Pair}) in C1, so it reached C2 only during the federation, on-stack first (0.23 s and
 * 0.31 s of C2 there, README Federation). Spread over two seconds, the calls keep counting until C2
 * has room for them.
 *
 * <p>Started by {@link VectorKernelsProvider#primeInBackground}. Once compiled, a burst takes well under
 * a millisecond, so the pauses cost nothing; before that, a burst is a few milliseconds of the Vector
 * API's Java fallback. The calls read and write only their own arrays, so no result depends on whether
 * or when they ran.
 */
final class KernelPriming {
  /**
   * Calls of each entry point per burst. The back-edges grow with the calls alike, so more calls never
   * reach the on-stack threshold first.
   */
  static final int CALLS = 100;
  /** Bursts of {@link #CALLS} calls. */
  static final int BURSTS = 100;
  /** The pause after each burst. */
  static final long PAUSE_MILLIS = 20;
  /**
   * Classes: every tile of the scoring kernels with a one-class tail: pairs of samples 8+2+1, blocks of
   * four 4+4+2+1, a sample alone 4+4+1+1+1 ({@link Order512Kernels}: 5+5+1).
   */
  static final int CLASSES = 11;
  /**
   * Classes of every other call: no one-class tail after the pair and quad tiles, nor after the
   * five-class tiles of {@link Order512Kernels} (8+2+2+2, 4+4+4+2, 5+5+4; a sample alone scores its
   * last classes one at a time in a loop, 4+4+4+1+1). Primed with {@link #CLASSES} only, C2 compiled the tail that scores it as
   * always taken, and at S=10 (Fashion-MNIST; S=26 alike) the pair and quad kernels were deoptimized and
   * compiled again during the federation. Primed with 10 (5+5) on 256-bit vectors, the four-class tile
   * was never called, so at S ≡ 4 (mod 5) C2 compiled it only during the federation, on-stack first, and
   * deoptimized the sample-alone kernel that calls it (AVX2 VM, D=2000, S=14).
   */
  static final int OTHER_CLASSES = 14;

  private KernelPriming() {}

  /** One iteration of the scoring kernels' loop over the dimensions, and no tail. */
  static int dims() {
    return Order512Kernels.ACTIVE ? Order512Kernels.ORDER_LANES : PanamaCodeKernels.STEP;
  }

  /** Runs {@link #prime} on a daemon thread of its own. */
  static void start(VectorKernels kernels) {
    Thread t = new Thread(() -> prime(kernels, PAUSE_MILLIS), "hdfl-kernel-priming");
    t.setDaemon(true);
    t.start();
  }

  /**
   * Makes the calls, {@code pauseMillis} ms after each burst; returns a checksum of the results (so that
   * nothing is optimized away). Returns early, with the checksum so far, if the thread is interrupted.
   */
  static double prime(VectorKernels k, long pauseMillis) {
    SplittableRandom rng = new SplittableRandom(7);
    int d = dims();
    int s = CLASSES;
    float[] protos = new float[Math.max(s, OTHER_CLASSES) * d];
    for (int i = 0; i < protos.length; i++) {
      protos[i] = (float) rng.nextGaussian();
    }
    byte[] codes = new byte[5 * d];
    for (int i = 0; i < codes.length; i++) {
      codes[i] = (byte) (rng.nextInt(255) - 127);
    }
    float[] scores = new float[5 * Math.max(s, OTHER_CLASSES)];
    int[] pair = {0, 2 * d};
    int[] quad = {0, 2 * d, d, 4 * d};
    int[] single = {d};
    int[] trio = {0, d, 3 * d};
    // noise drawn ahead: one whole block of pairs, or one and a partial block whose pairs end in a tail
    int noiseValues = 2 * VectorKernels.GAUSSIAN_BLOCK_PAIRS;
    int oddNoiseValues = noiseValues + 34;
    double[] radius = new double[VectorKernels.gaussianPairs(oddNoiseValues)];
    double[] cos = new double[radius.length];
    double[] sin = new double[radius.length];
    float[] noise = new float[oddNoiseValues];
    double sum = 0;
    for (int call = 0; call < BURSTS * CALLS; call++) {
      int cs = call % 2 == 0 ? s : OTHER_CLASSES;
      k.dotScoresAt(codes, pair, 2, protos, cs, d, scores); // a retraining pass's pairs of samples
      k.dotScoresAt(codes, quad, 4, protos, cs, d, scores); // its blocks of four (512-bit kernels)
      k.dotScoresAt(codes, single, 1, protos, cs, d, scores); // its last sample, or every one (AVX2)
      k.dotScoresOfTwoAt(codes, trio, 3, protos, cs, d, call % cs, cs - 1, scores); // rescoring after a mistake
      k.dotScores(codes, 0, 5, protos, cs, d, scores); // an evaluation's tiles of four, and one
      sum += k.dotScore(codes, d, protos, cs, d, call % cs) + scores[call % scores.length];
      k.axpy(call % 2 == 0 ? 1f : -1f, codes, 0, protos, (call % s) * d, d); // bundling, an update
      int values = call % 2 == 0 ? noiseValues : oddNoiseValues;
      k.gaussianFactors(values, radius, cos, sin, 0, rng); // a peer's noise, drawn ahead
      k.addGaussian(noise, 0, values, 1.0, radius, cos, sin, 0); // and added at its turn
      if (pauseMillis > 0 && (call + 1) % CALLS == 0) {
        try {
          Thread.sleep(pauseMillis);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return sum;
        }
      }
    }
    return sum;
  }
}
