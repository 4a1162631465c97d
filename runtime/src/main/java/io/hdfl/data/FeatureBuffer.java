package io.hdfl.data;

import java.util.Arrays;

/**
 * A {@code float[]} that grows as values actually arrive, so a loader never allocates for data a
 * header merely claims. Capped at {@link Dataset#MAX_VALUES}.
 */
final class FeatureBuffer {
  private final String source;
  private float[] data = new float[1024];
  private int size;

  FeatureBuffer(String source) {
    this.source = source;
  }

  void append(float[] src, int off, int len) {
    ensure(len);
    System.arraycopy(src, off, data, size, len);
    size += len;
  }

  int size() {
    return size;
  }

  /** The values added so far; the buffer must not be used afterwards. */
  float[] toArray() {
    return data.length == size ? data : Arrays.copyOf(data, size);
  }

  private void ensure(int more) {
    long needed = (long) size + more;
    if (needed <= data.length) {
      return;
    }
    if (needed > Dataset.MAX_VALUES) {
      throw new DatasetFormatException(
          source,
          "too much data: more than "
              + Dataset.MAX_VALUES
              + " feature values in total (split the file)");
    }
    long grown = Math.max(needed, Math.min((long) data.length * 2, Dataset.MAX_VALUES));
    data = Arrays.copyOf(data, (int) grown);
  }
}
