package io.hdfl.privacy.ledger;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Where the last lines of a ledger file begin, found by one bulk pass over its bytes that checks
 * every line as {@link LedgerReader} does (printable ASCII, not empty, at most {@link
 * LedgerReader#MAX_LINE_BYTES}, ended by a newline, at most {@link LedgerReader#MAX_ENTRIES} lines)
 * without parsing any: a restarted device parses only the lines it keeps in memory ({@link
 * PrivacyLedger.Builder#keepInMemory}), so that a long run's ledger does not take minutes to open.
 *
 * @param lines the lines in the file
 * @param skipped the lines before the last {@code keep}
 * @param keptFrom the byte offset of the first of the last {@code keep} lines (0 if the file has no more)
 * @param before the byte offset of the line just before it, -1 if none
 */
record LedgerTail(long lines, long skipped, long keptFrom, long before) {

  /**
   * Scans {@code file} for its last {@code keep} lines.
   *
   * @throws LedgerFormatException naming the first line that breaks a rule, as {@link LedgerReader}
   */
  static LedgerTail scan(Path file, int keep) throws IOException {
    long[] starts = new long[keep + 1]; // the start offsets of the last keep + 1 lines, in a ring
    long lines = 0;
    long offset = 0;
    long lineStart = 0;
    int length = 0;
    ByteBuffer buf = ByteBuffer.allocate(1 << 20);
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      for (int read; (read = ch.read(buf.clear())) >= 0; ) {
        byte[] a = buf.array();
        for (int i = 0; i < read; i++, offset++) {
          int b = a[i];
          if (b == '\n') {
            if (length == 0) {
              throw new LedgerFormatException(lines + 1, "empty line");
            }
            starts[(int) (lines % starts.length)] = lineStart;
            lines++;
            lineStart = offset + 1;
            length = 0;
            continue;
          }
          if (length == 0 && lines == LedgerReader.MAX_ENTRIES) {
            throw new LedgerFormatException(lines + 1, "more than " + LedgerReader.MAX_ENTRIES + " entries");
          }
          if (b < 0x20 || b > 0x7e) {
            throw new LedgerFormatException(lines + 1, b == '\r'
                ? "carriage return in line (ledger lines end with \\n only)"
                : String.format("byte 0x%02x at column %d: ledger lines are printable ASCII", b & 0xFF, length + 1));
          }
          if (length == LedgerReader.MAX_LINE_BYTES) {
            throw new LedgerFormatException(lines + 1, "line longer than " + LedgerReader.MAX_LINE_BYTES + " bytes");
          }
          length++;
        }
      }
    }
    if (length > 0) {
      throw new LedgerFormatException(lines + 1,
          "last line has no newline: the ledger was cut short (torn write or truncated copy)");
    }
    if (lines <= keep) {
      return new LedgerTail(lines, 0, 0, -1);
    }
    long first = lines - keep; // 0-based index of the first kept line
    return new LedgerTail(lines, first, starts[(int) (first % starts.length)],
        starts[(int) ((first - 1) % starts.length)]);
  }
}
