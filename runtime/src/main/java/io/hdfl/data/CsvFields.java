package io.hdfl.data;

import java.util.ArrayList;
import java.util.List;

/** Splits one CSV line into its fields at a delimiter (a comma, a semicolon, a tab), with minimal double-quote support. */
final class CsvFields {
  private CsvFields() {}

  /**
   * Splits one line into fields. Unquoted fields are trimmed; a field may be enclosed in double
   * quotes (kept verbatim, {@code ""} standing for one quote), but must then end on the same line.
   *
   * @throws DatasetFormatException naming the line if quotes are unbalanced or misplaced
   */
  static List<String> split(String line, char delimiter, int lineNo, String source) {
    List<String> out = new ArrayList<>();
    int n = line.length();
    int i = 0;
    while (true) {
      while (i < n && blank(line.charAt(i), delimiter)) {
        i++;
      }
      if (i < n && line.charAt(i) == '"') {
        StringBuilder sb = new StringBuilder();
        i++;
        while (true) {
          if (i >= n) {
            throw new DatasetFormatException(
                source,
                "line "
                    + lineNo
                    + " has an unterminated quoted field (quoted fields may not span lines)");
          }
          char ch = line.charAt(i);
          if (ch == '"') {
            if (i + 1 < n && line.charAt(i + 1) == '"') {
              sb.append('"');
              i += 2;
              continue;
            }
            i++;
            break;
          }
          sb.append(ch);
          i++;
        }
        while (i < n && blank(line.charAt(i), delimiter)) {
          i++;
        }
        if (i < n && line.charAt(i) != delimiter) {
          throw new DatasetFormatException(
              source,
              "line " + lineNo + " has text after a closing quote (column " + out.size() + ")");
        }
        out.add(sb.toString());
      } else {
        int start = i;
        while (i < n && line.charAt(i) != delimiter) {
          if (line.charAt(i) == '"') {
            throw new DatasetFormatException(
                source,
                "line "
                    + lineNo
                    + " has a quote inside an unquoted field (column "
                    + out.size()
                    + ")");
          }
          i++;
        }
        out.add(line.substring(start, i).strip());
      }
      if (i >= n) {
        return out;
      }
      i++; // the delimiter
    }
  }

  /** Whether {@code ch} is white space around a field (a tab is not where it delimits). */
  private static boolean blank(char ch, char delimiter) {
    return ch == ' ' || (ch == '\t' && delimiter != '\t');
  }
}
