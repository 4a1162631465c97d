package io.hdfl.kernels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The guard itself, on whatever machine runs the tests: fixed (name, bits) pairs, not the chosen kernels. */
class KernelExpectationTest {

  @Test
  void blankExpectsAnything() {
    KernelExpectation any = KernelExpectation.parse(" ", "");
    assertTrue(any.isAny());
    assertEquals(Optional.empty(), any.mismatch("scalar", 32));
    assertEquals(Optional.empty(), any.mismatch("panama", 512));
    assertEquals(KernelExpectation.parse(null, null), any);
  }

  @Test
  void providerAloneAcceptsAnyWidth() {
    KernelExpectation panama = KernelExpectation.parse("Panama", "");
    assertEquals(Optional.empty(), panama.mismatch("panama", 128));
    assertEquals(Optional.empty(), panama.mismatch("panama", 512));
    assertEquals("expected panama kernels, the provider chose scalar with 32-bit vectors",
        panama.mismatch("scalar", 32).orElseThrow());
  }

  @Test
  void widthCatchesTheWrongVectorSize() {
    // The aarch64 check: a Raspberry Pi 4 class CPU (NEON) must get 128-bit Panama kernels, not an
    // SVE width of an emulator's "max" CPU and not the scalar fallback.
    KernelExpectation neon = KernelExpectation.parse("panama", " 128 ");
    assertEquals(new KernelExpectation("panama", 128), neon);
    assertEquals(Optional.empty(), neon.mismatch("panama", 128));
    assertEquals("expected panama 128-bit kernels, the provider chose panama with 512-bit vectors",
        neon.mismatch("panama", 512).orElseThrow());
    assertTrue(neon.mismatch("scalar", 32).isPresent());
    assertTrue(neon.mismatch("panama", 256).isPresent());

    KernelExpectation widthOnly = KernelExpectation.parse("", "256");
    assertFalse(widthOnly.isAny());
    assertEquals(Optional.empty(), widthOnly.mismatch("panama", 256));
    assertTrue(widthOnly.mismatch("panama", 128).orElseThrow().contains("expected any 256-bit kernels"));
  }

  @Test
  void badSettingsAreClearErrors() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> KernelExpectation.parse("gpu", ""));
    assertEquals("hdfl.kernels.expect must be scalar or panama, not 'gpu'", e.getMessage());
    for (String bits : new String[] {"128bit", "0", "-128", "100", "16", "4096", "99999999999"}) {
      e = assertThrows(IllegalArgumentException.class, () -> KernelExpectation.parse("panama", bits), bits);
      assertTrue(e.getMessage().startsWith("hdfl.kernels.expectBits must be a vector width in bits"), e.getMessage());
    }
  }

  @Test
  void checksRealKernelsByNameAndWidth() {
    assertEquals(Optional.empty(), KernelExpectation.parse("scalar", "32").mismatch(VectorKernelsProvider.scalar()));
    VectorKernelsProvider.panama().ifPresent(p -> {
      assertEquals(Optional.empty(), KernelExpectation.parse("panama", "" + p.vectorBits()).mismatch(p));
      assertTrue(KernelExpectation.parse("panama", p.vectorBits() == 128 ? "256" : "128").mismatch(p).isPresent());
    });
  }
}
