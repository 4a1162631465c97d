package io.hdfl.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.CodedOutputStream;
import io.hdfl.codec.EnvelopeException.Reason;
import io.hdfl.codec.ModelEnvelope.Kind;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Every rejection reason, each with a crafted frame whose CRC is correct (so the check under test
 * is the one that fires, not the checksum). An {@link AfterAll} check insists every reason was hit.
 */
class EnvelopeRejectionTest {
  private static final Set<Reason> HIT = Collections.synchronizedSet(EnumSet.noneOf(Reason.class));
  private static final Expectations ANY = Expectations.defaults();

  static EnvelopeException reject(Reason reason, byte[] frame, Expectations x) {
    EnvelopeException ex = assertThrows(EnvelopeException.class, () -> EnvelopeCodec.decode(frame, x));
    assertEquals(reason, ex.reason(), ex.getMessage());
    assertFalse(ex.getMessage().contains("\n") || ex.getMessage().contains("\r"), ex.getMessage());
    assertTrue(ex.getMessage().startsWith(reason + ": "), ex.getMessage());
    HIT.add(reason);
    return ex;
  }

  static EnvelopeException reject(Reason reason, byte[] frame) {
    return reject(reason, frame, ANY);
  }

  interface Fields {
    void write(CodedOutputStream out) throws IOException;
  }

  /** Raw protobuf bytes. */
  static byte[] pb(Fields f) {
    try {
      ByteArrayOutputStream b = new ByteArrayOutputStream();
      CodedOutputStream out = CodedOutputStream.newInstance(b);
      f.write(out);
      out.flush();
      return b.toByteArray();
    } catch (IOException ex) {
      throw new AssertionError(ex);
    }
  }

  static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      b.writeBytes(p);
    }
    return b.toByteArray();
  }

  /** A valid 2×3 model header followed by extra protobuf fields (and the matching tensor). */
  static byte[] validPlus(Fields extra) {
    return Frames.frame(concat(new Frames.H().bytes(), pb(extra)), Frames.f32(1, 2, 3, 4, 5, 6));
  }

  @AfterAll
  static void everyReasonIsTested() {
    assertEquals(EnumSet.allOf(Reason.class), EnumSet.copyOf(HIT));
  }

  @Test
  void craftedFrameOfTheFixtureIsAccepted() {
    ModelEnvelope e = EnvelopeCodec.decode(new Frames.H().frame(), ANY);
    assertEquals(Kind.RING_MODEL, e.kind());
    assertEquals(6, e.prototypes().length);
    EnvelopeCodec.decode(validPlus(out -> { }), ANY);
  }

  @Test
  void frameTooLarge() {
    byte[] f = new Frames.H().frame();
    reject(Reason.FRAME_TOO_LARGE, f, Expectations.builder().maxFrameBytes(f.length - 1).build());
    EnvelopeCodec.decode(f, Expectations.builder().maxFrameBytes(f.length).build());
  }

  @Test
  void truncated() {
    reject(Reason.TRUNCATED, new byte[0]);
    reject(Reason.TRUNCATED, "HDF".getBytes());
    reject(Reason.TRUNCATED, new byte[] {'H', 'D', 'F', 'M', 1, 0, 0, 0, 0, 0, 0, 0});
    byte[] f = new Frames.H().frame();
    // Header length claims more than the frame holds.
    byte[] g = f.clone();
    java.nio.ByteBuffer.wrap(g).order(java.nio.ByteOrder.LITTLE_ENDIAN).putInt(5, g.length - 12);
    reject(Reason.TRUNCATED, Frames.withCrc(g));
  }

  @Test
  void badMagic() {
    reject(Reason.BAD_MAGIC, "X".getBytes());
    byte[] f = new Frames.H().frame();
    f[3] = 'C';
    reject(Reason.BAD_MAGIC, Frames.withCrc(f));
    byte[] chunk = ChunkSplitter.split(EnvelopeCodec.encode(Frames.model(Kind.RING_MODEL, 2, 50)), 100, 1).get(0);
    reject(Reason.BAD_MAGIC, chunk);
  }

  @Test
  void unsupportedVersion() {
    byte[] h = new Frames.H().bytes();
    byte[] t = Frames.f32(1, 2, 3, 4, 5, 6);
    for (int v : new int[] {0, 2, 255}) {
      EnvelopeException ex = reject(Reason.UNSUPPORTED_VERSION, Frames.frame(v, h, t));
      assertTrue(ex.getMessage().contains("version " + v), ex.getMessage());
    }
  }

  @Test
  void headerTooLarge() {
    byte[] f = new Frames.H().frame();
    int h = EnvelopeCodecTest.headerLength(f);
    reject(Reason.HEADER_TOO_LARGE, f, Expectations.builder().maxHeaderBytes(h - 1).build());
    EnvelopeCodec.decode(f, Expectations.builder().maxHeaderBytes(h).build());
    // A header length near 4 GiB is judged by the limit, not by the frame.
    byte[] g = f.clone();
    java.nio.ByteBuffer.wrap(g).order(java.nio.ByteOrder.LITTLE_ENDIAN).putInt(5, -1);
    reject(Reason.HEADER_TOO_LARGE, Frames.withCrc(g));
  }

  @Test
  void badChecksum() {
    byte[] f = new Frames.H().frame();
    f[f.length - 10] ^= 0x10;
    reject(Reason.BAD_CHECKSUM, f);
    byte[] g = new Frames.H().frame();
    g[g.length - 1] ^= 1; // the CRC itself
    reject(Reason.BAD_CHECKSUM, g);
  }

  @Test
  void malformedProtobuf() {
    byte[] t = Frames.f32(1, 2, 3, 4, 5, 6);
    reject(Reason.MALFORMED_HEADER, Frames.frame(new byte[] {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF}, t)); // cut varint
    byte[] tenByteVarint = new byte[11];
    Arrays.fill(tenByteVarint, (byte) 0xFF);
    reject(Reason.MALFORMED_HEADER, Frames.frame(tenByteVarint, t)); // varint longer than 10 bytes
    reject(Reason.MALFORMED_HEADER, Frames.frame(new byte[] {0x00, 0x01}, t)); // field number 0
    reject(Reason.MALFORMED_HEADER, validPlus(out -> out.writeTag(20, 3))); // group
    reject(Reason.MALFORMED_HEADER, validPlus(out -> out.writeTag(20, 6))); // invalid wire type
    reject(Reason.MALFORMED_HEADER, validPlus(out -> out.writeTag(14, 2))); // length missing at the end
    // A length prefix running past the header, for a known and an unknown field.
    reject(Reason.MALFORMED_HEADER, validPlus(out -> {
      out.writeTag(14, 2);
      out.writeUInt32NoTag(1 << 30);
    }));
    reject(Reason.MALFORMED_HEADER, validPlus(out -> {
      out.writeTag(99, 2);
      out.writeUInt32NoTag(1 << 30);
    }));
    reject(Reason.MALFORMED_HEADER, validPlus(out -> out.writeTag(100, 5))); // fixed32 cut off
  }

  @Test
  void malformedFields() {
    List<byte[]> frames = new ArrayList<>();
    frames.add(validPlus(out -> out.writeString(3, "again"))); // repeated singular field
    frames.add(validPlus(out -> out.writeUInt32(9, 3))); // same value twice is still twice
    frames.add(validPlus(out -> out.writeEnum(1, 1)));
    frames.add(Frames.frame(concat(pb(out -> out.writeFixed64(1, 1)), new Frames.H().bytes()), new byte[0]));
    frames.add(Frames.frame(concat(pb(out -> out.writeUInt32(2, 5)), new Frames.H().bytes()), new byte[0]));
    frames.add(Frames.frame(concat(pb(out -> out.writeString(9, "3")), new Frames.H().bytes()), new byte[0]));
    frames.add(Frames.frame(concat(pb(out -> out.writeUInt32(12, 5)), new Frames.H().bytes()), new byte[0]));
    Frames.H h = new Frames.H();
    frames.add(Frames.frame(pb(out -> out.writeEnum(1, 0)), new byte[0])); // KIND_UNSPECIFIED
    frames.add(Frames.frame(pb(out -> out.writeEnum(1, 6)), new byte[0])); // unknown kind
    frames.add(Frames.frame(pb(out -> out.writeEnum(1, -1)), new byte[0]));
    frames.add(Frames.frame(pb(out -> out.writeString(2, "plant-7")), new byte[0])); // kind missing
    h.federation = "";
    frames.add(h.frame());
    h = new Frames.H();
    h.sender = "";
    frames.add(h.frame());
    h = new Frames.H();
    h.encoder = "";
    frames.add(h.frame());
    h = new Frames.H();
    h.features = 0;
    frames.add(h.frame());
    h = new Frames.H();
    h.presentVariance = -1;
    frames.add(h.frame());
    h.presentVariance = Double.NaN;
    frames.add(h.frame());
    h.presentVariance = Double.POSITIVE_INFINITY;
    frames.add(h.frame());
    // Out of Java's range although valid protobuf.
    byte[] base = new Frames.H().bytes();
    byte[] t = Frames.f32(1, 2, 3, 4, 5, 6);
    frames.add(Frames.frame(concat(pb(out -> out.writeUInt64(4, 1L << 31)), withoutField(base, 4)), t));
    frames.add(Frames.frame(concat(pb(out -> out.writeUInt64(9, 0xFFFF_FFFFL)), withoutField(base, 9)), t));
    frames.add(Frames.frame(concat(pb(out -> out.writeUInt64(5, -1L)), withoutField(base, 5)), t));
    frames.add(Frames.frame(concat(pb(out -> out.writeUInt64(13, Long.MIN_VALUE)), withoutField(base, 13)), t));
    // Invalid UTF-8: a lone continuation byte, an overlong '/', an encoded surrogate.
    for (byte[] bad : new byte[][] {{(byte) 0x80}, {(byte) 0xC0, (byte) 0xAF}, {(byte) 0xED, (byte) 0xA0, (byte) 0x80}}) {
      frames.add(Frames.frame(concat(pb(out -> out.writeByteArray(2, bad)), withoutField(base, 2)), t));
      frames.add(validPlus(out -> out.writeByteArray(14, bad)));
    }
    for (byte[] f : frames) {
      reject(Reason.MALFORMED_HEADER, f);
    }
  }

  /** {@code header} (as our writer made it) without field {@code field}, re-encoded. */
  static byte[] withoutField(byte[] header, int field) {
    Frames.H h = new Frames.H();
    switch (field) {
      case 2 -> h.federation = "";
      case 4 -> h.round = 0;
      case 5 -> h.step = 0;
      case 9 -> h.dim = 0;
      case 13 -> h.samplesAbsorbed = 0;
      default -> throw new IllegalArgumentException("field " + field);
    }
    byte[] b = h.bytes();
    assertFalse(Arrays.equals(header, b));
    return b;
  }

  @Test
  void unknownFieldsAreSkipped() {
    byte[] f = validPlus(out -> {
      out.writeUInt64(16, 99);
      out.writeString(1000, "a later minor addition");
      out.writeFixed32(17, 5);
      out.writeFixed64(18, 5);
    });
    ModelEnvelope e = EnvelopeCodec.decode(f, ANY);
    assertEquals("peer-3", e.sender());
    assertArrayEquals(new float[] {1, 2, 3, 4, 5, 6}, e.prototypes());
  }

  @Test
  void ledgerLinesInSeveralRunsAreReadInOrder() {
    // the base header ends with its one line; more lines follow, split by an unknown field and by the
    // signature, and one comes last: every run of lines is read, in frame order
    byte[] f = validPlus(out -> {
      out.writeString(14, "two");
      out.writeString(14, "three");
      out.writeUInt64(16, 7);
      out.writeString(14, "four");
      out.writeByteArray(15, new byte[] {1, 2});
      out.writeString(14, "five");
    });
    ModelEnvelope e = EnvelopeCodec.decode(f, ANY);
    assertEquals(List.of("{\"a\":1}", "two", "three", "four", "five"), e.ledgerLines());
    assertArrayEquals(new byte[] {1, 2}, e.signature());
    assertArrayEquals(new float[] {1, 2, 3, 4, 5, 6}, e.prototypes());
  }

  @Test
  void unsupportedDtype() {
    byte[] base = new Frames.H().bytes();
    EnvelopeException ex = reject(Reason.UNSUPPORTED_DTYPE,
        Frames.frame(concat(base, pb(out -> out.writeEnum(11, 2))), Frames.f32(1, 2, 3, 4, 5, 6)));
    assertTrue(ex.getMessage().contains("dtype 2"), ex.getMessage());
  }

  @Test
  void limitsExceeded() {
    Frames.H h = new Frames.H();
    byte[] f = h.frame();
    reject(Reason.LIMIT_EXCEEDED, f, Expectations.builder().maxDim(2).build());
    reject(Reason.LIMIT_EXCEEDED, f, Expectations.builder().maxClasses(1).build());
    reject(Reason.LIMIT_EXCEEDED, f, Expectations.builder().maxValues(5).build());
    EnvelopeCodec.decode(f, Expectations.builder().maxDim(3).maxClasses(2).maxValues(6).build());
    h.ledgerLines = List.of("a", "bb", "ccc");
    f = h.frame();
    reject(Reason.LIMIT_EXCEEDED, f, Expectations.builder().maxLedgerLines(2).build());
    reject(Reason.LIMIT_EXCEEDED, f, Expectations.builder().maxLedgerLineBytes(2).build());
    EnvelopeCodec.decode(f, Expectations.builder().maxLedgerLines(3).maxLedgerLineBytes(3).build());
    h.ledgerLines = List.of("ü"); // 2 bytes: the limit counts UTF-8 bytes
    reject(Reason.LIMIT_EXCEEDED, h.frame(), Expectations.builder().maxLedgerLineBytes(1).build());
    h.ledgerLines = List.of();
    h.signature = new byte[1025];
    reject(Reason.LIMIT_EXCEEDED, h.frame());
    h.signature = new byte[0];
    h.federation = "f".repeat(257);
    reject(Reason.LIMIT_EXCEEDED, h.frame());
    // Limits on D and S apply to ACKs too.
    Frames.H a = new Frames.H();
    a.kind = Kind.ACK;
    a.dim = 1 << 21;
    a.classes = 1;
    reject(Reason.LIMIT_EXCEEDED, a.frame(new byte[0]));
  }

  @Test
  void tensorLength() {
    Frames.H h = new Frames.H();
    reject(Reason.TENSOR_LENGTH, h.frame(Frames.f32(1, 2, 3, 4, 5)));
    reject(Reason.TENSOR_LENGTH, h.frame(Frames.f32(1, 2, 3, 4, 5, 6, 7)));
    reject(Reason.TENSOR_LENGTH, h.frame(new byte[6 * 4 + 1]));
    h.dtype = Dtype.BFLOAT16;
    reject(Reason.TENSOR_LENGTH, h.frame(Frames.f32(1, 2, 3, 4, 5, 6))); // float32 bytes under a bf16 header
    EnvelopeCodec.decode(h.frame(new byte[12]), ANY);
  }

  @Test
  void ackWithTensor() {
    byte[] ack = EnvelopeCodec.encode(Frames.ack());
    int h = EnvelopeCodecTest.headerLength(ack);
    byte[] withTensor = Frames.frame(Arrays.copyOfRange(ack, 9, 9 + h), Frames.f32(1));
    reject(Reason.ACK_WITH_TENSOR, withTensor);
  }

  @Test
  void modelWithoutTensor() {
    Frames.H h = new Frames.H();
    reject(Reason.MISSING_TENSOR, h.frame(new byte[0]));
    h.dim = 0;
    reject(Reason.MISSING_TENSOR, h.frame(new byte[0]));
    reject(Reason.MISSING_TENSOR, h.frame(Frames.f32(1)));
    h.dim = 3;
    h.classes = 0;
    reject(Reason.MISSING_TENSOR, h.frame(new byte[0]));
  }

  @Test
  void wrongFederationEncoderFeaturesSeedDimensionClasses() {
    byte[] f = new Frames.H().frame();
    reject(Reason.WRONG_FEDERATION, f, Expectations.builder().federation("plant-8").build());
    reject(Reason.WRONG_ENCODER, f, Expectations.builder().encoder("sign").build());
    reject(Reason.WRONG_FEATURES, f, Expectations.builder().features(618).build());
    reject(Reason.WRONG_BASIS_SEED, f, Expectations.builder().basisSeed(43L).build());
    reject(Reason.WRONG_DIMENSION, f, Expectations.builder().dim(2000).build());
    reject(Reason.WRONG_CLASSES, f, Expectations.builder().classes(26).build());
    EnvelopeCodec.decode(f, Expectations.builder().federation("plant-7").encoder("cos").features(617).basisSeed(42L)
        .dim(3).classes(2).build());
    // The federation is checked on ACKs as well.
    reject(Reason.WRONG_FEDERATION, EnvelopeCodec.encode(Frames.ack()), Expectations.builder().federation("x").build());
  }

  @Test
  void hostileStringsAreEscapedInTheMessage() {
    Frames.H h = new Frames.H();
    h.federation = "evil\nsecond line\r\u001b[31m\"" + "x".repeat(100);
    EnvelopeException ex = reject(Reason.WRONG_FEDERATION, h.frame(), Expectations.builder().federation("good").build());
    assertTrue(ex.getMessage().contains("\\u000a"), ex.getMessage());
    assertTrue(ex.getMessage().contains("...(" + h.federation.length() + " chars)"), ex.getMessage());
  }

  @Test
  void nonFiniteValues() {
    Frames.H h = new Frames.H();
    for (float bad : new float[] {Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY}) {
      EnvelopeException ex = reject(Reason.NON_FINITE, h.frame(Frames.f32(1, 2, 3, 4, bad, 6)));
      assertTrue(ex.getMessage().contains("class 1 component 1 is " + bad), ex.getMessage());
    }
    byte[] nanBits = Frames.f32(Float.intBitsToFloat(0x7FC0_0001));
    reject(Reason.NON_FINITE, h.frame(concat(Frames.f32(1, 2, 3, 4, 5), nanBits)));
    h.dtype = Dtype.BFLOAT16;
    for (int bits : new int[] {0x7F80, 0xFF80, 0x7FC0, 0x7F81}) {
      byte[] t = new byte[12];
      t[4] = (byte) bits;
      t[5] = (byte) (bits >>> 8);
      reject(Reason.NON_FINITE, h.frame(t));
    }
  }
}
