package io.hdfl.kernels;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Assumptions;

/** The kernels under test: the scalar reference and both Panama cos variants (when Panama can run). */
final class KernelPairs {
  static final int[] AWKWARD_SIZES = {1, 3, 7, 8, 13, 31, 64, 100, 1021, 10000};

  private KernelPairs() {}

  static VectorKernels scalar() {
    return VectorKernelsProvider.scalar();
  }

  /** Panama implementations with each cos variant; skips the calling test when Panama cannot run. */
  static List<VectorKernels> panamaVariants() {
    String why = VectorKernelsProvider.panamaUnavailableReason();
    Assumptions.assumeTrue(why == null, () -> "Panama kernels unavailable: " + why);
    return List.of(new PanamaVectorKernels(true), new PanamaVectorKernels(false));
  }

  /** {@code n} int8 codes in [-127, 127], the extremes included. */
  static byte[] codes(int n, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    byte[] b = new byte[n];
    for (int i = 0; i < n; i++) {
      b[i] = (byte) (r.nextInt(255) - 127);
    }
    if (n > 1) {
      b[0] = 127;
      b[n - 1] = -127;
    }
    return b;
  }

  static float[] gaussian(int n, long seed, double scale) {
    SplittableRandom r = new SplittableRandom(seed);
    float[] a = new float[n];
    for (int i = 0; i < n; i++) {
      a[i] = (float) (nextGaussian(r) * scale);
    }
    return a;
  }

  private static double nextGaussian(SplittableRandom r) {
    double u1 = 1.0 - r.nextDouble();
    double u2 = r.nextDouble();
    return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
  }
}
