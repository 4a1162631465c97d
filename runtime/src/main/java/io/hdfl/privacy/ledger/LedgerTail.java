package io.hdfl.privacy.ledger;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Where the last lines of a ledger file begin, found by one bulk pass over its bytes that checks
 * every line as {@link LedgerReader} does (printable ASCII, not empty, at most {@link
 * LedgerReader#MAX_LINE_BYTES}, ended by a newline, at most {@link LedgerReader#MAX_ENTRIES} lines)
 * without parsing any, and notes the first star aggregate: a restarted device parses only its last
 * lines ({@link PrivacyLedger.Builder#keepInMemory}), so that a long run's ledger opens in seconds.
 *
 * @param lines the lines in the file
 * @param skipped the lines before the last {@code window}
 * @param windowFrom the byte offset of the first of the last {@code window} lines (0 if none skipped)
 * @param before the byte offset of the line just before it, -1 if none skipped
 * @param firstAggregate the 0-based number of the first line of kind aggregate, -1 if none
 */
record LedgerTail(long lines, long skipped, long windowFrom, long before, long firstAggregate) {
  /** How an aggregate's line reads, as the canonical writer writes it (a string value cannot hold it unescaped). */
  private static final byte[] AGGREGATE = "\"kind\":\"aggregate\"".getBytes(StandardCharsets.US_ASCII);
  /** Knuth–Morris–Pratt: the longest proper prefix of AGGREGATE that ends its first i + 1 bytes. */
  private static final int[] FALLBACK = new int[AGGREGATE.length];

  static {
    for (int i = 1, k = 0; i < AGGREGATE.length; i++) {
      while (k > 0 && AGGREGATE[i] != AGGREGATE[k]) {
        k = FALLBACK[k - 1];
      }
      if (AGGREGATE[i] == AGGREGATE[k]) {
        k++;
      }
      FALLBACK[i] = k;
    }
  }

  /**
   * Scans {@code file} for its last {@code window} lines.
   *
   * @throws LedgerFormatException naming the first line that breaks a rule, as {@link LedgerReader}
   */
  static LedgerTail scan(Path file, int window) throws IOException {
    long[] starts = new long[window + 1]; // the start offsets of the last window + 1 lines, in a ring
    long lines = 0;
    long offset = 0;
    long lineStart = 0;
    int length = 0;
    int matched = 0; // of AGGREGATE, in the current line
    long firstAggregate = -1;
    ByteBuffer buf = ByteBuffer.allocate(1 << 20);
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      for (int read; (read = ch.read(buf.clear())) >= 0; ) {
        byte[] a = buf.array();
        for (int i = 0; i < read; i++, offset++) {
          int b = a[i];
          if (b == '\n') {
            if (length == 0) {
              throw LedgerReader.emptyLine(lines + 1);
            }
            starts[(int) (lines % starts.length)] = lineStart;
            lines++;
            lineStart = offset + 1;
            length = 0;
            matched = 0;
            continue;
          }
          LedgerFormatException bad = LedgerReader.byteProblem(b, length + 1, lines + 1, LedgerReader.MAX_ENTRIES);
          if (bad != null) {
            throw bad;
          }
          length++;
          if (firstAggregate < 0) {
            while (matched > 0 && b != AGGREGATE[matched]) {
              matched = FALLBACK[matched - 1];
            }
            if (b == AGGREGATE[matched]) {
              matched++;
            }
            if (matched == AGGREGATE.length) {
              firstAggregate = lines;
            }
          }
        }
      }
    }
    if (length > 0) {
      throw LedgerReader.unterminated(lines + 1);
    }
    if (lines <= window) {
      return new LedgerTail(lines, 0, 0, -1, firstAggregate);
    }
    long first = lines - window; // 0-based number of the first line of the window
    return new LedgerTail(lines, first, starts[(int) (first % starts.length)],
        starts[(int) ((first - 1) % starts.length)], firstAggregate);
  }
}
