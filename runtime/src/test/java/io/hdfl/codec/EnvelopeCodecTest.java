package io.hdfl.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hdfl.codec.ModelEnvelope.Kind;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Round trips and the encoder's own checks. */
class EnvelopeCodecTest {
  static void assertSameHeader(ModelEnvelope a, ModelEnvelope b) {
    assertEquals(a.kind(), b.kind());
    assertEquals(a.federation(), b.federation());
    assertEquals(a.sender(), b.sender());
    assertEquals(a.round(), b.round());
    assertEquals(a.step(), b.step());
    assertEquals(a.encoder(), b.encoder());
    assertEquals(a.features(), b.features());
    assertEquals(a.basisSeed(), b.basisSeed());
    assertEquals(a.dim(), b.dim());
    assertEquals(a.classes(), b.classes());
    assertEquals(Double.doubleToRawLongBits(a.presentVariance()), Double.doubleToRawLongBits(b.presentVariance()));
    assertEquals(a.samplesAbsorbed(), b.samplesAbsorbed());
    assertEquals(a.ledgerLines(), b.ledgerLines());
    assertArrayEquals(a.signature(), b.signature());
  }

  static Expectations expecting(ModelEnvelope e) {
    return Expectations.builder().federation(e.federation()).encoder(e.encoder()).features(e.features())
        .basisSeed(e.basisSeed()).dim(e.dim()).classes(e.classes()).build();
  }

  @ParameterizedTest
  @EnumSource(value = Kind.class, names = "ACK", mode = EnumSource.Mode.EXCLUDE)
  void everyModelKindRoundTripsExactlyInFloat32(Kind kind) {
    ModelEnvelope e = Frames.model(kind, 5, 37);
    byte[] frame = EnvelopeCodec.encode(e);
    assertEquals(9 + headerLength(frame) + 5 * 37 * 4 + 4, frame.length);
    ModelEnvelope d = EnvelopeCodec.decode(frame, expecting(e));
    assertSameHeader(e, d);
    for (int i = 0; i < e.prototypes().length; i++) {
      assertEquals(Float.floatToRawIntBits(e.prototypes()[i]), Float.floatToRawIntBits(d.prototypes()[i]), "value " + i);
    }
    assertArrayEquals(frame, EnvelopeCodec.encode(d), "re-encoding the decoded envelope gives the same bytes");
  }

  @ParameterizedTest
  @EnumSource(value = Kind.class, names = "ACK", mode = EnumSource.Mode.EXCLUDE)
  void everyModelKindRoundTripsInBfloat16WithinHalfAnUlp(Kind kind) {
    ModelEnvelope e = Frames.model(kind, 4, 251);
    byte[] frame = EnvelopeCodec.encode(e, Dtype.BFLOAT16);
    assertEquals(9 + headerLength(frame) + 4 * 251 * 2 + 4, frame.length);
    ModelEnvelope d = EnvelopeCodec.decode(frame, expecting(e));
    assertSameHeader(e, d);
    for (int i = 0; i < e.prototypes().length; i++) {
      float x = e.prototypes()[i];
      float y = d.prototypes()[i];
      assertTrue(Math.abs(y - x) <= Math.scalb(Math.abs(x), -8), "value " + i + ": " + x + " -> " + y);
      assertEquals(BFloat16.round(x), y, 0f);
    }
    // bfloat16 values survive a second trip unchanged.
    assertArrayEquals(frame, EnvelopeCodec.encode(d, Dtype.BFLOAT16));
  }

  @Test
  void ackRoundTripsWithoutTensorAndIgnoresModelExpectations() {
    ModelEnvelope a = Frames.ack();
    byte[] frame = EnvelopeCodec.encode(a);
    assertEquals(9 + headerLength(frame) + 4, frame.length);
    Expectations x = Expectations.builder().federation("plant-7").encoder("sign").features(9).basisSeed(1L).dim(2000)
        .classes(26).build();
    ModelEnvelope d = EnvelopeCodec.decode(frame, x);
    assertSameHeader(a, d);
    assertEquals(0, d.prototypes().length);
    assertEquals(frame.length + 2, EnvelopeCodec.encode(a, Dtype.BFLOAT16).length, "bf16 adds only the dtype field");
  }

  @Test
  void extremeFieldValuesRoundTrip() {
    String id = "ü".repeat(128); // 256 UTF-8 bytes, the maximum
    List<String> lines = new ArrayList<>(List.of("", "line with\ttab and \"quotes\"", "\uD83D\uDE00 emoji"));
    ModelEnvelope e = new ModelEnvelope(Kind.FINAL_MODEL, id, id, Integer.MAX_VALUE, Long.MAX_VALUE, id,
        Integer.MAX_VALUE, Long.MIN_VALUE, 1, 1, Double.MAX_VALUE, Long.MAX_VALUE, lines, new byte[1024],
        new float[] {-Float.MAX_VALUE});
    ModelEnvelope d = EnvelopeCodec.decode(EnvelopeCodec.encode(e), Expectations.defaults());
    assertSameHeader(e, d);
    assertEquals(-Float.MAX_VALUE, d.prototypes()[0]);
    float[] special = {Float.MIN_VALUE, -0f, 0f, Float.MIN_NORMAL, 1e-40f};
    ModelEnvelope s = new ModelEnvelope(Kind.RING_MODEL, "f", "p", 0, 0, "sign", 1, 0, 5, 1, -0.0, 0, List.of(), null,
        special);
    ModelEnvelope ds = EnvelopeCodec.decode(EnvelopeCodec.encode(s), Expectations.defaults());
    for (int i = 0; i < special.length; i++) {
      assertEquals(Float.floatToRawIntBits(special[i]), Float.floatToRawIntBits(ds.prototypes()[i]));
    }
  }

  @Test
  void randomEnvelopesRoundTrip() {
    SplittableRandom r = new SplittableRandom(11);
    for (int t = 0; t < 300; t++) {
      Kind kind = Kind.values()[r.nextInt(Kind.values().length)];
      int classes = kind == Kind.ACK ? r.nextInt(3) : 1 + r.nextInt(4);
      int dim = kind == Kind.ACK ? r.nextInt(3) : 1 + r.nextInt(40);
      List<String> lines = new ArrayList<>();
      for (int i = r.nextInt(4); i > 0; i--) {
        lines.add("x".repeat(r.nextInt(200)));
      }
      byte[] sig = new byte[r.nextInt(3) * 32];
      r.nextBytes(sig);
      ModelEnvelope e = new ModelEnvelope(kind, "f" + r.nextInt(), "s" + r.nextInt(1000), r.nextInt(1 << 20),
          r.nextLong(Long.MAX_VALUE), kind == Kind.ACK ? "" : "cos-bias", kind == Kind.ACK ? 0 : 1 + r.nextInt(900),
          r.nextLong(), dim, classes, r.nextDouble() * 1e6, r.nextLong(1L << 40), lines, sig,
          kind == Kind.ACK ? null : Frames.values(classes * dim, r.nextLong()));
      Dtype dtype = r.nextBoolean() ? Dtype.FLOAT32 : Dtype.BFLOAT16;
      ModelEnvelope d = EnvelopeCodec.decode(EnvelopeCodec.encode(e, dtype), expecting(e));
      assertSameHeader(e, d);
      float[] want = e.prototypes().clone();
      if (dtype == Dtype.BFLOAT16) {
        for (int i = 0; i < want.length; i++) {
          want[i] = BFloat16.round(want[i]);
        }
      }
      assertArrayEquals(want, d.prototypes());
    }
  }

  @Test
  void frameLayoutIsAsDocumented() {
    ModelEnvelope e = Frames.model(Kind.RING_MODEL, 1, 2);
    byte[] f = EnvelopeCodec.encode(e);
    assertEquals("HDFM", new String(f, 0, 4, StandardCharsets.US_ASCII));
    assertEquals(1, f[4]);
    int h = headerLength(f);
    ByteBuffer b = ByteBuffer.wrap(f).order(ByteOrder.LITTLE_ENDIAN);
    assertEquals(e.prototypes()[0], b.getFloat(9 + h));
    assertEquals(e.prototypes()[1], b.getFloat(9 + h + 4));
    java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
    crc.update(f, 0, f.length - 4);
    assertEquals((int) crc.getValue(), b.getInt(f.length - 4));
    byte[] bf = EnvelopeCodec.encode(e, Dtype.BFLOAT16);
    ByteBuffer c = ByteBuffer.wrap(bf).order(ByteOrder.LITTLE_ENDIAN);
    assertEquals(BFloat16.toBits(e.prototypes()[1]), Short.toUnsignedInt(c.getShort(9 + headerLength(bf) + 2)));
  }

  @Test
  void encoderRefusesEnvelopesNoReceiverWouldAccept() {
    ModelEnvelope ok = Frames.model(Kind.RING_MODEL, 2, 3);
    List<ModelEnvelope> bad = List.of(
        with(ok, "federation", ""),
        with(ok, "sender", ""),
        with(ok, "encoder", ""),
        with(ok, "round", -1),
        with(ok, "step", -1L),
        with(ok, "features", 0),
        with(ok, "samples", -1L),
        with(ok, "variance", Double.NaN),
        with(ok, "variance", -1.0),
        with(ok, "variance", Double.POSITIVE_INFINITY),
        with(ok, "federation", "x".repeat(257)),
        with(ok, "sender", "bad \uD800 surrogate"),
        with(ok, "signature", new byte[1025]),
        with(ok, "prototypes", new float[5]),
        with(ok, "prototypes", new float[] {1, 2, 3, 4, 5, Float.NaN}),
        with(ok, "prototypes", new float[] {1, 2, 3, 4, 5, Float.NEGATIVE_INFINITY}),
        with(ok, "dim", 0),
        with(ok, "ledger", List.of("ok", "unpaired \uDC00")),
        with(Frames.ack(), "prototypes", new float[] {1}));
    for (ModelEnvelope e : bad) {
      assertThrows(IllegalArgumentException.class, () -> EnvelopeCodec.encode(e), e::toString);
    }
    float[] big = new float[6];
    Arrays.fill(big, Float.MAX_VALUE);
    ModelEnvelope overflow = with(ok, "prototypes", big);
    EnvelopeCodec.encode(overflow); // fine in float32
    IllegalArgumentException ex =
        assertThrows(IllegalArgumentException.class, () -> EnvelopeCodec.encode(overflow, Dtype.BFLOAT16));
    assertTrue(ex.getMessage().contains("overflows bfloat16"), ex.getMessage());
  }

  static int headerLength(byte[] frame) {
    return ByteBuffer.wrap(frame).order(ByteOrder.LITTLE_ENDIAN).getInt(5);
  }

  /** {@code e} with one component replaced. */
  static ModelEnvelope with(ModelEnvelope e, String what, Object v) {
    return new ModelEnvelope(e.kind(),
        what.equals("federation") ? (String) v : e.federation(),
        what.equals("sender") ? (String) v : e.sender(),
        what.equals("round") ? (Integer) v : e.round(),
        what.equals("step") ? (Long) v : e.step(),
        what.equals("encoder") ? (String) v : e.encoder(),
        what.equals("features") ? (Integer) v : e.features(),
        e.basisSeed(),
        what.equals("dim") ? (Integer) v : e.dim(),
        e.classes(),
        what.equals("variance") ? (Double) v : e.presentVariance(),
        what.equals("samples") ? (Long) v : e.samplesAbsorbed(),
        what.equals("ledger") ? castList(v) : e.ledgerLines(),
        what.equals("signature") ? (byte[]) v : e.signature(),
        what.equals("prototypes") ? (float[]) v : e.prototypes());
  }

  @SuppressWarnings("unchecked")
  private static List<String> castList(Object v) {
    return (List<String>) v;
  }
}
