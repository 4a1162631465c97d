package io.hdfl.kernels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The vectorized polynomial cos meets its 1e-6 absolute error bound over the ranges that occur. */
class PolynomialCosTest {

  @Test
  void maxAbsoluteErrorBelowOneMillionthOnDenseGrid() {
    VectorKernels poly = polynomial();
    int n = 2_000_001;
    float[] x = new float[n];
    for (int i = 0; i < n; i++) {
      x[i] = (float) (-100.0 + 200.0 * i / (n - 1)); // projections with bias stay well inside this
    }
    assertMaxError(poly, x, 1e-6);
  }

  @Test
  void accurateUpToTheReductionLimitAndBeyondViaFallback() {
    VectorKernels poly = polynomial();
    float[] x = KernelPairs.gaussian(100_000, 3, 3000.0);
    x[0] = PanamaVectorKernels.POLY_COS_LIMIT;
    x[1] = -PanamaVectorKernels.POLY_COS_LIMIT;
    x[2] = 1e7f;
    x[3] = -3.4e38f;
    assertMaxError(poly, x, 1e-6);
  }

  @Test
  void specialValues() {
    VectorKernels poly = polynomial();
    int len = 64;
    float[] x = new float[len];
    x[0] = Float.NaN;
    x[1] = Float.POSITIVE_INFINITY;
    x[2] = Float.NEGATIVE_INFINITY;
    x[3] = -0f;
    x[4] = (float) Math.PI;
    x[5] = (float) (Math.PI / 2);
    float[] y = new float[len];
    poly.cos(x, 0, y, 0, len);
    assertTrue(Float.isNaN(y[0]));
    assertTrue(Float.isNaN(y[1]));
    assertTrue(Float.isNaN(y[2]));
    assertEquals(1f, y[3], 1e-7);
    assertEquals(-1f, y[4], 1e-7);
    assertEquals(Math.cos((float) (Math.PI / 2)), y[5], 1e-7);
  }

  private static VectorKernels polynomial() {
    return KernelPairs.panamaVariants().stream()
        .filter(k -> ((PanamaVectorKernels) k).polynomialCos())
        .findFirst()
        .orElseThrow();
  }

  private static void assertMaxError(VectorKernels k, float[] x, double bound) {
    float[] y = new float[x.length];
    k.cos(x, 0, y, 0, x.length);
    double worst = 0;
    int at = -1;
    for (int i = 0; i < x.length; i++) {
      double err = Math.abs(y[i] - Math.cos(x[i]));
      if (err > worst) {
        worst = err;
        at = i;
      }
    }
    double w = worst;
    int a = at;
    assertTrue(worst <= bound, () -> "max abs error " + w + " at x=" + x[a]);
  }
}
