package io.hdfl.privacy.ledger;

import java.io.BufferedInputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads a ledger file line by line in bounded memory: a line is at most {@link #MAX_LINE_BYTES}
 * bytes, a file at most {@link #MAX_ENTRIES} lines, every line printable ASCII and terminated by
 * {@code \n}. Problems are {@link LedgerFormatException}s naming the line; I/O failures stay
 * {@link IOException}s. Does not parse: see {@link LedgerCodec}.
 */
public final class LedgerReader implements Closeable {
  /** Longest line accepted, in bytes. */
  public static final int MAX_LINE_BYTES = 64 * 1024;
  /** Most entries accepted in one ledger. */
  public static final long MAX_ENTRIES = 10_000_000L;

  private final InputStream in;
  private final long maxEntries;
  private final byte[] buffer = new byte[MAX_LINE_BYTES];
  private long lineNumber;

  public LedgerReader(InputStream in) {
    this(in, MAX_ENTRIES);
  }

  LedgerReader(InputStream in, long maxEntries) {
    this.in = new BufferedInputStream(in, 1 << 16);
    this.maxEntries = maxEntries;
  }

  /** Opens a ledger file. */
  public static LedgerReader open(Path file) throws IOException {
    return new LedgerReader(Files.newInputStream(file));
  }

  /**
   * Opens a ledger file at {@code offset}, the start of its line {@code linesBefore + 1} (as {@link
   * LedgerTail} found it): lines are numbered, and counted against {@link #MAX_ENTRIES}, from there.
   */
  static LedgerReader openAt(Path file, long offset, long linesBefore) throws IOException {
    java.nio.channels.SeekableByteChannel ch = Files.newByteChannel(file);
    try {
      ch.position(offset);
    } catch (IOException | RuntimeException e) {
      ch.close();
      throw e;
    }
    LedgerReader r = new LedgerReader(java.nio.channels.Channels.newInputStream(ch));
    r.lineNumber = linesBefore;
    return r;
  }

  /** The 1-based number of the line last returned (0 before the first). */
  public long lineNumber() {
    return lineNumber;
  }

  /**
   * The next line without its newline, or null at the end of the file.
   *
   * @throws LedgerFormatException for an empty, over-long, non-ASCII or unterminated line, or one
   *     line more than {@link #MAX_ENTRIES}
   */
  public String next() throws IOException {
    int n = 0;
    while (true) {
      int b = in.read();
      if (b < 0) {
        if (n == 0) {
          return null;
        }
        throw unterminated(lineNumber + 1);
      }
      if (b == '\n') {
        break;
      }
      LedgerFormatException bad = byteProblem(b, n + 1, lineNumber + 1, maxEntries);
      if (bad != null) {
        throw bad;
      }
      buffer[n++] = (byte) b;
    }
    lineNumber++;
    if (n == 0) {
      throw emptyLine(lineNumber);
    }
    return new String(buffer, 0, n, StandardCharsets.US_ASCII);
  }

  /**
   * What is wrong with byte {@code b} (not a newline) at 1-based {@code column} of line {@code line}:
   * a line beyond {@code maxEntries}, a byte that is not printable ASCII, a line longer than {@link
   * #MAX_LINE_BYTES}; null if nothing. The rules of every ledger line, also for {@link LedgerTail}.
   */
  static LedgerFormatException byteProblem(int b, int column, long line, long maxEntries) {
    if (column == 1 && line > maxEntries) {
      return new LedgerFormatException(line, "more than " + maxEntries + " entries");
    }
    if (b < 0x20 || b > 0x7e) {
      return new LedgerFormatException(line, b == '\r' ? "carriage return in line (ledger lines end with \\n only)"
          : String.format("byte 0x%02x at column %d: ledger lines are printable ASCII", b & 0xFF, column));
    }
    if (column > MAX_LINE_BYTES) {
      return new LedgerFormatException(line, "line longer than " + MAX_LINE_BYTES + " bytes");
    }
    return null;
  }

  /** Line {@code line} is empty. */
  static LedgerFormatException emptyLine(long line) {
    return new LedgerFormatException(line, "empty line");
  }

  /** Line {@code line}, the last, has no newline. */
  static LedgerFormatException unterminated(long line) {
    return new LedgerFormatException(line,
        "last line has no newline: the ledger was cut short (torn write or truncated copy)");
  }

  @Override
  public void close() throws IOException {
    in.close();
  }
}
