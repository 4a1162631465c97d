package io.hdfl.sensors.signal;

import java.io.IOException;
import java.io.Reader;

/**
 * Splits text into lines ({@code \n}, {@code \r\n} or {@code \r}) with a cap on line length, so one
 * endless "line" in a hostile file fails with a clear message instead of exhausting memory.
 */
final class BoundedLineReader {

  private final Reader in;
  private final String file;
  private final int maxChars;
  private final char[] buf = new char[1 << 14];
  private int pos;
  private int limit;
  private boolean skipLf;
  private long lineNumber;

  BoundedLineReader(Reader in, String file, int maxChars) {
    this.in = in;
    this.file = file;
    this.maxChars = maxChars;
  }

  /** The 1-based number of the line last returned by {@link #next()}. */
  long lineNumber() {
    return lineNumber;
  }

  /** The next line without its terminator, or null at the end of the input. */
  String next() throws IOException {
    StringBuilder line = null;
    while (true) {
      if (pos == limit) {
        limit = Math.max(0, in.read(buf, 0, buf.length));
        pos = 0;
        if (limit == 0) {
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
      if (line == null) {
        line = new StringBuilder();
      }
      int start = pos;
      while (pos < limit && buf[pos] != '\n' && buf[pos] != '\r') {
        pos++;
      }
      if (line.length() + (pos - start) > maxChars) {
        throw new SignalFormatException(file + ": line " + (lineNumber + 1) + " is longer than " + maxChars
            + " characters");
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
