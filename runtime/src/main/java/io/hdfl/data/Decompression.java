package io.hdfl.data;

import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;

/**
 * Opens data files, transparently decompressing gzip. gzip is recognised by its magic bytes
 * ({@code 0x1f 0x8b}), not by the file name, and corrupt or truncated gzip data is reported as a
 * {@link DatasetFormatException} naming the file.
 */
final class Decompression {
  private static final int BUFFER = 1 << 16;

  private Decompression() {}

  /**
   * Opens {@code path} for reading, decompressing it if it is gzip.
   *
   * @throws DatasetFormatException if the file does not exist, is a directory, or has a broken
   *     gzip header
   */
  static InputStream open(Path path) throws IOException {
    String source = path.toString();
    requireFile(path);
    InputStream raw;
    try {
      raw = Files.newInputStream(path);
    } catch (NoSuchFileException e) {
      throw new DatasetFormatException(source, "file not found");
    }
    BufferedInputStream in = new BufferedInputStream(raw, BUFFER);
    try {
      if (!isGzip(in)) {
        return in;
      }
      return new GzipGuard(new GZIPInputStream(in, BUFFER), source);
    } catch (ZipException | EOFException e) {
      in.close();
      throw new DatasetFormatException(
          source, "corrupt or truncated gzip data (" + e.getMessage() + ")", e);
    } catch (IOException | RuntimeException e) {
      in.close();
      throw e;
    }
  }

  /**
   * Checks that {@code path} names a file, before anything is guessed from its name: a mistyped
   * path is reported as missing, not as an unknown format or a missing companion file.
   *
   * @throws DatasetFormatException if it is a directory or does not exist
   */
  static void requireFile(Path path) {
    if (Files.isDirectory(path)) {
      throw new DatasetFormatException(path.toString(), "is a directory, not a data file");
    }
    if (!Files.exists(path)) {
      throw new DatasetFormatException(path.toString(), "file not found");
    }
  }

  /** Whether the stream starts with the gzip magic; the stream is left where it was. */
  static boolean isGzip(BufferedInputStream in) throws IOException {
    in.mark(2);
    int b0 = in.read();
    int b1 = in.read();
    in.reset();
    return b0 == 0x1f && b1 == 0x8b;
  }

  /** Whether a file name asks for gzip output. */
  static boolean wantsGzip(Path path) {
    Path name = path.getFileName();
    return name != null && name.toString().toLowerCase(Locale.ROOT).endsWith(".gz");
  }

  /** Turns the JDK's gzip failures into a one-line {@link DatasetFormatException}. */
  private static final class GzipGuard extends FilterInputStream {
    private final String source;

    GzipGuard(InputStream in, String source) {
      super(in);
      this.source = source;
    }

    @Override
    public int read() throws IOException {
      try {
        return super.read();
      } catch (ZipException | EOFException e) {
        throw broken(e);
      }
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      try {
        return super.read(b, off, len);
      } catch (ZipException | EOFException e) {
        throw broken(e);
      }
    }

    @Override
    public long skip(long n) throws IOException {
      try {
        return super.skip(n);
      } catch (ZipException | EOFException e) {
        throw broken(e);
      }
    }

    private DatasetFormatException broken(IOException e) {
      return new DatasetFormatException(
          source, "corrupt or truncated gzip data (" + e.getMessage() + ")", e);
    }
  }
}
