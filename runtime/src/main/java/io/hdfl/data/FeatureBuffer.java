package io.hdfl.data;

import java.util.Arrays;

/**
 * A {@code float[]} that grows as values actually arrive, so a loader never allocates for data a
 * header merely claims. Capped at {@link Dataset#MAX_VALUES}, and by the heap: data that do not fit
 * in what the JVM has left (a file far larger than it looks, such as a small gzip stream of gigabytes
 * of zeros) are a {@link DatasetFormatException} naming the file and the remedy, not an {@link
 * OutOfMemoryError} (a failed allocation of one array leaves the heap as it was).
 */
final class FeatureBuffer {
  /** How the buffer grows (a test makes it run out of memory). */
  @FunctionalInterface
  interface Growth {
    float[] copyOf(float[] values, int length);
  }

  private final String source;
  private final Growth growth;
  private float[] data = new float[1024];
  private int size;

  FeatureBuffer(String source) {
    this(source, Arrays::copyOf);
  }

  FeatureBuffer(String source, Growth growth) {
    this.source = source;
    this.growth = growth;
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
    return data.length == size ? data : copy(size);
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
    data = copy((int) grown);
  }

  private float[] copy(int length) {
    try {
      return growth.copyOf(data, length);
    } catch (OutOfMemoryError e) {
      data = null; // what was read so far goes too
      long mb = Runtime.getRuntime().maxMemory() >> 20;
      throw new DatasetFormatException(source, "too much data for this JVM's heap (" + mb + " MB): more than "
          + size + " feature values read, and " + length + " would not fit (give it more heap, e.g. "
          + "HDFL_JAVA_OPTS=-Xmx4g, or split the file)");
    }
  }
}
