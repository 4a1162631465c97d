package io.hdfl.data;

import java.util.Arrays;

/** An {@code int[]} of labels that grows as samples actually arrive. */
final class LabelBuffer {
  private int[] data = new int[256];
  private int size;

  void add(int label) {
    if (size == data.length) {
      // A label always comes with at least one feature value, so FeatureBuffer's cap binds first.
      data = Arrays.copyOf(data, (int) Math.min((long) data.length * 2, Dataset.MAX_VALUES));
    }
    data[size++] = label;
  }

  int size() {
    return size;
  }

  /** The labels added so far; the buffer must not be used afterwards. */
  int[] toArray() {
    return data.length == size ? data : Arrays.copyOf(data, size);
  }
}
