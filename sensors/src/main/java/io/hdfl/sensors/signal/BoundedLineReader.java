package io.hdfl.sensors.signal;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Splits UTF-8 bytes into lines ({@code \n}, {@code \r\n} or {@code \r}; these bytes never occur inside
 * a multi-byte UTF-8 sequence) and decodes each line strictly, with a cap on line length: one endless
 * "line" in a hostile file fails with a clear message instead of exhausting memory, and a bad byte is
 * reported with its line number.
 */
final class BoundedLineReader {

  private final InputStream in;
  private final String file;
  private final int maxBytes;
  private final CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder()
      .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
  private final byte[] buf = new byte[1 << 14];
  private byte[] line = new byte[256];
  private int pos;
  private int limit;
  private boolean skipLf;
  private long lineNumber;

  BoundedLineReader(InputStream in, String file, int maxBytes) {
    this.in = in;
    this.file = file;
    this.maxBytes = maxBytes;
  }

  /** The 1-based number of the line last returned by {@link #next()}. */
  long lineNumber() {
    return lineNumber;
  }

  /**
   * The next line without its terminator, or null at the end of the input.
   *
   * @throws SignalFormatException if the line is too long or not valid UTF-8
   */
  String next() throws IOException {
    int length = 0;
    boolean any = false;
    while (true) {
      if (pos == limit) {
        limit = Math.max(0, in.read(buf, 0, buf.length));
        pos = 0;
        if (limit == 0) {
          return any ? decode(length) : null;
        }
      }
      if (skipLf) {
        skipLf = false;
        if (buf[pos] == '\n') {
          pos++;
          continue;
        }
      }
      any = true;
      int start = pos;
      while (pos < limit && buf[pos] != '\n' && buf[pos] != '\r') {
        pos++;
      }
      int n = pos - start;
      if (length + n > maxBytes) {
        throw new SignalFormatException(file + ": line " + (lineNumber + 1) + " is longer than " + maxBytes
            + " bytes");
      }
      if (length + n > line.length) {
        line = Arrays.copyOf(line, Math.min(maxBytes, Math.max(2 * line.length, length + n)));
      }
      System.arraycopy(buf, start, line, length, n);
      length += n;
      if (pos < limit) {
        skipLf = buf[pos] == '\r';
        pos++;
        return decode(length);
      }
    }
  }

  private String decode(int length) throws SignalFormatException {
    lineNumber++;
    try {
      return utf8.decode(ByteBuffer.wrap(line, 0, length)).toString();
    } catch (CharacterCodingException e) {
      throw new SignalFormatException(file + ": line " + lineNumber + " is not valid UTF-8");
    }
  }
}
