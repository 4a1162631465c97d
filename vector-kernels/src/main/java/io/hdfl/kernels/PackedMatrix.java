package io.hdfl.kernels;

import java.util.Objects;

/**
 * A {@code rows × cols} matrix stored as column panels of {@code panelWidth} columns: panel p holds
 * columns {@code [p*w, p*w + w)} for every row, row after row, zero-padded past {@code cols}. With
 * {@code panelWidth == cols} this is plain row-major storage. Immutable once built.
 */
public final class PackedMatrix {
  private final int rows;
  private final int cols;
  private final int panelWidth;
  private final float[] data;

  private PackedMatrix(int rows, int cols, int panelWidth, float[] data) {
    this.rows = rows;
    this.cols = cols;
    this.panelWidth = panelWidth;
    this.data = data;
  }

  /** Writes row {@code row} of a matrix into {@code dst[0 .. cols)}. */
  @FunctionalInterface
  public interface RowSource {
    void row(int row, float[] dst);
  }

  /**
   * Builds a matrix row by row straight into panels of {@code panelWidth} columns, with up to {@code
   * threads} threads (each with one row of scratch), so a large matrix is never held twice — the peak
   * is the packed matrix plus a row per thread, not a row-major copy as well.
   */
  public static PackedMatrix build(int rows, int cols, int panelWidth, int threads, RowSource source) {
    Objects.requireNonNull(source, "source");
    float[] data = allocate(rows, cols, panelWidth);
    int panels = (cols + panelWidth - 1) / panelWidth;
    ParallelRows.run(rows, threads, 1, 8, (lo, hi) -> {
      float[] row = new float[cols];
      for (int r = lo; r < hi; r++) {
        source.row(r, row);
        for (int p = 0; p < panels; p++) {
          int c0 = p * panelWidth;
          System.arraycopy(row, c0, data, p * panelWidth * rows + r * panelWidth, Math.min(panelWidth, cols - c0));
        }
      }
    });
    return new PackedMatrix(rows, cols, panelWidth, data);
  }

  private static float[] allocate(int rows, int cols, int panelWidth) {
    if (rows < 1 || cols < 1 || panelWidth < 1) {
      throw new IllegalArgumentException(
          "rows, cols and panelWidth must be >= 1: " + rows + ", " + cols + ", " + panelWidth);
    }
    int panels = (cols + panelWidth - 1) / panelWidth;
    long size = (long) panels * panelWidth * rows;
    if (size > Integer.MAX_VALUE - 16) {
      throw new IllegalArgumentException("packed matrix too large: " + size + " floats");
    }
    return new float[(int) size];
  }

  /** Packs a row-major matrix into panels of {@code panelWidth} columns. */
  public static PackedMatrix pack(float[] rowMajor, int rows, int cols, int panelWidth) {
    Objects.requireNonNull(rowMajor, "rowMajor");
    float[] data = allocate(rows, cols, panelWidth);
    if ((long) rows * cols > rowMajor.length) {
      throw new IllegalArgumentException(
          "matrix " + rows + "x" + cols + " needs " + (long) rows * cols + " floats, got " + rowMajor.length);
    }
    int panels = (cols + panelWidth - 1) / panelWidth;
    for (int p = 0; p < panels; p++) {
      int c0 = p * panelWidth;
      int w = Math.min(panelWidth, cols - c0);
      int base = p * panelWidth * rows;
      for (int r = 0; r < rows; r++) {
        System.arraycopy(rowMajor, r * cols + c0, data, base + r * panelWidth, w);
      }
    }
    return new PackedMatrix(rows, cols, panelWidth, data);
  }

  public int rows() {
    return rows;
  }

  public int cols() {
    return cols;
  }

  public int panelWidth() {
    return panelWidth;
  }

  public int panels() {
    return (cols + panelWidth - 1) / panelWidth;
  }

  /** Index in {@link #data()} of element (row, col). */
  public int index(int row, int col) {
    int p = col / panelWidth;
    return p * panelWidth * rows + row * panelWidth + (col - p * panelWidth);
  }

  public float get(int row, int col) {
    Objects.checkIndex(row, rows);
    Objects.checkIndex(col, cols);
    return data[index(row, col)];
  }

  /** The packed storage. Callers must not modify it. */
  float[] data() {
    return data;
  }

  /** A fresh row-major copy. */
  public float[] toRowMajor() {
    float[] out = new float[rows * cols];
    for (int p = 0, panels = panels(); p < panels; p++) {
      int c0 = p * panelWidth;
      int w = Math.min(panelWidth, cols - c0);
      int base = p * panelWidth * rows;
      for (int r = 0; r < rows; r++) {
        System.arraycopy(data, base + r * panelWidth, out, r * cols + c0, w);
      }
    }
    return out;
  }
}
