package io.hdfl.kernels;

/** Uniform conversions shared by every {@link VectorKernels#fillGaussian} implementation. */
final class BoxMuller {
  static final double TWO_PI = 2.0 * Math.PI;

  private BoxMuller() {}

  /** Uniform in (0, 1] from the top 53 bits, so that log never sees zero. */
  static double openUniform(long bits) {
    return ((bits >>> 11) + 1) * 0x1p-53;
  }

  /** Uniform in [0, 1) from the top 53 bits. */
  static double uniform(long bits) {
    return (bits >>> 11) * 0x1p-53;
  }
}
