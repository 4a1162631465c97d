package io.hdfl.codec;

import java.util.Objects;

/**
 * A frame that is rejected. {@link #reason()} is machine-readable (count it, branch on it); the
 * message is one line for the log, and strings taken from the frame appear quoted and escaped.
 * The receiving peer logs it and keeps running.
 */
public final class EnvelopeException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** Why a frame was rejected. */
  public enum Reason {
    /** The frame is longer than the receiver's maximum frame size. */
    FRAME_TOO_LARGE,
    /** The frame ends before its fixed prefix, header and checksum do. */
    TRUNCATED,
    /** The frame does not start with "HDFM" (a chunk, or not hdfl at all). */
    BAD_MAGIC,
    /** A format version this build does not read. */
    UNSUPPORTED_VERSION,
    /** The header is longer than the receiver's maximum header size. */
    HEADER_TOO_LARGE,
    /** The CRC-32C does not match: the frame was corrupted. */
    BAD_CHECKSUM,
    /** The header is not valid protobuf, or a field is missing, repeated, of the wrong type or out of range. */
    MALFORMED_HEADER,
    /** The tensor is in a dtype this build does not read. */
    UNSUPPORTED_DTYPE,
    /** D, S, S·D, the number of ledger lines, a ledger line or the signature exceeds its limit. */
    LIMIT_EXCEEDED,
    /** The tensor's byte count is not S·D·bytes-per-value. */
    TENSOR_LENGTH,
    /** An ACK carries a tensor. */
    ACK_WITH_TENSOR,
    /** A model kind carries no tensor (or D or S is 0). */
    MISSING_TENSOR,
    /** Another federation's message. */
    WRONG_FEDERATION,
    /** The model's encoder is not the one the receiver uses. */
    WRONG_ENCODER,
    /** The model's feature count is not the receiver's. */
    WRONG_FEATURES,
    /** The model's basis seed is not the receiver's. */
    WRONG_BASIS_SEED,
    /** The model's dimension D is not the receiver's. */
    WRONG_DIMENSION,
    /** The model's class count S is not the receiver's. */
    WRONG_CLASSES,
    /** A tensor value is NaN or infinite. */
    NON_FINITE
  }

  private final Reason reason;

  public EnvelopeException(Reason reason, String message) {
    super(Objects.requireNonNull(reason, "reason") + ": " + message);
    this.reason = reason;
  }

  public Reason reason() {
    return reason;
  }

  /**
   * {@code s} for a log line: in double quotes, control characters, quotes, backslashes and
   * non-ASCII escaped as {@code \\uXXXX}, cut after 64 characters.
   */
  public static String quoted(String s) {
    return io.hdfl.io.LogText.quoted(s, '"');
  }

}
