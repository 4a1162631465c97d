package io.hdfl.sensors.signal;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits one CSV line into fields: separated by a delimiter, optionally enclosed in double quotes
 * (a quote inside a quoted field is doubled, RFC 4180); fields are trimmed. Quoted fields cannot span
 * lines.
 */
final class CsvFields {

  private CsvFields() {}

  /**
   * The fields of {@code line}, at most {@code maxFields + 1} (splitting stops there, so a hostile line
   * cannot allocate more than the caller expects).
   *
   * @throws IllegalArgumentException for an unterminated quote or text after a closing quote
   */
  static List<String> split(String line, char delimiter, int maxFields) {
    List<String> fields = new ArrayList<>(Math.min(maxFields + 1, 128));
    int i = 0;
    int n = line.length();
    while (true) {
      while (i < n && line.charAt(i) == ' ') {
        i++;
      }
      String field;
      if (i < n && line.charAt(i) == '"') {
        StringBuilder sb = new StringBuilder();
        int open = i++;
        while (true) {
          if (i >= n) {
            throw new IllegalArgumentException("unterminated quote starting at column " + (open + 1));
          }
          char c = line.charAt(i++);
          if (c == '"') {
            if (i < n && line.charAt(i) == '"') {
              sb.append('"');
              i++;
            } else {
              break;
            }
          } else {
            sb.append(c);
          }
        }
        while (i < n && line.charAt(i) == ' ') {
          i++;
        }
        if (i < n && line.charAt(i) != delimiter) {
          throw new IllegalArgumentException("text after the closing quote at column " + (i + 1));
        }
        field = sb.toString();
      } else {
        int start = i;
        while (i < n && line.charAt(i) != delimiter) {
          i++;
        }
        field = line.substring(start, i).strip();
      }
      fields.add(field);
      if (i >= n || fields.size() > maxFields) {
        return fields;
      }
      i++;
    }
  }
}
