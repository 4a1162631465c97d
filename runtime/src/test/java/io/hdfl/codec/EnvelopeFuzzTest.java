package io.hdfl.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.hdfl.codec.ModelEnvelope.Kind;
import io.hdfl.fuzz.Contract;
import io.hdfl.fuzz.Seed;
import java.util.ArrayList;
import java.util.List;

/**
 * Fuzz target of {@link EnvelopeCodec#decode}: every frame a peer receives. Each input is decoded
 * twice, as a receiver that only enforces limits and as a realistic ring peer of federation
 * plant-7 (cos encoder, 617 features, D=100, S=2) with tight limits. Only {@link EnvelopeException}
 * may escape; a decoder's allocations stay within a small multiple of the frame; an accepted frame
 * satisfies the limits and expectations and re-encodes to an equal envelope.
 */
public class EnvelopeFuzzTest {
  static final long BASIS_SEED = -1234567890123L;
  /** Limits only, defaults (32 MiB frames): what a relay or a tool reading any frame uses. */
  static final Expectations ANY = Expectations.defaults();
  /** A ring peer of plant-7 with limits fitted to its model. */
  static final Expectations PEER = Expectations.builder().federation("plant-7").encoder("cos").features(617)
      .basisSeed(BASIS_SEED).dim(100).classes(2).maxFrameBytes(64 << 10).maxHeaderBytes(16 << 10)
      .maxLedgerLines(8).maxLedgerLineBytes(4096).maxDim(1000).maxClasses(32).maxValues(4096).build();

  @FuzzTest(maxDuration = "60s")
  void decode(byte[] frame) throws Exception {
    // The tensor (at most 2x the frame as float32), strings and ledger lines, and the re-encoding
    // of an accepted frame: all bounded by the frame, never by a size it declares.
    byte[] fixed = withValidCrc(frame);
    Contract.allocatesAtMost((1 << 20) + 32L * frame.length, "decoding a frame of " + frame.length + " bytes", () -> {
      check(frame, ANY);
      check(frame, PEER);
      if (fixed != null) {
        check(fixed, ANY);
        check(fixed, PEER);
      }
    });
  }

  /**
   * {@code frame} with its trailing CRC-32C recomputed, or null if it is too short to have one: the
   * fuzzer cannot forge checksums, so each input is also decoded as if it had arrived intact, which
   * lets mutations reach the header and tensor checks behind the CRC.
   */
  public static byte[] withValidCrc(byte[] frame) {
    if (frame.length < EnvelopeCodec.PREFIX_BYTES + EnvelopeCodec.CRC_BYTES) {
      return null;
    }
    return Frames.withCrc(frame.clone());
  }

  /** Decodes {@code frame} under {@code x} and checks the outcome; returns the envelope or null. */
  public static ModelEnvelope check(byte[] frame, Expectations x) {
    ModelEnvelope e;
    try {
      e = EnvelopeCodec.decode(frame, x);
    } catch (EnvelopeException ex) {
      Contract.oneLine(ex);
      assertNotNull(ex.reason());
      return null;
    }
    accepted(frame, e, x);
    return e;
  }

  private static void accepted(byte[] frame, ModelEnvelope e, Expectations x) {
    assertTrue(frame.length <= x.maxFrameBytes());
    assertTrue(!e.federation().isEmpty() && !e.sender().isEmpty());
    assertTrue(Expectations.matches(x.federation(), e.federation()));
    assertTrue(e.round() >= 0 && e.step() >= 0 && e.samplesAbsorbed() >= 0);
    assertTrue(e.presentVariance() >= 0 && Double.isFinite(e.presentVariance()));
    assertTrue(e.ledgerLines().size() <= x.maxLedgerLines());
    assertTrue(e.signature().length <= EnvelopeHeader.MAX_SIGNATURE_BYTES);
    if (e.kind() == Kind.ACK) {
      assertEquals(0, e.prototypes().length);
    } else {
      assertTrue(e.dim() >= 1 && e.dim() <= x.maxDim() && e.classes() >= 1 && e.classes() <= x.maxClasses());
      assertEquals((long) e.dim() * e.classes(), e.prototypes().length);
      assertTrue(e.prototypes().length <= x.maxValues());
      for (float v : e.prototypes()) {
        assertTrue(Float.isFinite(v));
      }
      assertTrue(!e.encoder().isEmpty() && e.features() >= 1);
      assertTrue(Expectations.matches(x.encoder(), e.encoder()));
      assertTrue(Expectations.matches(x.features(), e.features()));
      assertTrue(Expectations.matches(x.basisSeed(), e.basisSeed()));
      assertTrue(Expectations.matches(x.dim(), e.dim()));
      assertTrue(Expectations.matches(x.classes(), e.classes()));
    }
    // Whatever a receiver accepts, a sender can write (BroadcastSignature re-encodes received
    // envelopes), and it reads back the same.
    ModelEnvelope back = EnvelopeCodec.decode(EnvelopeCodec.encode(e), ANY);
    assertSame(e, back);
  }

  /** Field by field; arrays by content (floats bit for bit). */
  static void assertSame(ModelEnvelope a, ModelEnvelope b) {
    assertEquals(List.of(a.kind(), a.federation(), a.sender(), a.round(), a.step(), a.encoder(), a.features(),
        a.basisSeed(), a.dim(), a.classes(), a.presentVariance(), a.samplesAbsorbed(), a.ledgerLines()),
        List.of(b.kind(), b.federation(), b.sender(), b.round(), b.step(), b.encoder(), b.features(),
        b.basisSeed(), b.dim(), b.classes(), b.presentVariance(), b.samplesAbsorbed(), b.ledgerLines()));
    assertArrayEquals(a.signature(), b.signature());
    assertArrayEquals(a.prototypes(), b.prototypes());
  }

  /** Small valid frames of every kind and dtype, and near misses, for the committed corpus. */
  public static List<Seed> seeds() {
    List<Seed> s = new ArrayList<>();
    ModelEnvelope ring = Frames.model(Kind.RING_MODEL, 2, 100);
    s.add(seed("ring-model-f32", EnvelopeCodec.encode(ring)));
    s.add(seed("ring-model-bf16", EnvelopeCodec.encode(ring, Dtype.BFLOAT16)));
    s.add(seed("ack", EnvelopeCodec.encode(Frames.ack())));
    s.add(seed("client-update-3x5", EnvelopeCodec.encode(Frames.model(Kind.CLIENT_UPDATE, 3, 5))));
    s.add(seed("global-model-signed", EnvelopeCodec.encode(
        Frames.model(Kind.GLOBAL_MODEL, 1, 4).withSignature(new byte[64]))));
    Frames.H h = new Frames.H();
    h.ledgerLines = List.of("{\"v\":1}", "", "ledger line with \u00e9");
    s.add(seed("hand-ledger-lines", h.frame()));
    h = new Frames.H();
    h.dtype = Dtype.BFLOAT16;
    s.add(seed("hand-bf16-2x3", h.frame()));
    byte[] wrongCrc = EnvelopeCodec.encode(Frames.model(Kind.FINAL_MODEL, 1, 3));
    wrongCrc[wrongCrc.length - 1] ^= 1;
    s.add(seed("final-model-bad-crc", wrongCrc));
    return s;
  }

  private static Seed seed(String name, byte[] bytes) {
    return new Seed(EnvelopeFuzzTest.class, "decode", name, bytes);
  }
}
