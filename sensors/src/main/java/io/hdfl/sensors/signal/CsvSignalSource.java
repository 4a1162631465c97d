package io.hdfl.sensors.signal;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Replays a CSV file of samples at a chosen {@link Pacing}:
 * <pre>
 * time[ms],spindle.torque[Nm],z.current[A],label
 * 0,12.5,3.1,0
 * 2,12.7,3.0,0
 * </pre>
 * <ul>
 *   <li>Row 1 is the header. Each column is named {@code name} or {@code name[unit]}.
 *   <li>The timestamp column is {@code timestamp} or {@code time} (case-insensitive; or the name
 *       given to {@link Builder#timestampColumn}), in seconds unless its unit says {@code ms},
 *       {@code us} or {@code ns}; decimals are converted to integer nanoseconds exactly (rounded
 *       half-even). Timestamps are read as nanoseconds since the Unix epoch and must not go back.
 *   <li>The optional label column is {@code label} (or {@link Builder#labelColumn}): an integer ≥ 0,
 *       empty for none.
 *   <li>Every other column is a channel, in file order (1..4096, distinct names). Values are plain
 *       decimals; an empty cell or {@code NaN} is a missing reading (NaN), {@code inf}/{@code -inf}
 *       are infinities — windowing decides what to do with them.
 *   <li>Fields may be double-quoted (RFC 4180 quote doubling, not spanning lines) and are trimmed.
 *       Blank lines are skipped. Input must be UTF-8 (a leading byte-order mark is ignored).
 * </ul>
 * The nominal sample rate is the configured one or, by default, 1 / the (lower) median of the first
 * (up to 64) positive timestamp intervals, so occasional gaps do not bias it. Any bad row raises a {@link SignalFormatException} with the file,
 * line number and problem; lines longer than {@link Builder#maxLineBytes} (default 1 MiB) are rejected
 * before they are buffered, so memory stays bounded.
 */
public final class CsvSignalSource extends PacedSource {

  private static final int RATE_LOOKAHEAD = 65;

  private final InputStream in;
  private final CsvRows rows;
  private final ArrayDeque<Sample> lookahead;

  private CsvSignalSource(String file, List<Channel> channels, double rate, Pacing pacing, Pacer.Clock clock,
      InputStream in, CsvRows rows, ArrayDeque<Sample> lookahead) {
    super("csv " + file, channels, rate, pacing, clock);
    this.in = in;
    this.rows = rows;
    this.lookahead = lookahead;
  }

  /** A builder for reading {@code file}. */
  public static Builder builder(Path file) {
    return new Builder(file);
  }

  /** Opens {@code file} with the defaults: comma-separated, rate inferred, as fast as possible. */
  public static CsvSignalSource open(Path file) throws IOException {
    return builder(file).open();
  }

  @Override
  Sample read() throws IOException {
    return lookahead.isEmpty() ? rows.next() : lookahead.poll();
  }

  @Override
  void release() throws IOException {
    in.close();
  }

  private static CsvSignalSource open(Builder b) throws IOException {
    String file = b.file.toString();
    InputStream raw = Files.newInputStream(b.file);
    InputStream in = raw;
    try {
      if (b.file.getFileName().toString().toLowerCase(java.util.Locale.ROOT).endsWith(".gz")) {
        in = gunzip(raw, file); // read as a stream: lines stay bounded
      }
      BoundedLineReader lines = new BoundedLineReader(in, file, b.maxLineBytes);
      String first = lines.next();
      if (first == null) {
        throw new SignalFormatException(file + ": empty file (no header row)");
      }
      if (first.startsWith("\uFEFF")) {
        first = first.substring(1);
      }
      CsvHeader header;
      try {
        header = CsvHeader.parse(CsvFields.split(first, b.delimiter, Channel.MAX_CHANNELS + 2), b.timeColumn,
            b.labelColumn);
      } catch (IllegalArgumentException e) {
        throw new SignalFormatException(file + ": line 1 (header): " + e.getMessage());
      }
      CsvRows rows = new CsvRows(file, lines, header, b.delimiter);
      // To infer the rate, read ahead; those rows are then delivered from the queue first.
      ArrayDeque<Sample> ahead = new ArrayDeque<>();
      int want = Double.isNaN(b.sampleRateHz) ? RATE_LOOKAHEAD : 0;
      Sample s;
      while (ahead.size() < want && (s = rows.next()) != null) {
        ahead.add(s);
      }
      double rate = Double.isNaN(b.sampleRateHz) ? inferRate(ahead, file) : b.sampleRateHz;
      return new CsvSignalSource(file, header.channels(), rate, b.pacing, b.clock, in, rows, ahead);
    } catch (IOException | RuntimeException e) {
      in.close();
      raw.close();
      throw e;
    }
  }

  /**
   * {@code raw} decompressed as it is read; damaged or cut-short gzip data fail as a damaged file does,
   * naming it.
   */
  private static InputStream gunzip(InputStream raw, String file) throws IOException {
    InputStream z;
    try {
      z = new java.util.zip.GZIPInputStream(raw, 1 << 16);
    } catch (java.util.zip.ZipException | java.io.EOFException e) {
      throw new SignalFormatException(file + ": not a gzip file (" + e.getMessage() + ")");
    }
    return new java.io.FilterInputStream(z) {
      @Override
      public int read() throws IOException {
        try {
          return super.read();
        } catch (java.util.zip.ZipException | java.io.EOFException e) {
          throw new SignalFormatException(file + ": damaged gzip data (" + e.getMessage() + ")");
        }
      }

      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        try {
          return super.read(b, off, len);
        } catch (java.util.zip.ZipException | java.io.EOFException e) {
          throw new SignalFormatException(file + ": damaged gzip data (" + e.getMessage() + ")");
        }
      }
    };
  }

  private static double inferRate(ArrayDeque<Sample> rows, String file) throws SignalFormatException {
    long[] intervals = new long[Math.max(0, rows.size() - 1)];
    int n = 0;
    long prev = 0;
    boolean first = true;
    for (Sample s : rows) {
      if (!first && s.timestampNanos() > prev) {
        intervals[n++] = s.timestampNanos() - prev;
      }
      prev = s.timestampNanos();
      first = false;
    }
    if (n == 0) {
      throw new SignalFormatException(file + ": cannot infer the sample rate (fewer than two distinct timestamps);"
          + " set it explicitly");
    }
    Arrays.sort(intervals, 0, n);
    double rate = 1e9 / intervals[(n - 1) / 2];
    return SignalFileFormat.checkRate(rate);
  }

  /** Options for a {@link CsvSignalSource}. */
  public static final class Builder {
    private final Path file;
    private char delimiter = ',';
    private String timeColumn;
    private String labelColumn;
    private double sampleRateHz = Double.NaN;
    private Pacing pacing = Pacing.AS_FAST_AS_POSSIBLE;
    private int maxLineBytes = 1 << 20;
    private Pacer.Clock clock = Pacer.SYSTEM;

    private Builder(Path file) {
      this.file = Objects.requireNonNull(file, "file");
    }

    /** Field delimiter (default {@code ,}); not a quote, space or line break. */
    public Builder delimiter(char delimiter) {
      if (delimiter == '"' || delimiter == ' ' || delimiter == '\n' || delimiter == '\r') {
        throw new IllegalArgumentException("delimiter cannot be a quote, space or line break");
      }
      this.delimiter = delimiter;
      return this;
    }

    /** Name of the timestamp column (default {@code timestamp} or {@code time}). */
    public Builder timestampColumn(String name) {
      this.timeColumn = Objects.requireNonNull(name, "name");
      return this;
    }

    /** Name of the label column, which must then exist (default {@code label}, if present). */
    public Builder labelColumn(String name) {
      this.labelColumn = Objects.requireNonNull(name, "name");
      return this;
    }

    /** The nominal sample rate (default: inferred from the first timestamps). */
    public Builder sampleRateHz(double hz) {
      this.sampleRateHz = SignalFileFormat.checkRate(hz);
      return this;
    }

    /** Replay speed (default as fast as possible). */
    public Builder pacing(Pacing pacing) {
      this.pacing = Objects.requireNonNull(pacing, "pacing");
      return this;
    }

    /** Longest accepted line in bytes of UTF-8 (default 1,048,576). */
    public Builder maxLineBytes(int max) {
      if (max < 16) {
        throw new IllegalArgumentException("max line length must be ≥ 16 bytes, got " + max);
      }
      this.maxLineBytes = max;
      return this;
    }

    Builder clock(Pacer.Clock clock) {
      this.clock = clock;
      return this;
    }

    /**
     * Opens the file and reads its header (and, to infer the rate, up to 65 rows).
     *
     * @throws SignalFormatException for a bad header or row, with the line number
     */
    public CsvSignalSource open() throws IOException {
      return CsvSignalSource.open(this);
    }
  }
}
