package io.hdfl.data;

import java.io.IOException;
import java.io.Reader;

/**
 * Splits text into lines ({@code \n}, {@code \r\n} or {@code \r}) with a cap on line length, so
 * one endless "line" in a hostile file fails with a clear message instead of exhausting memory.
 */
final class CsvLineReader {
  /** Longest accepted line by default, in chars. */
  static final int MAX_LINE = 1 << 26;

  private final Reader in;
  private final String source;
  private final int maxLine;
  private final char[] buf = new char[1 << 16];
  private int pos;
  private int limit;
  private boolean skipLf;
  private int lineNumber;

  CsvLineReader(Reader in, String source) {
    this(in, source, MAX_LINE);
  }

  CsvLineReader(Reader in, String source, int maxLine) {
    this.in = in;
    this.source = source;
    this.maxLine = maxLine;
  }

  /** The 1-based number of the line last returned by {@link #next()}. */
  int lineNumber() {
    return lineNumber;
  }

  /** The next line without its terminator, or null at end of input. */
  String next() throws IOException {
    StringBuilder line = null;
    while (true) {
      if (pos == limit) {
        limit = in.read(buf, 0, buf.length);
        pos = 0;
        if (limit <= 0) {
          limit = 0;
          if (line == null) {
            return null;
          }
          lineNumber++;
          return line.toString();
        }
      }
      if (skipLf) {
        skipLf = false;
        if (buf[pos] == '\n') {
          pos++;
          continue;
        }
      }
      int start = pos;
      while (pos < limit && buf[pos] != '\n' && buf[pos] != '\r') {
        pos++;
      }
      if (line == null) {
        line = new StringBuilder(Math.max(16, pos - start));
      }
      if ((long) line.length() + (pos - start) > maxLine) {
        throw new DatasetFormatException(
            source, "line " + (lineNumber + 1) + " is longer than " + maxLine + " characters");
      }
      line.append(buf, start, pos - start);
      if (pos < limit) {
        skipLf = buf[pos] == '\r';
        pos++;
        lineNumber++;
        return line.toString();
      }
    }
  }
}
