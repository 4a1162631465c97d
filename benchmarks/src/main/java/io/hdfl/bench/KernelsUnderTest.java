package io.hdfl.bench;

import io.hdfl.kernels.VectorKernels;
import io.hdfl.kernels.VectorKernelsProvider;

/** The two implementations every benchmark pair compares. */
final class KernelsUnderTest {
  private KernelsUnderTest() {}

  /** The scalar reference kernels ({@code <op>Scalar} benchmarks). */
  static VectorKernels scalar() {
    return VectorKernelsProvider.scalar();
  }

  /**
   * Fresh Panama kernels ({@code <op>Vector} benchmarks), honouring {@code -Dhdfl.kernels.cos} as it
   * is now; fails with the reason when this JVM cannot run them.
   */
  static VectorKernels vector() {
    return VectorKernelsProvider.panama().orElseThrow(() -> new IllegalStateException(
        "Panama kernels unavailable in the benchmark JVM (" + unavailableReason() + ")"));
  }

  private static String unavailableReason() {
    try {
      return VectorKernelsProvider.reason();
    } catch (RuntimeException e) {
      return e.getMessage();
    }
  }
}
