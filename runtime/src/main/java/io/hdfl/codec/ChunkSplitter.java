package io.hdfl.codec;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.zip.CRC32C;

/**
 * Splits a frame into packets no larger than a broker's maximum packet size. A frame that fits is
 * sent as it is (it starts with "HDFM"); a larger one becomes chunks that each start with the
 * {@link ChunkHeader} ("HDFC"), all carrying the same message id, count, total length and CRC-32C
 * of the whole frame. Every chunk but the last carries exactly {@code maxPacketBytes − 29} payload
 * bytes. {@link Reassembler} puts them back together.
 */
public final class ChunkSplitter {
  /** Bytes of the fixed chunk header. */
  public static final int HEADER_BYTES = ChunkHeader.BYTES;

  private ChunkSplitter() {}

  /**
   * The packets to publish for {@code frame}: the frame itself if it fits in {@code maxPacketBytes},
   * else chunks. {@code maxPacketBytes} is the payload budget per MQTT message (the broker's maximum
   * packet size less the MQTT fixed header, topic and properties). {@code messageId} must be unique
   * per sender for as long as a receiver may hold chunks of it (use a random start or a step-derived
   * id, so a restarted peer does not reuse ids). Throws IllegalArgumentException if {@code frame} is
   * not an envelope frame or {@code maxPacketBytes} leaves no room for a payload byte.
   */
  public static List<byte[]> split(byte[] frame, int maxPacketBytes, long messageId) {
    Objects.requireNonNull(frame, "frame");
    if (!ChunkHeader.hasMagic(frame, EnvelopeCodec.MAGIC) && !ChunkHeader.hasMagic(frame, EnvelopeCodec.SEALED_MAGIC)) {
      throw new IllegalArgumentException("not an envelope frame (it must start with \"HDFM\", or \"HDFS\" sealed)");
    }
    if (frame.length <= maxPacketBytes) {
      return List.of(frame);
    }
    if (maxPacketBytes <= HEADER_BYTES) {
      throw new IllegalArgumentException("maxPacketBytes " + maxPacketBytes + " leaves no room for a chunk payload (header "
          + HEADER_BYTES + " bytes)");
    }
    int payload = maxPacketBytes - HEADER_BYTES;
    int count = (int) ((frame.length + (long) payload - 1) / payload);
    CRC32C crc = new CRC32C();
    crc.update(frame, 0, frame.length);
    int frameCrc = (int) crc.getValue();
    List<byte[]> chunks = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      int from = i * payload;
      int len = Math.min(payload, frame.length - from);
      byte[] packet = new byte[HEADER_BYTES + len];
      new ChunkHeader(messageId, i, count, frame.length, frameCrc).write(packet);
      System.arraycopy(frame, from, packet, HEADER_BYTES, len);
      chunks.add(packet);
    }
    return chunks;
  }
}
