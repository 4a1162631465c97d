package io.hdfl.sensors.signal.mqtt;

import io.hdfl.sensors.signal.Sample;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads class labels from untrusted values: an integer ≥ 0 is the class index; -1, null or empty text
 * is "no label" ({@link Sample#NO_LABEL}); text is also looked up in the configured class names (index
 * in the list). Anything else is {@link #INVALID}.
 */
final class ClassLabels {

  /** Not a label. */
  static final int INVALID = Integer.MIN_VALUE;
  /** Longest label text considered, in characters. */
  static final int MAX_TEXT = 255;

  private final List<String> names;
  private final Map<String, Integer> index = new HashMap<>();

  ClassLabels(List<String> names) {
    this.names = List.copyOf(names);
    for (int i = 0; i < this.names.size(); i++) {
      String n = this.names.get(i);
      if (n.isBlank() || !n.equals(n.strip())) {
        throw new IllegalArgumentException("class name " + ThrottledLog.printable(n, 40)
            + " is blank or has leading or trailing spaces");
      }
      if (index.put(n, i) != null) {
        throw new IllegalArgumentException("class name '" + n + "' appears twice");
      }
    }
  }

  List<String> names() {
    return names;
  }

  /** The label that {@code text} names, or {@link #INVALID}. */
  int fromText(String text) {
    if (text == null) {
      return Sample.NO_LABEL;
    }
    if (text.length() > MAX_TEXT) {
      return INVALID;
    }
    String t = text.strip();
    if (t.isEmpty()) {
      return Sample.NO_LABEL;
    }
    Integer named = index.get(t);
    if (named != null) {
      return named;
    }
    if (t.length() <= 10 && t.matches("-?[0-9]+")) {
      long v = Long.parseLong(t);
      return fromNumber(v);
    }
    return INVALID;
  }

  /** The label for a numeric value: an integral value in 0..2³¹−1, or -1 for none; else {@link #INVALID}. */
  int fromNumber(double v) {
    if (v == -1) {
      return Sample.NO_LABEL;
    }
    if (v >= 0 && v <= Integer.MAX_VALUE && v == Math.rint(v)) {
      return (int) v;
    }
    return INVALID;
  }
}
