package io.hdfl.sensors.signal;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.CRC32C;

/**
 * Replays a recording written by {@link SignalRecorder} (format HDSG, layout on that class), at a
 * chosen {@link Pacing}. Every record's checksum, label and timestamp order is checked as it is read;
 * a bad record, a truncated file, a missing end record or trailing bytes raise a
 * {@link SignalFormatException} naming the record number and byte offset, after the good records
 * before it have been delivered. Memory use is one record, whatever the file says.
 */
public final class RecordedSignalSource extends PacedSource {

  private final String file;
  private final InputStream in;
  private final int recordBytes;
  private final byte[] record;
  private final ByteBuffer view;
  private final CRC32C crc = new CRC32C();
  private long offset;
  private long records;
  private long lastTimestamp = Long.MIN_VALUE;

  private RecordedSignalSource(String file, SignalFileFormat.Header header, InputStream in, Pacing pacing,
      Pacer.Clock clock) {
    super("recording " + file, header.channels(), header.sampleRateHz(), pacing, clock);
    this.file = file;
    this.in = in;
    this.recordBytes = SignalFileFormat.sampleRecordBytes(header.channels().size());
    this.record = new byte[recordBytes];
    this.view = ByteBuffer.wrap(record).order(ByteOrder.LITTLE_ENDIAN);
    this.offset = header.bytes();
  }

  /** Opens {@code file} for replay as fast as possible. */
  public static RecordedSignalSource open(Path file) throws IOException {
    return open(file, Pacing.AS_FAST_AS_POSSIBLE);
  }

  /**
   * Opens {@code file} and reads its header.
   *
   * @throws SignalFormatException if the header is not a valid HDSG header
   */
  public static RecordedSignalSource open(Path file, Pacing pacing) throws IOException {
    return open(file, pacing, Pacer.SYSTEM);
  }

  static RecordedSignalSource open(Path file, Pacing pacing, Pacer.Clock clock) throws IOException {
    InputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 16);
    try {
      SignalFileFormat.Header header = SignalFileFormat.readHeader(in, file.toString());
      return new RecordedSignalSource(file.toString(), header, in, pacing, clock);
    } catch (IOException | RuntimeException e) {
      in.close();
      throw e;
    }
  }

  @Override
  Sample read() throws IOException {
    int tag = in.read();
    if (tag < 0) {
      throw new SignalFormatException(file + ": ends at offset " + offset + " after " + records
          + " records without an end record (the recording was cut short)");
    }
    if (tag == SignalFileFormat.END_TAG) {
      readEnd();
      return null;
    }
    if (tag != SignalFileFormat.SAMPLE_TAG) {
      throw new SignalFormatException(file + ": record " + records + " at offset " + offset + " has unknown tag 0x"
          + Integer.toHexString(tag) + " (corrupt file)");
    }
    record[0] = (byte) tag;
    int n = in.readNBytes(record, 1, recordBytes - 1);
    if (n < recordBytes - 1) {
      throw new SignalFormatException(file + ": record " + records + " at offset " + offset + " is truncated: "
          + (n + 1) + " of " + recordBytes + " bytes");
    }
    crc.reset();
    crc.update(record, 0, recordBytes - 4);
    if (view.getInt(recordBytes - 4) != (int) crc.getValue()) {
      throw new SignalFormatException(file + ": record " + records + " at offset " + offset
          + " fails its checksum (corrupt file)");
    }
    long t = view.getLong(1);
    int label = view.getInt(9);
    if (label < Sample.NO_LABEL) {
      throw new SignalFormatException(file + ": record " + records + " at offset " + offset + " has label " + label);
    }
    if (t < lastTimestamp) {
      throw new SignalFormatException(file + ": record " + records + " at offset " + offset + " goes back in time ("
          + t + " ns after " + lastTimestamp + " ns)");
    }
    int channels = channels().size();
    float[] values = new float[channels];
    for (int c = 0; c < channels; c++) {
      values[c] = view.getFloat(13 + 4 * c);
    }
    lastTimestamp = t;
    records++;
    offset += recordBytes;
    return Sample.adopt(t, values, label);
  }

  private void readEnd() throws IOException {
    byte[] end = in.readNBytes(SignalFileFormat.END_RECORD_BYTES - 1);
    if (end.length < SignalFileFormat.END_RECORD_BYTES - 1) {
      throw new SignalFormatException(file + ": end record at offset " + offset + " is truncated");
    }
    ByteBuffer b = ByteBuffer.wrap(end).order(ByteOrder.LITTLE_ENDIAN);
    crc.reset();
    crc.update(SignalFileFormat.END_TAG);
    crc.update(end, 0, 8);
    if (b.getInt(8) != (int) crc.getValue()) {
      throw new SignalFormatException(file + ": end record at offset " + offset + " fails its checksum (corrupt file)");
    }
    long count = b.getLong(0);
    if (count != records) {
      throw new SignalFormatException(file + ": end record at offset " + offset + " counts " + count
          + " records but " + records + " were read (records lost)");
    }
    if (in.read() >= 0) {
      throw new SignalFormatException(file + ": unexpected bytes after the end record at offset "
          + (offset + SignalFileFormat.END_RECORD_BYTES));
    }
  }

  /** Sample records read so far (a record waiting for its pacing time counts). */
  public long records() {
    return records;
  }

  @Override
  void release() throws IOException {
    in.close();
  }
}
