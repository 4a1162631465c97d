package io.hdfl.codec;

import io.hdfl.codec.EnvelopeException.Reason;
import io.hdfl.codec.ModelEnvelope.Kind;
import io.hdfl.kernels.FiniteCheck;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.zip.CRC32C;

/**
 * {@link ModelEnvelope} ↔ bytes. A frame (format version 1), integers little-endian:
 *
 * <pre>
 *   4 bytes  magic "HDFM"
 *   u8       format version (1)
 *   u32      header length H
 *   H bytes  header: protobuf message hdfl.codec.v1.EnvelopeHeader (src/main/proto/hdfl/codec/v1/envelope.proto)
 *   T bytes  tensor: S·D values row-major, float32 (4 bytes) or bfloat16 (2 bytes) as the header's dtype says;
 *            T = S·D·bytes-per-value exactly, 0 for an ACK
 *   u32      CRC-32C of every preceding byte
 * </pre>
 *
 * <p>Decoding treats the frame as hostile. In order: frame size against the limit, magic, version,
 * header size against the limit and against the frame, the CRC (so that a corrupted frame is
 * reported as corrupted), the header (every length prefix checked before allocation), D, S and S·D
 * against the limits, the tensor's byte count against S·D, ACK/tensor consistency, the receiver's
 * expectations, and only then the tensor is allocated (at most {@code 2 ×} the frame's size) and
 * every value checked to be finite. Any failure is an {@link EnvelopeException}.
 */
public final class EnvelopeCodec {
  static final byte[] MAGIC = "HDFM".getBytes(StandardCharsets.US_ASCII);
  /**
   * Magic of an end-to-end encrypted frame ({@code io.hdfl.security.HopCipher} seals a whole frame):
   * chunked and reassembled like a plain one, opened by the peer it is for.
   */
  static final byte[] SEALED_MAGIC = "HDFS".getBytes(StandardCharsets.US_ASCII);
  /** The format version this build writes and reads. */
  public static final int VERSION = 1;
  /** Magic, version and header length. */
  static final int PREFIX_BYTES = 4 + 1 + 4;
  static final int CRC_BYTES = 4;

  private EnvelopeCodec() {}

  /** {@link #encode(ModelEnvelope, Dtype)} with float32 (exact). */
  public static byte[] encode(ModelEnvelope e) {
    return encode(e, Dtype.FLOAT32);
  }

  /**
   * Encodes an envelope. Throws IllegalArgumentException for an envelope no receiver would accept:
   * empty federation or sender, negative counts, a non-finite or negative variance, a model kind
   * without encoder, features, D, S or with a tensor that is not S·D finite values, an ACK with a
   * tensor, ids over 256 or a signature over 1024 bytes, strings that are not valid Unicode, or
   * values that overflow bfloat16.
   */
  public static byte[] encode(ModelEnvelope e, Dtype dtype) {
    Objects.requireNonNull(e, "envelope");
    Objects.requireNonNull(dtype, "dtype");
    validate(e);
    byte[] header = EnvelopeHeader.of(e, dtype).toBytes();
    float[] v = e.prototypes();
    long size = (long) PREFIX_BYTES + header.length + (long) v.length * dtype.bytesPerValue() + CRC_BYTES;
    if (size > Integer.MAX_VALUE - 16) {
      throw new IllegalArgumentException("envelope of " + size + " bytes is too large for one frame");
    }
    byte[] frame = new byte[(int) size];
    ByteBuffer buf = ByteBuffer.wrap(frame).order(ByteOrder.LITTLE_ENDIAN);
    buf.put(MAGIC).put((byte) VERSION).putInt(header.length).put(header);
    int at = buf.position();
    if (dtype == Dtype.FLOAT32) {
      buf.asFloatBuffer().put(v);
    } else {
      for (int i = 0; i < v.length; i++, at += 2) {
        int b = BFloat16.toBits(v[i]);
        if ((b & 0x7F80) == 0x7F80) {
          throw new IllegalArgumentException("prototype value " + i + " (" + v[i] + ") overflows bfloat16");
        }
        frame[at] = (byte) b;
        frame[at + 1] = (byte) (b >>> 8);
      }
    }
    CRC32C crc = new CRC32C();
    crc.update(frame, 0, frame.length - CRC_BYTES);
    buf.putInt(frame.length - CRC_BYTES, (int) crc.getValue());
    return frame;
  }

  private static void validate(ModelEnvelope e) {
    require(!e.federation().isEmpty(), "federation is empty");
    require(!e.sender().isEmpty(), "sender is empty");
    require(e.round() >= 0, "round " + e.round() + " is negative");
    require(e.step() >= 0, "step " + e.step() + " is negative");
    require(e.features() >= 0, "features " + e.features() + " is negative");
    require(e.dim() >= 0, "dim " + e.dim() + " is negative");
    require(e.classes() >= 0, "classes " + e.classes() + " is negative");
    require(e.samplesAbsorbed() >= 0, "samples absorbed " + e.samplesAbsorbed() + " is negative");
    require(e.presentVariance() >= 0 && Double.isFinite(e.presentVariance()),
        "present variance " + e.presentVariance() + " is not a finite non-negative number");
    requireIdLength(e.federation(), "federation");
    requireIdLength(e.sender(), "sender");
    requireIdLength(e.encoder(), "encoder");
    require(e.signature().length <= EnvelopeHeader.MAX_SIGNATURE_BYTES,
        "signature of " + e.signature().length + " bytes exceeds " + EnvelopeHeader.MAX_SIGNATURE_BYTES);
    float[] v = e.prototypes();
    if (e.kind() == Kind.ACK) {
      require(v.length == 0, "an ACK carries no prototypes, got " + v.length + " values");
      return;
    }
    require(!e.encoder().isEmpty(), e.kind() + " without encoder");
    require(e.features() >= 1, e.kind() + " without features");
    require(e.dim() >= 1 && e.classes() >= 1, e.kind() + " needs dim >= 1 and classes >= 1");
    require(v.length == (long) e.dim() * e.classes(),
        "prototypes hold " + v.length + " values, expected classes x dim = " + (long) e.dim() * e.classes());
    int bad = FiniteCheck.firstNonFinite(v);
    if (bad >= 0) {
      throw new IllegalArgumentException("prototype value " + bad + " is " + v[bad]);
    }
  }

  private static void requireIdLength(String s, String what) {
    // UTF-8 is at most 3 bytes per char; count exactly only when that bound is not enough.
    if (s.length() * 3L > EnvelopeHeader.MAX_ID_BYTES) {
      int n = s.getBytes(StandardCharsets.UTF_8).length;
      require(n <= EnvelopeHeader.MAX_ID_BYTES, what + " of " + n + " bytes exceeds " + EnvelopeHeader.MAX_ID_BYTES);
    }
  }

  private static void require(boolean ok, String why) {
    if (!ok) {
      throw new IllegalArgumentException(why);
    }
  }

  /** Decodes and checks a frame; see the class comment for the order of checks. */
  public static ModelEnvelope decode(byte[] frame, Expectations expect) {
    Objects.requireNonNull(frame, "frame");
    Objects.requireNonNull(expect, "expect");
    int n = frame.length;
    if (n > expect.maxFrameBytes()) {
      throw new EnvelopeException(Reason.FRAME_TOO_LARGE,
          "frame of " + n + " bytes exceeds the limit of " + expect.maxFrameBytes());
    }
    for (int i = 0; i < Math.min(n, MAGIC.length); i++) {
      if (frame[i] != MAGIC[i]) {
        throw new EnvelopeException(Reason.BAD_MAGIC, "not an hdfl envelope (bad magic)");
      }
    }
    if (n < PREFIX_BYTES + CRC_BYTES) {
      throw new EnvelopeException(Reason.TRUNCATED, "frame of " + n + " bytes is shorter than the fixed prefix and checksum");
    }
    int version = frame[4] & 0xFF;
    if (version != VERSION) {
      throw new EnvelopeException(Reason.UNSUPPORTED_VERSION,
          "format version " + version + " (this build reads " + VERSION + ")");
    }
    ByteBuffer buf = ByteBuffer.wrap(frame).order(ByteOrder.LITTLE_ENDIAN);
    long headerLen = Integer.toUnsignedLong(buf.getInt(5));
    if (headerLen > expect.maxHeaderBytes()) {
      throw new EnvelopeException(Reason.HEADER_TOO_LARGE,
          "header of " + headerLen + " bytes exceeds the limit of " + expect.maxHeaderBytes());
    }
    if (PREFIX_BYTES + headerLen + CRC_BYTES > n) {
      throw new EnvelopeException(Reason.TRUNCATED,
          "header of " + headerLen + " bytes does not fit in a frame of " + n + " bytes");
    }
    CRC32C crc = new CRC32C();
    crc.update(frame, 0, n - CRC_BYTES);
    if ((int) crc.getValue() != buf.getInt(n - CRC_BYTES)) {
      throw new EnvelopeException(Reason.BAD_CHECKSUM, "checksum mismatch (frame of " + n + " bytes is corrupted or truncated)");
    }
    EnvelopeHeader h = EnvelopeHeader.parse(frame, PREFIX_BYTES, (int) headerLen, expect);
    checkLimits(h, expect);
    int tensorAt = PREFIX_BYTES + (int) headerLen;
    int tensorBytes = n - CRC_BYTES - tensorAt;
    long values = (long) h.dim() * h.classes();
    if (h.kind() == Kind.ACK) {
      if (tensorBytes != 0) {
        throw new EnvelopeException(Reason.ACK_WITH_TENSOR, "ACK carries " + tensorBytes + " tensor bytes");
      }
      values = 0;
    } else {
      if (values == 0 || tensorBytes == 0) {
        throw new EnvelopeException(Reason.MISSING_TENSOR,
            h.kind() + " without a tensor (S=" + h.classes() + ", D=" + h.dim() + ", " + tensorBytes + " tensor bytes)");
      }
      long expected = values * h.dtype().bytesPerValue();
      if (tensorBytes != expected) {
        throw new EnvelopeException(Reason.TENSOR_LENGTH, "tensor of " + tensorBytes + " bytes, but S=" + h.classes()
            + " x D=" + h.dim() + " " + h.dtype() + " needs " + expected);
      }
    }
    checkExpectations(h, expect);
    float[] v = new float[(int) values];
    if (h.dtype() == Dtype.FLOAT32) {
      ByteBuffer.wrap(frame, tensorAt, tensorBytes).slice().order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(v);
    } else {
      for (int i = 0, at = tensorAt; i < v.length; i++, at += 2) {
        v[i] = BFloat16.fromBits((frame[at] & 0xFF) | (frame[at + 1] & 0xFF) << 8);
      }
    }
    int i = FiniteCheck.firstNonFinite(v);
    if (i >= 0) {
      throw new EnvelopeException(Reason.NON_FINITE,
          "prototype of class " + (i / h.dim()) + " component " + (i % h.dim()) + " is " + v[i]);
    }
    return new ModelEnvelope(h.kind(), h.federation(), h.sender(), h.round(), h.step(), h.encoder(), h.features(),
        h.basisSeed(), h.dim(), h.classes(), h.presentVariance(), h.samplesAbsorbed(), h.ledgerLines(), h.signature(),
        v);
  }

  private static void checkLimits(EnvelopeHeader h, Expectations x) {
    if (h.dim() > x.maxDim()) {
      throw new EnvelopeException(Reason.LIMIT_EXCEEDED, "D=" + h.dim() + " exceeds the limit of " + x.maxDim());
    }
    if (h.classes() > x.maxClasses()) {
      throw new EnvelopeException(Reason.LIMIT_EXCEEDED, "S=" + h.classes() + " exceeds the limit of " + x.maxClasses());
    }
    long values = (long) h.dim() * h.classes();
    if (values > x.maxValues()) {
      throw new EnvelopeException(Reason.LIMIT_EXCEEDED,
          "S=" + h.classes() + " x D=" + h.dim() + " = " + values + " values exceeds the limit of " + x.maxValues());
    }
  }

  private static void checkExpectations(EnvelopeHeader h, Expectations x) {
    if (!Expectations.matches(x.federation(), h.federation())) {
      throw new EnvelopeException(Reason.WRONG_FEDERATION, "federation " + EnvelopeException.quoted(h.federation())
          + ", expected " + EnvelopeException.quoted(x.federation()));
    }
    if (h.kind() == Kind.ACK) {
      return;
    }
    if (!Expectations.matches(x.encoder(), h.encoder())) {
      throw new EnvelopeException(Reason.WRONG_ENCODER, "encoder " + EnvelopeException.quoted(h.encoder())
          + ", expected " + EnvelopeException.quoted(x.encoder()));
    }
    if (!Expectations.matches(x.features(), h.features())) {
      throw new EnvelopeException(Reason.WRONG_FEATURES, "features " + h.features() + ", expected " + x.features());
    }
    if (!Expectations.matches(x.basisSeed(), h.basisSeed())) {
      throw new EnvelopeException(Reason.WRONG_BASIS_SEED, "basis seed " + h.basisSeed() + ", expected " + x.basisSeed());
    }
    if (!Expectations.matches(x.dim(), h.dim())) {
      throw new EnvelopeException(Reason.WRONG_DIMENSION, "D=" + h.dim() + ", expected " + x.dim());
    }
    if (!Expectations.matches(x.classes(), h.classes())) {
      throw new EnvelopeException(Reason.WRONG_CLASSES, "S=" + h.classes() + ", expected " + x.classes());
    }
  }
}
