package io.hdfl.codec;

import io.hdfl.codec.ChunkException.Reason;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * The fixed header in front of every chunk, integers little-endian:
 *
 * <pre>
 *   4 bytes  magic "HDFC"
 *   u8       chunk format version (1)
 *   u64      message id (unique per sender)
 *   u32      index (0 .. count−1)
 *   u32      count (≥ 1)
 *   u32      total length of the frame (≥ count)
 *   u32      CRC-32C of the whole frame
 *   …        payload: bytes [index·P, index·P + len) of the frame, P the payload size of every
 *            chunk but the last
 * </pre>
 */
record ChunkHeader(long messageId, int index, int count, long totalLength, int frameCrc) {
  static final byte[] MAGIC = "HDFC".getBytes(StandardCharsets.US_ASCII);
  static final int VERSION = 1;
  static final int BYTES = 4 + 1 + 8 + 4 + 4 + 4 + 4;

  void write(byte[] packet) {
    ByteBuffer.wrap(packet).order(ByteOrder.LITTLE_ENDIAN).put(MAGIC).put((byte) VERSION).putLong(messageId)
        .putInt(index).putInt(count).putInt((int) totalLength).putInt(frameCrc);
  }

  static boolean hasMagic(byte[] packet, byte[] magic) {
    if (packet.length < magic.length) {
      return false;
    }
    for (int i = 0; i < magic.length; i++) {
      if (packet[i] != magic[i]) {
        return false;
      }
    }
    return true;
  }

  /** Parses and checks the header of a packet that starts with the chunk magic. */
  static ChunkHeader parse(byte[] packet) {
    if (packet.length < BYTES + 1) {
      throw new ChunkException(Reason.MALFORMED, "chunk of " + packet.length + " bytes is shorter than its header plus one byte");
    }
    ByteBuffer b = ByteBuffer.wrap(packet).order(ByteOrder.LITTLE_ENDIAN);
    int version = packet[4] & 0xFF;
    if (version != VERSION) {
      throw new ChunkException(Reason.UNSUPPORTED_VERSION, "chunk format version " + version + " (this build reads " + VERSION + ")");
    }
    long id = b.getLong(5);
    long index = Integer.toUnsignedLong(b.getInt(13));
    long count = Integer.toUnsignedLong(b.getInt(17));
    long total = Integer.toUnsignedLong(b.getInt(21));
    int crc = b.getInt(25);
    String where = "message " + Long.toUnsignedString(id) + " chunk " + index + "/" + count;
    if (count < 1 || index >= count) {
      throw new ChunkException(Reason.MALFORMED, where + ": index outside [0, count)");
    }
    if (total < count) {
      throw new ChunkException(Reason.MALFORMED, where + ": total length " + total + " is less than the chunk count");
    }
    long payload = packet.length - BYTES;
    if (payload > total) {
      throw new ChunkException(Reason.MALFORMED, where + ": payload of " + payload + " bytes exceeds the total length " + total);
    }
    if (count > Integer.MAX_VALUE) {
      throw new ChunkException(Reason.MALFORMED, where + ": count out of range");
    }
    return new ChunkHeader(id, (int) index, (int) count, total, crc);
  }

  String where() {
    return "message " + Long.toUnsignedString(messageId) + " chunk " + index + "/" + count;
  }
}
