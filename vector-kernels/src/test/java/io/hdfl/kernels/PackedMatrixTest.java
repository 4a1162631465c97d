package io.hdfl.kernels;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class PackedMatrixTest {
  @Test
  void roundTripsForAnyPanelWidth() {
    int rows = 7, cols = 37;
    float[] a = KernelPairs.gaussian(rows * cols, 11, 1.0);
    for (int w : new int[] {1, 5, 16, 37, 48, 100}) {
      PackedMatrix p = PackedMatrix.pack(a, rows, cols, w);
      assertArrayEquals(a, p.toRowMajor(), "w=" + w);
      assertEquals(a[3 * cols + 36], p.get(3, 36));
      assertEquals((cols + w - 1) / w, p.panels());
    }
  }

  @Test
  void buildingRowByRowEqualsPackingTheWholeMatrix() {
    int rows = 21, cols = 37;
    float[] a = KernelPairs.gaussian(rows * cols, 12, 1.0);
    for (int w : new int[] {1, 16, 37, 48}) {
      for (int threads : new int[] {1, 2, 3}) {
        PackedMatrix built = PackedMatrix.build(rows, cols, w, threads,
            (r, dst) -> System.arraycopy(a, r * cols, dst, 0, cols));
        assertArrayEquals(PackedMatrix.pack(a, rows, cols, w).data(), built.data(), "w=" + w + " threads=" + threads);
      }
    }
    assertThrows(IllegalArgumentException.class, () -> PackedMatrix.build(0, 2, 2, 1, (r, dst) -> { }));
  }

  @Test
  void rejectsBadShapes() {
    assertThrows(IllegalArgumentException.class, () -> PackedMatrix.pack(new float[3], 2, 2, 2));
    assertThrows(IllegalArgumentException.class, () -> PackedMatrix.pack(new float[4], 0, 2, 2));
    assertThrows(IndexOutOfBoundsException.class, () -> PackedMatrix.pack(new float[4], 2, 2, 2).get(2, 0));
  }
}
