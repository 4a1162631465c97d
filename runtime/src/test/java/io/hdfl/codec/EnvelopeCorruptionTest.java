package io.hdfl.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.hdfl.codec.EnvelopeException.Reason;
import io.hdfl.codec.ModelEnvelope.Kind;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Truncation, bit flips, hostile size claims and seeded random corruption. */
class EnvelopeCorruptionTest {
  private static final Expectations ANY = Expectations.defaults();

  private static List<byte[]> smallFrames() {
    return List.of(
        EnvelopeCodec.encode(Frames.model(Kind.RING_MODEL, 2, 5)),
        EnvelopeCodec.encode(Frames.model(Kind.CLIENT_UPDATE, 3, 4), Dtype.BFLOAT16),
        EnvelopeCodec.encode(Frames.ack()));
  }

  @Test
  void everyTruncationIsRejected() {
    for (byte[] frame : smallFrames()) {
      for (int len = 0; len < frame.length; len++) {
        byte[] cut = Arrays.copyOf(frame, len);
        EnvelopeException ex = assertThrows(EnvelopeException.class, () -> EnvelopeCodec.decode(cut, ANY), "length " + len);
        Reason want = len < 13 || len < 13 + EnvelopeCodecTest.headerLength(frame) ? Reason.TRUNCATED : Reason.BAD_CHECKSUM;
        assertEquals(want, ex.reason(), "length " + len + ": " + ex.getMessage());
      }
      // One byte too many is caught as well.
      byte[] longer = Arrays.copyOf(frame, frame.length + 1);
      assertThrows(EnvelopeException.class, () -> EnvelopeCodec.decode(longer, ANY));
    }
  }

  @Test
  void everySingleBitFlipIsDetected() {
    for (byte[] frame : smallFrames()) {
      for (int bit = 0; bit < frame.length * 8; bit++) {
        byte[] f = frame.clone();
        f[bit >>> 3] ^= (byte) (1 << (bit & 7));
        EnvelopeException ex = assertThrows(EnvelopeException.class, () -> EnvelopeCodec.decode(f, ANY), "bit " + bit);
        int at = bit >>> 3;
        if (at < 4) {
          assertEquals(Reason.BAD_MAGIC, ex.reason());
        } else if (at == 4) {
          assertEquals(Reason.UNSUPPORTED_VERSION, ex.reason());
        } else if (at >= 9) {
          assertEquals(Reason.BAD_CHECKSUM, ex.reason(), "bit " + bit);
        }
      }
    }
  }

  private static ByteBuffer le(byte[] b) {
    return ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
  }

  @Test
  void hugeClaimedTensorOnTinyFrameFailsWithoutAllocating() {
    // Limits opened wide so that only the tensor-length check stands between the claim and an
    // allocation of 2^20 x 2^16 floats (256 GiB).
    Expectations wide = Expectations.builder().maxDim(1 << 20).maxClasses(1 << 16).maxValues(Long.MAX_VALUE).build();
    Frames.H h = new Frames.H();
    h.dim = 1 << 20;
    h.classes = 1 << 16;
    byte[] frame = h.frame(Frames.f32(1, 2, 3));
    EnvelopeCodec.decode(new Frames.H().frame(), wide); // warm up the code path
    long before = Frames.allocatedBytes();
    EnvelopeException ex = assertThrows(EnvelopeException.class, () -> EnvelopeCodec.decode(frame, wide));
    long allocated = Frames.allocatedBytes() - before;
    assertEquals(Reason.TENSOR_LENGTH, ex.reason(), ex.getMessage());
    if (before >= 0) {
      assertTrue(allocated < 200_000, "allocated " + allocated + " bytes");
    }
    // Same with the default limits: the claim is refused by the S·D limit.
    assertEquals(Reason.LIMIT_EXCEEDED, assertThrows(EnvelopeException.class, () -> EnvelopeCodec.decode(frame, ANY)).reason());
  }

  @Test
  void hugeClaimedLengthPrefixesFailWithoutAllocating() {
    byte[] header = new Frames.H().bytes();
    byte[][] claims = {
        append(header, out -> { // ledger line claiming 2 GiB
          out.writeTag(14, 2);
          out.writeUInt32NoTag(Integer.MAX_VALUE);
        }),
        append(header, out -> { // signature claiming 2^63
          out.writeTag(15, 2);
          out.writeUInt64NoTag(Long.MAX_VALUE);
        }),
        append(header, out -> { // unknown field claiming 1 GiB
          out.writeTag(77, 2);
          out.writeUInt32NoTag(1 << 30);
        })};
    for (byte[] hb : claims) {
      byte[] frame = Frames.frame(hb, Frames.f32(1, 2, 3, 4, 5, 6));
      long before = Frames.allocatedBytes();
      EnvelopeException ex = assertThrows(EnvelopeException.class, () -> EnvelopeCodec.decode(frame, ANY));
      long allocated = Frames.allocatedBytes() - before;
      assertEquals(Reason.MALFORMED_HEADER, ex.reason(), ex.getMessage());
      if (before >= 0) {
        assertTrue(allocated < 200_000, "allocated " + allocated + " bytes");
      }
    }
  }

  private static byte[] append(byte[] header, EnvelopeRejectionTest.Fields f) {
    return EnvelopeRejectionTest.concat(header, EnvelopeRejectionTest.pb(f));
  }

  /**
   * Seeded corruption: a third of the mutants keep a wrong CRC, the rest have it recomputed (and
   * sometimes the header length fixed up) so that the header parser and the semantic checks see the
   * damage. Decoding must either succeed with a consistent envelope or throw EnvelopeException,
   * and never allocate more than a small multiple of the frame.
   */
  @Test
  void randomCorruptionOnlyEverThrowsEnvelopeException() {
    SplittableRandom r = new SplittableRandom(20261121);
    List<byte[]> seeds = List.of(
        EnvelopeCodec.encode(Frames.model(Kind.RING_MODEL, 2, 5)),
        EnvelopeCodec.encode(Frames.model(Kind.GLOBAL_MODEL, 3, 4), Dtype.BFLOAT16),
        EnvelopeCodec.encode(Frames.model(Kind.FINAL_MODEL, 1, 40)),
        EnvelopeCodec.encode(Frames.ack()));
    Map<Reason, Integer> reasons = new EnumMap<>(Reason.class);
    int accepted = 0;
    int rounds = 4000;
    for (int round = 0; round < rounds; round++) {
      byte[] valid = seeds.get(r.nextInt(seeds.size()));
      byte[] f = mutate(valid, r);
      int mode = r.nextInt(3);
      if (mode > 0 && f.length >= 13) {
        if (mode == 2) {
          int delta = f.length - valid.length; // keep the header length consistent with a resized header
          le(f).putInt(5, EnvelopeCodecTest.headerLength(valid) + delta);
        }
        Frames.withCrc(f);
      }
      try {
        ModelEnvelope e = EnvelopeCodec.decode(f, ANY);
        accepted++;
        assertEquals(e.kind() == Kind.ACK ? 0 : (long) e.dim() * e.classes(), e.prototypes().length);
        for (float v : e.prototypes()) {
          assertTrue(Float.isFinite(v));
        }
        assertFalse(e.federation().isEmpty() || e.sender().isEmpty());
      } catch (EnvelopeException ex) {
        reasons.merge(ex.reason(), 1, Integer::sum);
        assertFalse(ex.getMessage().contains("\n"), ex.getMessage());
      } catch (RuntimeException | Error ex) {
        throw new AssertionError("round " + round + ": " + ex, ex);
      }
      // Allocation, measured on a second decode of the same bytes: the first run of a code path
      // also pays one-time costs (class loading, string-concatenation call-site linkage).
      long before = Frames.allocatedBytes();
      try {
        EnvelopeCodec.decode(f, ANY);
      } catch (EnvelopeException expected) {
        // already counted
      }
      long allocated = Frames.allocatedBytes() - before;
      if (before >= 0 && allocated > 32L * 1024 + 8L * f.length) {
        fail("round " + round + " allocated " + allocated + " bytes for a frame of " + f.length);
      }
    }
    // The fuzz reaches deep: the CRC-fixed mutants exercise the header parser and the semantic checks.
    assertTrue(reasons.getOrDefault(Reason.BAD_CHECKSUM, 0) > 100, reasons.toString());
    assertTrue(reasons.getOrDefault(Reason.MALFORMED_HEADER, 0) > 100, reasons.toString());
    assertTrue(reasons.size() >= 8, reasons.toString());
    assertTrue(accepted > 0 && accepted < rounds / 2, "accepted " + accepted);
  }

  static byte[] mutate(byte[] valid, SplittableRandom r) {
    byte[] b;
    switch (r.nextInt(5)) {
      case 0 -> b = Arrays.copyOf(valid, r.nextInt(valid.length + 1)); // truncate
      case 1 -> { // insert junk inside the header
        int at = 9 + r.nextInt(Math.max(1, EnvelopeCodecTest.headerLength(valid)));
        int n = 1 + r.nextInt(8);
        b = new byte[valid.length + n];
        System.arraycopy(valid, 0, b, 0, at);
        for (int i = 0; i < n; i++) {
          b[at + i] = (byte) r.nextInt(256);
        }
        System.arraycopy(valid, at, b, at + n, valid.length - at);
      }
      case 2 -> { // delete a run of bytes
        int at = r.nextInt(valid.length);
        int n = 1 + r.nextInt(Math.min(8, valid.length - at));
        b = new byte[valid.length - n];
        System.arraycopy(valid, 0, b, 0, at);
        System.arraycopy(valid, at + n, b, at, valid.length - at - n);
      }
      default -> b = valid.clone();
    }
    int flips = r.nextInt(4);
    for (int k = 0; k < flips && b.length > 0; k++) {
      // Mostly in the prefix and header, where the structure is.
      int hdr = Math.min(b.length, 9 + EnvelopeCodecTest.headerLength(valid));
      int i = r.nextInt(r.nextInt(4) > 0 ? hdr : b.length);
      b[i] = (byte) (r.nextBoolean() ? r.nextInt(256) : b[i] ^ (1 << r.nextInt(8)));
    }
    return b;
  }
}
