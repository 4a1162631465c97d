package io.hdfl.kernels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Test;

class VectorKernelsProviderTest {

  /**
   * The guard against a silent fallback: CI runs the suite with HDFL_KERNELS_EXPECT=panama (or
   * -Dhdfl.kernels.expect=panama), and once more expecting scalar; the emulated aarch64 check also sets
   * HDFL_KERNELS_EXPECT_BITS=128 (-Dhdfl.kernels.expectBits). If the provider chose anything else this fails.
   */
  @Test
  void chosenProviderIsTheExpectedOne() {
    VectorKernels chosen = VectorKernelsProvider.get();
    KernelExpectation.fromEnvironment().mismatch(chosen)
        .ifPresent(why -> fail(why + " (" + chosen.describe() + ": " + VectorKernelsProvider.reason() + ")"));
    assertTrue(chosen.name().equals("panama") || chosen.name().equals("scalar"));
  }

  @Test
  void vectorBitsMatchTheDescription() {
    VectorKernels chosen = VectorKernelsProvider.get();
    if (chosen.name().equals("panama")) {
      assertTrue(chosen.vectorBits() >= 128, chosen.describe());
      assertTrue(chosen.describe().contains(chosen.vectorBits() + "-bit"), chosen.describe());
    }
    assertEquals(32, VectorKernelsProvider.scalar().vectorBits());
  }

  @Test
  void forcingScalarAlwaysWorks() {
    VectorKernelsProvider.Selection s = VectorKernelsProvider.select("scalar", "");
    assertEquals("scalar", s.kernels().name());
    assertTrue(s.reason().contains("forced"));
  }

  @Test
  void forcingPanamaFailsLoudlyWhenItCannotRun() {
    String why = VectorKernelsProvider.panamaUnavailableReason();
    if (why == null) {
      assertEquals("panama", VectorKernelsProvider.select("panama", "").kernels().name());
      assertEquals("panama", VectorKernelsProvider.select("auto", "").kernels().name());
    } else {
      IllegalStateException e =
          assertThrows(IllegalStateException.class, () -> VectorKernelsProvider.select("panama", ""));
      assertTrue(e.getMessage().contains(why));
      assertEquals("scalar", VectorKernelsProvider.select("", "").kernels().name());
    }
  }

  @Test
  void rejectsUnknownValues() {
    assertThrows(IllegalArgumentException.class, () -> VectorKernelsProvider.select("gpu", ""));
    assertThrows(IllegalArgumentException.class, () -> VectorKernelsProvider.usePolynomialCos("taylor", "amd64"));
  }

  @Test
  void cosVariantFollowsPlatformUnlessForced() {
    assertTrue(VectorKernelsProvider.usePolynomialCos("", "aarch64"));
    assertEquals(VectorKernelsProvider.X86_PREFERS_POLYNOMIAL, VectorKernelsProvider.usePolynomialCos("", "amd64"));
    assertFalse(VectorKernelsProvider.usePolynomialCos("intrinsic", "aarch64"));
    assertTrue(VectorKernelsProvider.usePolynomialCos("polynomial", "amd64"));
  }

  @Test
  void argumentErrorsAreTheSameForBothImplementations() {
    for (VectorKernels k : new VectorKernels[] {VectorKernelsProvider.scalar(), VectorKernelsProvider.get()}) {
      assertThrows(IndexOutOfBoundsException.class, () -> k.dot(new float[3], 0, new float[2], 0, 3));
      assertThrows(IndexOutOfBoundsException.class, () -> k.cos(new float[3], 2, new float[3], 0, 2));
      PackedMatrix b = k.pack(new float[6], 2, 3);
      assertThrows(IllegalArgumentException.class, () -> k.project(new float[6], 2, 3, b, new float[6], 1));
      assertThrows(IndexOutOfBoundsException.class, () -> k.project(new float[4], 2, 2, b, new float[5], 1));
    }
  }
}
