package io.hdfl.sensors.signal;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * The constants and header codec of the HDSG recorded-signal format; the layout is documented on
 * {@link SignalRecorder}. Every length is checked against its bound before anything is allocated.
 */
final class SignalFileFormat {

  static final byte[] MAGIC = {'H', 'D', 'S', 'G'};
  static final int VERSION = 1;
  static final byte SAMPLE_TAG = 'S';
  static final byte END_TAG = 'E';
  /** Magic, version, flags, channel count, sample rate. */
  static final int FIXED_HEADER_BYTES = 4 + 2 + 2 + 4 + 8;
  /** Tag, record count, CRC. */
  static final int END_RECORD_BYTES = 1 + 8 + 4;
  /** Highest nominal rate accepted: one sample per nanosecond. */
  static final double MAX_RATE_HZ = 1e9;

  /** The header as read. */
  record Header(List<Channel> channels, double sampleRateHz, int bytes) {}

  private SignalFileFormat() {}

  /** Bytes of one sample record with {@code channels} values: tag, timestamp, label, values, CRC. */
  static int sampleRecordBytes(int channels) {
    return 1 + 8 + 4 + 4 * channels + 4;
  }

  static double checkRate(double hz) {
    if (!(hz > 0) || hz > MAX_RATE_HZ) {
      throw new IllegalArgumentException("nominal sample rate must be > 0 and ≤ 1e9 Hz, got " + hz);
    }
    return hz;
  }

  static byte[] encodeHeader(List<Channel> channels, double sampleRateHz) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(FIXED_HEADER_BYTES + 16 * channels.size());
    ByteBuffer fixed = ByteBuffer.allocate(FIXED_HEADER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
    fixed.put(MAGIC).putShort((short) VERSION).putShort((short) 0).putInt(channels.size()).putDouble(sampleRateHz);
    out.writeBytes(fixed.array());
    for (Channel c : channels) {
      writeString(out, c.name());
      writeString(out, c.unit());
    }
    CRC32C crc = new CRC32C();
    crc.update(out.toByteArray());
    ByteBuffer tail = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt((int) crc.getValue());
    out.writeBytes(tail.array());
    return out.toByteArray();
  }

  private static void writeString(ByteArrayOutputStream out, String s) {
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    out.write(b.length);
    out.writeBytes(b);
  }

  /** Reads and checks the header; {@code file} names the input in messages. */
  static Header readHeader(InputStream in, String file) throws IOException {
    CRC32C crc = new CRC32C();
    byte[] fixedBytes = in.readNBytes(FIXED_HEADER_BYTES);
    for (int i = 0; i < Math.min(MAGIC.length, fixedBytes.length); i++) {
      if (fixedBytes[i] != MAGIC[i]) {
        throw new SignalFormatException(file + ": not an HDSG signal recording (bad magic bytes at offset 0)");
      }
    }
    if (fixedBytes.length < FIXED_HEADER_BYTES) {
      throw new SignalFormatException(file + ": truncated header at offset 0: expected " + FIXED_HEADER_BYTES
          + " bytes, got " + fixedBytes.length);
    }
    crc.update(fixedBytes);
    ByteBuffer fixed = ByteBuffer.wrap(fixedBytes, MAGIC.length, FIXED_HEADER_BYTES - MAGIC.length)
        .order(ByteOrder.LITTLE_ENDIAN);
    int version = Short.toUnsignedInt(fixed.getShort());
    if (version != VERSION) {
      throw new SignalFormatException(file + ": HDSG version " + version + " is not supported (this reader knows "
          + VERSION + ")");
    }
    int flags = Short.toUnsignedInt(fixed.getShort());
    if (flags != 0) {
      throw new SignalFormatException(file + ": unknown HDSG header flags 0x" + Integer.toHexString(flags));
    }
    long count = Integer.toUnsignedLong(fixed.getInt());
    if (count < 1 || count > Channel.MAX_CHANNELS) {
      throw new SignalFormatException(file + ": channel count " + count + " at offset 8 is outside 1.."
          + Channel.MAX_CHANNELS);
    }
    double rate = fixed.getDouble();
    if (!(rate > 0) || rate > MAX_RATE_HZ) {
      throw new SignalFormatException(file + ": sample rate " + rate + " Hz at offset 12 is not in (0, 1e9]");
    }
    int offset = FIXED_HEADER_BYTES;
    List<Channel> channels = new ArrayList<>((int) count);
    for (int i = 0; i < count; i++) {
      String name = readString(in, crc, file, offset, "name of channel " + i);
      offset += 1 + utf8Length(name);
      String unit = readString(in, crc, file, offset, "unit of channel " + i);
      offset += 1 + utf8Length(unit);
      try {
        channels.add(new Channel(name, unit));
      } catch (IllegalArgumentException e) {
        throw new SignalFormatException(file + ": channel " + i + " near offset " + offset + ": " + e.getMessage());
      }
    }
    int stored = ByteBuffer.wrap(readExactly(in, 4, file, offset, "header checksum"))
        .order(ByteOrder.LITTLE_ENDIAN).getInt();
    if (stored != (int) crc.getValue()) {
      throw new SignalFormatException(file + ": header checksum mismatch at offset " + offset + " (corrupt header)");
    }
    try {
      return new Header(Channel.checkList(channels), rate, offset + 4);
    } catch (IllegalArgumentException e) {
      throw new SignalFormatException(file + ": " + e.getMessage());
    }
  }

  private static String readString(InputStream in, CRC32C crc, String file, int offset, String what)
      throws IOException {
    byte[] len = readExactly(in, 1, file, offset, what);
    crc.update(len);
    byte[] bytes = readExactly(in, Byte.toUnsignedInt(len[0]), file, offset + 1, what);
    crc.update(bytes);
    try {
      CharBuffer chars = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes));
      return chars.toString();
    } catch (CharacterCodingException e) {
      throw new SignalFormatException(file + ": " + what + " at offset " + (offset + 1) + " is not valid UTF-8");
    }
  }

  private static int utf8Length(String s) {
    return s.getBytes(StandardCharsets.UTF_8).length;
  }

  /** Reads exactly {@code n} bytes (n is bounded by the caller) or fails naming the truncation. */
  static byte[] readExactly(InputStream in, int n, String file, long offset, String what) throws IOException {
    byte[] b = in.readNBytes(n);
    if (b.length < n) {
      throw new SignalFormatException(file + ": truncated " + what + " at offset " + offset + ": expected " + n
          + " bytes, got " + b.length);
    }
    return b;
  }
}
