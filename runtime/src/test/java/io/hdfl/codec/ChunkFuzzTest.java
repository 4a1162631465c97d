package io.hdfl.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.hdfl.codec.ModelEnvelope.Kind;
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
import org.junit.jupiter.api.Test;

/**
 * Seeded chaos on the chunk path: dropped, duplicated, reordered and corrupted chunks from several
 * senders with colliding message ids, and random packets, into one long-lived reassembler with
 * small limits. Only ChunkException may come out of it; its held bytes stay under the cap; an
 * assembled frame either decodes or fails with EnvelopeException; no offer allocates much.
 */
class ChunkFuzzTest {
  private static final int MAX_MESSAGE = 4096;
  private static final long CAP = 8192;
  private static final int MAX_INCOMPLETE = 8;

  @Test
  void chaosOnlyEverThrowsChunkOrEnvelopeException() {
    SplittableRandom r = new SplittableRandom(77);
    Random shuffler = new Random(78);
    List<byte[]> frames = List.of(
        EnvelopeCodec.encode(Frames.model(Kind.RING_MODEL, 2, 100)),
        EnvelopeCodec.encode(Frames.model(Kind.CLIENT_UPDATE, 3, 200), Dtype.BFLOAT16),
        EnvelopeCodec.encode(Frames.model(Kind.FINAL_MODEL, 1, 700)),
        EnvelopeCodec.encode(Frames.ack()));
    AtomicLong now = new AtomicLong();
    Reassembler re = Reassembler.builder().timeout(Duration.ofSeconds(5)).clock(now::get).maxMessageBytes(MAX_MESSAGE)
        .maxBufferedBytes(CAP).maxChunksPerMessage(64).maxIncompleteMessages(MAX_INCOMPLETE).build();
    Map<ChunkException.Reason, Integer> chunkReasons = new EnumMap<>(ChunkException.Reason.class);
    int frameOk = 0;
    int frameRejected = 0;
    int offers = 0;
    for (int round = 0; round < 3000; round++) {
      byte[] frame = frames.get(r.nextInt(frames.size()));
      int max = ChunkSplitter.HEADER_BYTES + 1
          + (r.nextInt(25) == 0 ? r.nextInt(40) : frame.length / 40 + r.nextInt(frame.length)); // mostly <= 64 chunks
      List<byte[]> packets = new ArrayList<>();
      for (byte[] p : ChunkSplitter.split(frame, max, r.nextInt(64))) {
        packets.add(p.clone());
      }
      String sender = "peer-" + r.nextInt(3);
      int action = r.nextInt(6);
      if (action == 0 && packets.size() > 1) {
        packets.remove(r.nextInt(packets.size())); // lost chunk: must time out
      } else if (action == 1) {
        for (int i = r.nextInt(3); i >= 0; i--) {
          packets.add(packets.get(r.nextInt(packets.size())).clone());
        }
      } else if (action == 2 || action == 3) {
        for (int i = r.nextInt(3); i >= 0; i--) {
          byte[] p = packets.get(r.nextInt(packets.size()));
          packets.set(packets.indexOf(p), mutate(p, r));
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
      for (byte[] p : packets) {
        now.addAndGet(r.nextLong(Duration.ofMillis(20).toNanos()));
        long before = Frames.allocatedBytes();
        try {
          offers++;
          byte[] out = re.offer(sender, p).orElse(null);
          if (out != null) {
            try {
              EnvelopeCodec.decode(out, Expectations.defaults());
              frameOk++;
            } catch (EnvelopeException ex) {
              frameRejected++;
              assertFalse(ex.getMessage().contains("\n"));
            }
          }
        } catch (ChunkException ex) {
          chunkReasons.merge(ex.reason(), 1, Integer::sum);
          assertFalse(ex.getMessage().contains("\n"), ex.getMessage());
        } catch (RuntimeException | Error ex) {
          throw new AssertionError("round " + round + ": " + ex, ex);
        }
        long allocated = Frames.allocatedBytes() - before;
        // Bounded by the packet, one assembled message and one-time costs, never by a claim.
        if (before >= 0 && allocated > (1 << 20)) {
          fail("round " + round + ": one offer allocated " + allocated + " bytes");
        }
        Reassembler.Stats s = re.stats();
        assertTrue(s.reservedBytes() <= CAP, s.toString());
        assertTrue(s.bufferedBytes() <= s.reservedBytes(), s.toString());
        assertTrue(s.incompleteMessages() <= MAX_INCOMPLETE, s.toString());
      }
    }
    now.addAndGet(Duration.ofSeconds(6).toNanos());
    re.expire();
    Reassembler.Stats s = re.stats();
    assertEquals(0, s.incompleteMessages());
    assertEquals(0, s.reservedBytes());
    assertEquals(0, s.bufferedBytes());
    // The run exercised every path: completions, expiries, duplicates and many kinds of rejection.
    assertTrue(frameOk > 300, "frames decoded " + frameOk);
    assertTrue(s.completed() > 100 && s.unchunked() > 100 && s.expired() > 20 && s.duplicates() > 50
        && s.discarded() > 50, s.toString());
    assertTrue(chunkReasons.size() >= 6, chunkReasons.toString());
    assertTrue(offers > 10_000, "offers " + offers);
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
}
