package io.hdfl.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.hdfl.codec.ModelEnvelope.Kind;
import io.hdfl.fuzz.Contract;
import io.hdfl.fuzz.Seed;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

/**
 * Fuzz target of {@link Reassembler}: an input is a sequence of received packets, each {@code u8 op
 * | u16 length (LE) | packet}, where op's low 2 bits pick the sender (4 peers, so message ids
 * collide across senders) and its upper 6 bits advance the clock by that many 100 ms before the
 * packet arrives (the timeout is 5 s). One long-lived reassembler with small limits takes them all.
 * Only {@link ChunkException} may come out of an offer; what comes out is the unchunked frame
 * itself or an assembled message within the limit whose CRC matches; held bytes stay under the
 * cap; every frame that comes out then goes through {@link EnvelopeFuzzTest#check}; once the
 * timeout has passed nothing is held. {@link #chaos()} drives the same checks with a long seeded
 * scenario of split, dropped, duplicated, reordered and corrupted chunks.
 */
public class ReassemblerFuzzTest {
  private static final int MAX_MESSAGE = 4096;
  private static final long CAP = 8192;
  private static final int MAX_INCOMPLETE = 8;
  private static final Duration TIMEOUT = Duration.ofSeconds(5);
  private static final long TICK = Duration.ofMillis(100).toNanos();

  @FuzzTest(maxDuration = "60s")
  void offer(byte[] input) throws Exception {
    // Chunk payloads are copied once and assembled once; frames decode within EnvelopeFuzzTest's bounds;
    // a rejected packet costs its ChunkException (with a stack trace), a constant per packet of >= 3 input bytes.
    Contract.allocatesAtMost((1 << 20) + 64L * input.length + (16 << 10) * (input.length / 3L),
        "reassembling " + input.length + " bytes of packets", () -> run(input));
  }

  /** What a scenario exercised. */
  record Outcome(int offers, int framesDecoded, int framesRejected, Map<ChunkException.Reason, Integer> chunkReasons,
      Reassembler.Stats stats) {}

  static Outcome run(byte[] input) {
    AtomicLong now = new AtomicLong();
    Reassembler re = Reassembler.builder().timeout(TIMEOUT).clock(now::get).maxMessageBytes(MAX_MESSAGE)
        .maxBufferedBytes(CAP).maxChunksPerMessage(64).maxIncompleteMessages(MAX_INCOMPLETE).build();
    Map<ChunkException.Reason, Integer> reasons = new EnumMap<>(ChunkException.Reason.class);
    int offers = 0;
    int decoded = 0;
    int rejected = 0;
    ByteBuffer in = ByteBuffer.wrap(input).order(ByteOrder.LITTLE_ENDIAN);
    while (in.remaining() >= 3) {
      int op = in.get() & 0xFF;
      int len = Math.min(in.getShort() & 0xFFFF, in.remaining());
      byte[] packet = new byte[len];
      in.get(packet);
      now.addAndGet((op >>> 2) * TICK);
      offers++;
      byte[] out;
      try {
        out = re.offer("peer-" + (op & 3), packet).orElse(null);
      } catch (ChunkException ex) {
        Contract.oneLine(ex);
        assertNotNull(ex.reason());
        reasons.merge(ex.reason(), 1, Integer::sum);
        out = null;
      }
      Reassembler.Stats s = re.stats();
      assertTrue(s.reservedBytes() <= CAP, s::toString);
      assertTrue(s.bufferedBytes() >= 0 && s.bufferedBytes() <= s.reservedBytes(), s::toString);
      assertTrue(s.incompleteMessages() <= MAX_INCOMPLETE, s::toString);
      if (out == null) {
        continue;
      }
      if (isFrame(packet)) {
        assertSame(packet, out, "an unchunked frame passes through as it is");
      } else {
        assertTrue(out.length <= MAX_MESSAGE, "assembled " + out.length + " bytes");
        CRC32C crc = new CRC32C();
        crc.update(out);
        assertEquals(ByteBuffer.wrap(packet, 25, 4).order(ByteOrder.LITTLE_ENDIAN).getInt(), (int) crc.getValue());
      }
      if (EnvelopeFuzzTest.check(out, EnvelopeFuzzTest.ANY) != null) {
        decoded++;
      } else {
        rejected++;
      }
    }
    now.addAndGet(TIMEOUT.toNanos() + 1);
    re.expire();
    Reassembler.Stats s = re.stats();
    assertEquals(0, s.incompleteMessages(), s::toString);
    assertEquals(0, s.reservedBytes(), s::toString);
    assertEquals(0, s.bufferedBytes(), s::toString);
    return new Outcome(offers, decoded, rejected, reasons, s);
  }

  private static boolean isFrame(byte[] p) {
    return p.length >= 4 && (Arrays.equals(p, 0, 4, EnvelopeCodec.MAGIC, 0, 4)
        || Arrays.equals(p, 0, 4, EnvelopeCodec.SEALED_MAGIC, 0, 4));
  }

  /** Builds inputs of {@link #offer}. */
  static final class Scenario {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    /** {@code ticks} of 100 ms pass, then {@code sender} (0..3) delivers {@code packet}. */
    Scenario packet(int sender, int ticks, byte[] packet) {
      if (ticks < 0 || ticks > 63 || packet.length > 0xFFFF) {
        throw new IllegalArgumentException();
      }
      out.write(ticks << 2 | sender);
      out.write(packet.length);
      out.write(packet.length >>> 8);
      out.writeBytes(packet);
      return this;
    }

    Scenario packets(int sender, List<byte[]> packets) {
      packets.forEach(p -> packet(sender, 0, p));
      return this;
    }

    byte[] bytes() {
      return out.toByteArray();
    }
  }

  /**
   * The seeded chaos of the former ChunkFuzzTest, as one long input: dropped, duplicated, reordered
   * and corrupted chunks from several senders with colliding message ids, and random packets.
   */
  @Test
  void chaos() {
    SplittableRandom r = new SplittableRandom(77);
    Random shuffler = new Random(78);
    List<byte[]> frames = List.of(
        EnvelopeCodec.encode(Frames.model(Kind.RING_MODEL, 2, 100)),
        EnvelopeCodec.encode(Frames.model(Kind.CLIENT_UPDATE, 3, 200), Dtype.BFLOAT16),
        EnvelopeCodec.encode(Frames.model(Kind.FINAL_MODEL, 1, 700)),
        EnvelopeCodec.encode(Frames.ack()));
    Scenario sc = new Scenario();
    for (int round = 0; round < 3000; round++) {
      byte[] frame = frames.get(r.nextInt(frames.size()));
      int max = ChunkSplitter.HEADER_BYTES + 1
          + (r.nextInt(25) == 0 ? r.nextInt(40) : frame.length / 40 + r.nextInt(frame.length)); // mostly <= 64 chunks
      List<byte[]> packets = new ArrayList<>();
      for (byte[] p : ChunkSplitter.split(frame, max, r.nextInt(64))) {
        packets.add(p.clone());
      }
      int action = r.nextInt(6);
      if (action == 0 && packets.size() > 1) {
        packets.remove(r.nextInt(packets.size())); // lost chunk: must time out
      } else if (action == 1) {
        for (int i = r.nextInt(3); i >= 0; i--) {
          packets.add(packets.get(r.nextInt(packets.size())).clone());
        }
      } else if (action == 2 || action == 3) {
        for (int i = r.nextInt(3); i >= 0; i--) {
          int at = r.nextInt(packets.size());
          packets.set(at, mutate(packets.get(at), r));
        }
      } else if (action == 4) {
        byte[] junk = new byte[r.nextInt(64)];
        r.nextBytes(junk);
        if (junk.length >= 5 && r.nextBoolean()) {
          System.arraycopy(ChunkHeader.MAGIC, 0, junk, 0, 4);
          junk[4] = 1;
        }
        packets.add(junk);
      }
      Collections.shuffle(packets, shuffler);
      int sender = r.nextInt(3);
      for (byte[] p : packets) {
        sc.packet(sender, r.nextInt(5) == 0 ? 1 : 0, p); // 20 ms per packet on average
      }
    }
    Outcome o = run(sc.bytes());
    Reassembler.Stats s = o.stats();
    // The run exercised every path: completions, expiries, duplicates and many kinds of rejection.
    assertTrue(o.framesDecoded() > 300, "frames decoded " + o.framesDecoded());
    assertTrue(s.completed() > 100 && s.unchunked() > 100 && s.expired() > 20 && s.duplicates() > 50
        && s.discarded() > 50, s.toString());
    assertTrue(o.chunkReasons().size() >= 6, o.chunkReasons().toString());
    assertTrue(o.offers() > 10_000, "offers " + o.offers());
  }

  static byte[] mutate(byte[] p, SplittableRandom r) {
    byte[] b = switch (r.nextInt(4)) {
      case 0 -> Arrays.copyOf(p, r.nextInt(p.length + 1));
      case 1 -> Arrays.copyOf(p, p.length + 1 + r.nextInt(8));
      default -> p.clone();
    };
    for (int k = r.nextInt(3); k >= 0 && b.length > 0; k--) {
      int i = r.nextInt(r.nextBoolean() ? Math.min(b.length, ChunkHeader.BYTES) : b.length);
      b[i] = (byte) (r.nextBoolean() ? r.nextInt(256) : b[i] ^ (1 << r.nextInt(8)));
    }
    return b;
  }

  /** Small scenarios that reach every outcome, for the committed corpus. */
  public static List<Seed> seeds() {
    byte[] ring = EnvelopeCodec.encode(Frames.model(Kind.RING_MODEL, 2, 20));
    byte[] ack = EnvelopeCodec.encode(Frames.ack());
    List<byte[]> chunks = ChunkSplitter.split(ring, 80, 7);
    List<byte[]> reversed = new ArrayList<>(chunks);
    Collections.reverse(reversed);
    List<Seed> s = new ArrayList<>();
    s.add(seed("unchunked", new Scenario().packet(0, 0, ack).bytes()));
    s.add(seed("in-order", new Scenario().packets(1, chunks).bytes()));
    s.add(seed("reversed-with-duplicate", new Scenario().packets(2, reversed).packet(2, 0, chunks.get(1)).bytes()));
    Scenario two = new Scenario();
    for (int i = 0; i < chunks.size(); i++) {
      two.packet(0, 1, chunks.get(i)).packet(3, 1, chunks.get(chunks.size() - 1 - i));
    }
    s.add(seed("two-senders-same-id", two.bytes()));
    s.add(seed("lost-chunk-expires", new Scenario().packets(1, chunks.subList(1, chunks.size()))
        .packet(1, 60, chunks.get(0)).bytes()));
    byte[] bad = chunks.get(2).clone();
    bad[bad.length - 1] ^= 1;
    List<byte[]> corrupted = new ArrayList<>(chunks);
    corrupted.set(2, bad);
    s.add(seed("corrupted-payload", new Scenario().packets(0, corrupted).bytes()));
    s.add(seed("junk", new Scenario().packet(0, 0, "HDFC\u0001junk".getBytes(java.nio.charset.StandardCharsets.US_ASCII))
        .packet(1, 0, new byte[] {1, 2, 3}).bytes()));
    return s;
  }

  private static Seed seed(String name, byte[] bytes) {
    return new Seed(ReassemblerFuzzTest.class, "offer", name, bytes);
  }
}
