package io.hdfl.sensors.signal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Objects;
import java.util.zip.CRC32C;

/**
 * Writes samples in hdfl's recorded-signal format, HDSG, read back by {@link RecordedSignalSource}.
 * All numbers little-endian; CRC-32C (Castagnoli, {@link CRC32C}) checksums:
 * <pre>
 * header
 *   offset 0   4 bytes  magic "HDSG"
 *          4   u16      version = 1
 *          6   u16      flags = 0 (reserved; readers reject other values)
 *          8   u32      channel count C, 1..4096
 *         12   f64      nominal sample rate in Hz, in (0, 1e9]
 *         20            C × { u8 name length (1..255), UTF-8 name, u8 unit length (0..255), UTF-8 unit }
 *          …   u32      CRC-32C of every header byte above
 * sample record, 17 + 4·C bytes, repeated
 *              u8       tag 'S' (0x53)
 *              i64      timestamp, ns since the Unix epoch; never less than the previous record's
 *              i32      label, ≥ 0, or −1 for none
 *              C × f32  values in channel order (IEEE 754; NaN and infinities are kept as recorded)
 *              u32      CRC-32C of the record's bytes above, tag included
 * end record, 13 bytes, once, last
 *              u8       tag 'E' (0x45)
 *              i64      number of sample records
 *              u32      CRC-32C of the tag and the count
 * </pre>
 * A file that stops inside a record, lacks the end record (the recorder never closed: a crash or a
 * full disk), has a record whose checksum does not match, or has bytes after the end record is
 * reported by the reader at that point with the record number and byte offset; the complete records
 * before it are delivered first.
 *
 * <p>The recorder creates a new file (it never overwrites one) and fsyncs it on {@link #close()}.
 * Not thread-safe.
 */
public final class SignalRecorder implements AutoCloseable {

  private static final int BUFFER_BYTES = 1 << 16;

  private final Path file;
  private final List<Channel> channels;
  private final FileChannel out;
  private final ByteBuffer buffer;
  private final CRC32C crc = new CRC32C();
  private long records;
  private long lastTimestamp = Long.MIN_VALUE;
  private boolean closed;
  private boolean failed;

  private SignalRecorder(Path file, List<Channel> channels, FileChannel out) {
    this.file = file;
    this.channels = channels;
    this.out = out;
    this.buffer = ByteBuffer.allocate(Math.max(BUFFER_BYTES, SignalFileFormat.sampleRecordBytes(channels.size())))
        .order(ByteOrder.LITTLE_ENDIAN);
  }

  /**
   * Creates {@code file} and writes the header.
   *
   * @throws java.nio.file.FileAlreadyExistsException if the file exists
   * @throws IllegalArgumentException for a bad channel list or rate
   */
  public static SignalRecorder create(Path file, List<Channel> channels, double sampleRateHz) throws IOException {
    List<Channel> checked = Channel.checkList(channels);
    byte[] header = SignalFileFormat.encodeHeader(checked, SignalFileFormat.checkRate(sampleRateHz));
    FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    SignalRecorder r = new SignalRecorder(file, checked, ch);
    r.buffer.put(header);
    return r;
  }

  /**
   * Records every remaining sample of {@code source} into a new {@code file}.
   *
   * @return the number of samples recorded
   */
  public static long record(SignalSource source, Path file) throws IOException, InterruptedException {
    try (SignalRecorder r = create(file, source.channels(), source.sampleRateHz())) {
      Sample s;
      while ((s = source.next()) != null) {
        r.write(s);
      }
      return r.records();
    }
  }

  /**
   * Appends one sample.
   *
   * @throws IllegalArgumentException if it has the wrong number of values or goes back in time
   * @throws IllegalStateException if the recorder is closed or an earlier write failed
   */
  public void write(Sample sample) throws IOException {
    if (closed || failed) {
      throw new IllegalStateException(file + ": recorder is " + (closed ? "closed" : "broken by an earlier failure"));
    }
    if (sample.channelCount() != channels.size()) {
      throw new IllegalArgumentException(file + ": sample has " + sample.channelCount() + " values, the recording "
          + channels.size() + " channels");
    }
    if (sample.timestampNanos() < lastTimestamp) {
      throw new IllegalArgumentException(file + ": sample at " + sample.timestampNanos()
          + " ns goes back in time (previous " + lastTimestamp + " ns)");
    }
    int size = SignalFileFormat.sampleRecordBytes(channels.size());
    if (buffer.remaining() < size) {
      drain();
    }
    int start = buffer.position();
    buffer.put(SignalFileFormat.SAMPLE_TAG).putLong(sample.timestampNanos()).putInt(sample.label());
    for (int c = 0; c < channels.size(); c++) {
      buffer.putFloat(sample.value(c));
    }
    crc.reset();
    crc.update(buffer.array(), start, size - 4);
    buffer.putInt((int) crc.getValue());
    lastTimestamp = sample.timestampNanos();
    records++;
  }

  /** Sample records written so far. */
  public long records() {
    return records;
  }

  /** Writes buffered records to the file (without fsync). */
  public void flush() throws IOException {
    if (!closed && !failed) {
      drain();
    }
  }

  private void drain() throws IOException {
    buffer.flip();
    try {
      while (buffer.hasRemaining()) {
        out.write(buffer);
      }
    } catch (IOException e) {
      failed = true;
      throw new IOException(file + ": writing the recording failed: " + e.getMessage(), e);
    }
    buffer.clear();
  }

  /** Writes the end record, fsyncs and closes the file. Idempotent. */
  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    try (FileChannel ch = out) {
      if (failed) {
        return;
      }
      if (buffer.remaining() < SignalFileFormat.END_RECORD_BYTES) {
        drain();
      }
      int start = buffer.position();
      buffer.put(SignalFileFormat.END_TAG).putLong(records);
      crc.reset();
      crc.update(buffer.array(), start, SignalFileFormat.END_RECORD_BYTES - 4);
      buffer.putInt((int) crc.getValue());
      drain();
      ch.force(true);
    }
  }
}
