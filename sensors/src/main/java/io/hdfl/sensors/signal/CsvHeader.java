package io.hdfl.sensors.signal;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The meaning of a CSV signal file's header row: which column holds the timestamp (and in which unit),
 * which the label, and the channels ({@code name} or {@code name[unit]}) in column order.
 *
 * @param columns number of columns
 * @param timeColumn index of the timestamp column
 * @param nanosPerTimeUnit 1e9 for seconds, 1e6 ms, 1e3 µs, 1 ns
 * @param labelColumn index of the label column, or −1
 * @param channelColumns column index of each channel
 * @param channels the channels
 */
record CsvHeader(int columns, int timeColumn, long nanosPerTimeUnit, int labelColumn, int[] channelColumns,
    List<Channel> channels) {

  /** Timestamp column names recognised when none is configured (case-insensitive). */
  static final List<String> TIME_NAMES = List.of("timestamp", "time");
  /** Label column name recognised when none is configured (case-insensitive). */
  static final String LABEL_NAME = "label";

  /**
   * Interprets the header fields.
   *
   * @param timeName the timestamp column's name, or null to look for {@link #TIME_NAMES}
   * @param labelName the label column's name, or null for {@code label} if present
   * @throws IllegalArgumentException naming the problem
   */
  static CsvHeader parse(List<String> fields, String timeName, String labelName) {
    String[] names = new String[fields.size()];
    String[] units = new String[fields.size()];
    for (int i = 0; i < fields.size(); i++) {
      String f = fields.get(i);
      int open = f.indexOf('[');
      if (open >= 0) {
        if (!f.endsWith("]") || f.indexOf('[', open + 1) >= 0 || f.indexOf(']') != f.length() - 1) {
          throw new IllegalArgumentException("column " + (i + 1) + " header '" + f + "' is not name or name[unit]");
        }
        names[i] = f.substring(0, open).strip();
        units[i] = f.substring(open + 1, f.length() - 1).strip();
      } else {
        names[i] = f;
        units[i] = "";
      }
      if (names[i].isEmpty()) {
        throw new IllegalArgumentException("column " + (i + 1) + " has an empty name");
      }
    }
    int time = find(names, timeName, TIME_NAMES);
    if (time < 0) {
      throw new IllegalArgumentException(timeName != null ? "no timestamp column named '" + timeName + "'"
          : "no timestamp column: name one 'timestamp' or 'time', optionally with a unit (time[ms]; default s)");
    }
    long nanos = nanosPerUnit(units[time], names[time]);
    int label = find(names, labelName, List.of(LABEL_NAME));
    if (labelName != null && label < 0) {
      throw new IllegalArgumentException("no label column named '" + labelName + "'");
    }
    if (label == time) {
      throw new IllegalArgumentException("the label and timestamp columns are the same column");
    }
    List<Channel> channels = new ArrayList<>();
    int[] cols = new int[fields.size()];
    for (int i = 0; i < fields.size(); i++) {
      if (i != time && i != label) {
        try {
          channels.add(new Channel(names[i], units[i]));
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException("column " + (i + 1) + ": " + e.getMessage(), e);
        }
        cols[channels.size() - 1] = i;
      }
    }
    if (channels.isEmpty()) {
      throw new IllegalArgumentException("no channel columns besides the timestamp"
          + (label >= 0 ? " and label" : ""));
    }
    List<Channel> checked = Channel.checkList(channels);
    int[] channelColumns = new int[checked.size()];
    System.arraycopy(cols, 0, channelColumns, 0, channelColumns.length);
    return new CsvHeader(fields.size(), time, nanos, label, channelColumns, checked);
  }

  private static int find(String[] names, String configured, List<String> defaults) {
    if (configured != null) {
      for (int i = 0; i < names.length; i++) {
        if (names[i].equalsIgnoreCase(configured)) {
          return i;
        }
      }
      return -1;
    }
    for (String d : defaults) {
      for (int i = 0; i < names.length; i++) {
        if (names[i].equalsIgnoreCase(d)) {
          return i;
        }
      }
    }
    return -1;
  }

  private static long nanosPerUnit(String unit, String name) {
    switch (unit.toLowerCase(Locale.ROOT)) {
      case "", "s":
        return 1_000_000_000L;
      case "ms":
        return 1_000_000L;
      case "us", "µs", "μs":
        return 1_000L;
      case "ns":
        return 1L;
      default:
        throw new IllegalArgumentException("timestamp column '" + name + "[" + unit + "]': unit must be s, ms, us or ns");
    }
  }
}
