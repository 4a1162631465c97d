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

  /** Packs a row-major matrix into panels of {@code panelWidth} columns. */
  public static PackedMatrix pack(float[] rowMajor, int rows, int cols, int panelWidth) {
    Objects.requireNonNull(rowMajor, "rowMajor");
    if (rows < 1 || cols < 1 || panelWidth < 1) {
      throw new IllegalArgumentException(
          "rows, cols and panelWidth must be >= 1: " + rows + ", " + cols + ", " + panelWidth);
    }
    if ((long) rows * cols > rowMajor.length) {
      throw new IllegalArgumentException(
          "matrix " + rows + "x" + cols + " needs " + (long) rows * cols + " floats, got " + rowMajor.length);
    }
    int panels = (cols + panelWidth - 1) / panelWidth;
    long size = (long) panels * panelWidth * rows;
    if (size > Integer.MAX_VALUE - 16) {
      throw new IllegalArgumentException("packed matrix too large: " + size + " floats");
    }
    float[] data = new float[(int) size];
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
