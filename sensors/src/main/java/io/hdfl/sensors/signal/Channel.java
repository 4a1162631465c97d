package io.hdfl.sensors.signal;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * One channel of a {@link SignalSource}: a signal's name and its physical unit.
 *
 * <p>Names are 1–{@value #MAX_NAME_BYTES} bytes of UTF-8 without control characters and without
 * {@code [} or {@code ]} (which delimit the unit in CSV headers, {@code name[unit]}); units are
 * 0–{@value #MAX_UNIT_BYTES} bytes with the same character rules (empty means dimensionless or
 * unknown). Leading and trailing spaces are not allowed, so names read back from a file compare
 * equal to the ones written.
 *
 * @param name the signal's name, unique within a source, e.g. {@code spindle.torque}
 * @param unit its unit, e.g. {@code Nm}, or empty
 */
public record Channel(String name, String unit) {

  /** Longest channel name, in UTF-8 bytes (one length byte in the recorded format). */
  public static final int MAX_NAME_BYTES = 255;
  /** Longest unit, in UTF-8 bytes. */
  public static final int MAX_UNIT_BYTES = 255;
  /** Most channels a source, recording or CSV file may have; bounds what untrusted input allocates. */
  public static final int MAX_CHANNELS = 4096;

  public Channel {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(unit, "unit");
    check("channel name", name, MAX_NAME_BYTES);
    if (name.isEmpty()) {
      throw new IllegalArgumentException("channel name is empty");
    }
    check("unit of channel '" + name + "'", unit, MAX_UNIT_BYTES);
  }

  /** A channel without a unit. */
  public static Channel of(String name) {
    return new Channel(name, "");
  }

  /**
   * Checks a source's channel list: 1 to {@value #MAX_CHANNELS} channels with distinct names.
   *
   * @return an unmodifiable copy
   * @throws IllegalArgumentException naming the problem
   */
  public static List<Channel> checkList(List<Channel> channels) {
    List<Channel> copy = List.copyOf(channels);
    if (copy.isEmpty() || copy.size() > MAX_CHANNELS) {
      throw new IllegalArgumentException("a signal has 1.." + MAX_CHANNELS + " channels, got " + copy.size());
    }
    Set<String> names = new HashSet<>();
    for (Channel c : copy) {
      if (!names.add(c.name())) {
        throw new IllegalArgumentException("channel name '" + c.name() + "' appears twice");
      }
    }
    return copy;
  }

  /**
   * The inverse of {@link #label()}: {@code name[unit]} or {@code name} (no unit); spaces around the
   * name and the unit are removed, e.g. {@code "spindle_current [A]"} gives {@code spindle_current}
   * in {@code A}.
   *
   * @throws IllegalArgumentException naming the problem (unbalanced brackets, text after {@code ]},
   *     an empty name, or a name or unit that {@link Channel} rejects)
   */
  public static Channel parseLabel(String label) {
    Objects.requireNonNull(label, "label");
    String s = label.strip();
    int open = s.indexOf('[');
    if (open < 0) {
      if (s.indexOf(']') >= 0) {
        throw new IllegalArgumentException("channel '" + label + "' has ']' without '['");
      }
      return of(s);
    }
    if (!s.endsWith("]") || s.indexOf('[', open + 1) >= 0 || s.indexOf(']') != s.length() - 1) {
      throw new IllegalArgumentException("channel '" + label + "' is not name or name[unit]");
    }
    return new Channel(s.substring(0, open).strip(), s.substring(open + 1, s.length() - 1).strip());
  }

  /** {@code name[unit]}, or the name alone when there is no unit (the CSV header form). */
  public String label() {
    return unit.isEmpty() ? name : name + "[" + unit + "]";
  }

  @Override
  public String toString() {
    return label();
  }

  private static void check(String what, String s, int maxBytes) {
    int bytes = s.getBytes(StandardCharsets.UTF_8).length;
    if (bytes > maxBytes) {
      throw new IllegalArgumentException(what + " is " + bytes + " bytes of UTF-8, more than " + maxBytes + ": '"
          + s.substring(0, Math.min(s.length(), 40)) + "...'");
    }
    if (!s.equals(s.strip())) {
      throw new IllegalArgumentException(what + " '" + s + "' has leading or trailing spaces");
    }
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (Character.isISOControl(c) || c == '[' || c == ']') {
        throw new IllegalArgumentException(what + " '" + s.replaceAll("\\p{Cntrl}", "?") + "' contains "
            + (c == '[' || c == ']' ? "'" + c + "'" : "a control character") + " at index " + i);
      }
    }
  }
}
