package io.hdfl.codec;

import java.util.Objects;

/**
 * A chunk (or an assembled message) that is rejected. {@link #reason()} is machine-readable; the
 * message is one line for the log. The receiver drops the packet and keeps running.
 */
public final class ChunkException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** Why a chunk was rejected. */
  public enum Reason {
    /** The packet starts with neither the chunk magic "HDFC" nor the frame magic "HDFM". */
    BAD_MAGIC,
    /** A chunk format version this build does not read. */
    UNSUPPORTED_VERSION,
    /** The chunk header is short or self-contradictory (index ≥ count, empty payload, total < count, …). */
    MALFORMED,
    /** The claimed total length exceeds the largest message the receiver accepts. */
    MESSAGE_TOO_LARGE,
    /** The claimed chunk count exceeds the receiver's maximum chunks per message. */
    TOO_MANY_CHUNKS,
    /** Starting this message would exceed the bytes the receiver buffers across incomplete messages. */
    MEMORY_CAP,
    /** Starting this message would exceed the number of incomplete messages the receiver keeps. */
    TOO_MANY_MESSAGES,
    /** The chunk disagrees with earlier chunks of its message (count, length, CRC, sizes or a differing duplicate). */
    INCONSISTENT,
    /** The assembled message does not match the CRC its chunks carry; the message is dropped. */
    BAD_CHECKSUM
  }

  private final Reason reason;

  public ChunkException(Reason reason, String message) {
    super(Objects.requireNonNull(reason, "reason") + ": " + message);
    this.reason = reason;
  }

  public Reason reason() {
    return reason;
  }
}
