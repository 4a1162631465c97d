package io.hdfl.bench;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.hdfl.kernels.PackedMatrix;
import io.hdfl.kernels.VectorKernels;
import io.hdfl.kernels.VectorKernelsProvider;
import org.junit.jupiter.api.Test;

/** The benchmarks' checks accept correct kernel output and reject plausible bugs. */
class ResultCheckTest {
  private final VectorKernels scalar = VectorKernelsProvider.scalar();

  @Test
  void projectionAcceptsKernelOutputAndRejectsADroppedTerm() {
    int n = 37;
    int f = 61;
    int d = 53;
    float[] x = SyntheticInputs.normalizedRows(n, f, 1);
    float[] basis = SyntheticInputs.gaussian(f * d, 1.0, 2);
    PackedMatrix packed = scalar.pack(basis, f, d);
    float[] out = new float[n * d];
    scalar.project(x, n, f, packed, out, 2);
    assertDoesNotThrow(() -> ResultCheck.projection("ok", x, n, f, basis, d, out));

    // The same GEMM without its last k term, as a k-blocking bug would produce.
    float[] shortX = x.clone();
    for (int i = 0; i < n; i++) {
      shortX[i * f + f - 1] = 0f;
    }
    float[] wrong = new float[n * d];
    scalar.project(shortX, n, f, packed, wrong, 2);
    assertThrows(IllegalStateException.class, () -> ResultCheck.projection("bug", x, n, f, basis, d, wrong));

    float[] unwritten = out.clone();
    unwritten[(n - 1) * d + d - 1] = Float.NaN;
    assertThrows(IllegalStateException.class, () -> ResultCheck.projection("nan", x, n, f, basis, d, unwritten));
  }

  @Test
  void cosRejectsErrorsAboveTheContract() {
    float[] src = SyntheticInputs.gaussian(1000, 3.0, 3);
    float[] dst = new float[src.length];
    scalar.cos(src, 0, dst, 0, src.length);
    assertDoesNotThrow(() -> ResultCheck.cos("ok", src, dst, src.length));
    dst[999] += 5e-6f;
    assertThrows(IllegalStateException.class, () -> ResultCheck.cos("bug", src, dst, src.length));
  }

  @Test
  void scoresRejectASwappedClass() {
    int nq = 5;
    int s = 3;
    int d = 100;
    float[] q = SyntheticInputs.hypervectors(nq, d, 4);
    float[] p = SyntheticInputs.gaussian(s * d, 30.0, 5);
    float[] scores = new float[nq * s];
    scalar.dotScores(q, nq, p, s, d, scores);
    assertDoesNotThrow(() -> ResultCheck.scores("ok", q, nq, p, s, d, scores));
    float t = scores[0];
    scores[0] = scores[1];
    scores[1] = t;
    assertThrows(IllegalStateException.class, () -> ResultCheck.scores("bug", q, nq, p, s, d, scores));
  }

  @Test
  void exactComparesBits() {
    assertDoesNotThrow(() -> ResultCheck.exact("ok", new float[] {1f, -0f}, new float[] {1f, -0f}));
    assertThrows(IllegalStateException.class,
        () -> ResultCheck.exact("bug", new float[] {1f}, new float[] {Math.nextUp(1f)}));
  }
}
