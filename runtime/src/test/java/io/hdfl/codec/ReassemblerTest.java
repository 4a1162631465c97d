package io.hdfl.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hdfl.codec.ChunkException.Reason;
import io.hdfl.codec.ModelEnvelope.Kind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

class ReassemblerTest {
  static final byte[] FRAME = EnvelopeCodec.encode(Frames.model(Kind.GLOBAL_MODEL, 3, 100));
  final AtomicLong now = new AtomicLong(1_000_000_000L);

  Reassembler.Builder builder() {
    return Reassembler.builder().timeout(Duration.ofSeconds(10)).clock(now::get);
  }

  /** Offers every packet; returns the frames that came out. */
  static List<byte[]> offerAll(Reassembler r, String sender, List<byte[]> packets) {
    List<byte[]> out = new ArrayList<>();
    for (byte[] p : packets) {
      r.offer(sender, p).ifPresent(out::add);
    }
    return out;
  }

  static ChunkException reject(Reason reason, Reassembler r, String sender, byte[] packet) {
    ChunkException ex = assertThrows(ChunkException.class, () -> r.offer(sender, packet));
    assertEquals(reason, ex.reason(), ex.getMessage());
    assertFalse(ex.getMessage().contains("\n"));
    assertTrue(ex.getMessage().startsWith(reason + ": "), ex.getMessage());
    return ex;
  }

  /** A chunk with an arbitrary header. */
  static byte[] chunk(long id, int index, int count, long total, int crc, byte[] payload) {
    byte[] p = new byte[ChunkHeader.BYTES + payload.length];
    new ChunkHeader(id, index, count, total, crc).write(p);
    System.arraycopy(payload, 0, p, ChunkHeader.BYTES, payload.length);
    return p;
  }

  static int crc(byte[] b) {
    CRC32C c = new CRC32C();
    c.update(b);
    return (int) c.getValue();
  }

  @Test
  void reassemblesAcrossPacketSizes() {
    int h = ChunkSplitter.HEADER_BYTES;
    int n = FRAME.length;
    int[] sizes = {
        n, // fits: unchunked
        n - 1, // one byte over the limit: two chunks
        h + 1, // one payload byte per chunk
        h + 2, h + 7, h + 64, h + 1000,
        h + n / 2 + (n % 2), // two chunks, second one byte shorter or equal
        h + divisor(n, 2), h + divisor(n, 3), // exact multiples: every chunk full
        h + n - 1, h + n};
    for (int max : sizes) {
      Reassembler r = builder().build();
      List<byte[]> packets = ChunkSplitter.split(FRAME, max, 42);
      for (byte[] p : packets) {
        assertTrue(p.length <= max, "packet of " + p.length + " > " + max);
      }
      if (max >= n) {
        assertEquals(1, packets.size());
        List<byte[]> out = offerAll(r, "a", packets);
        assertSame(FRAME, out.get(0));
        assertEquals(1, r.stats().unchunked());
      } else {
        long payload = max - h;
        assertEquals((n + payload - 1) / payload, packets.size(), "max " + max);
        List<byte[]> out = offerAll(r, "a", packets);
        assertEquals(1, out.size(), "max " + max);
        assertArrayEquals(FRAME, out.get(0));
        assertEquals(1, r.stats().completed());
      }
      assertEquals(0, r.stats().incompleteMessages());
      assertEquals(0, r.stats().reservedBytes());
      assertEquals(0, r.stats().bufferedBytes());
    }
  }

  /** The smallest divisor of n that is at least n / k (so n splits into at most k full chunks). */
  static int divisor(int n, int k) {
    for (int d = (n + k - 1) / k; d <= n; d++) {
      if (n % d == 0) {
        return d;
      }
    }
    return n;
  }

  @Test
  void exactMultiplesLeaveNoShortChunk() {
    // A frame whose length is a multiple of 60, padded through a ledger line.
    byte[] frame = null;
    for (int pad = 0; frame == null || frame.length % 60 != 0; pad++) {
      ModelEnvelope m = Frames.model(Kind.RING_MODEL, 2, 50);
      frame = EnvelopeCodec.encode(new ModelEnvelope(m.kind(), m.federation(), m.sender(), m.round(), m.step(),
          m.encoder(), m.features(), m.basisSeed(), m.dim(), m.classes(), m.presentVariance(), m.samplesAbsorbed(),
          List.of("x".repeat(pad)), null, m.prototypes()));
    }
    for (int payload : new int[] {30, 60, frame.length / 2, frame.length / 3}) {
      List<byte[]> packets = ChunkSplitter.split(frame, ChunkSplitter.HEADER_BYTES + payload, 9);
      assertEquals(frame.length / payload, packets.size());
      for (byte[] p : packets) {
        assertEquals(ChunkSplitter.HEADER_BYTES + payload, p.length);
      }
      assertArrayEquals(frame, offerAll(builder().build(), "a", packets).get(0));
    }
  }

  @Test
  void shuffledOrderAndDuplicates() {
    Random rnd = new Random(5);
    for (int trial = 0; trial < 50; trial++) {
      Reassembler r = builder().build();
      List<byte[]> packets = new ArrayList<>(ChunkSplitter.split(FRAME, 29 + 37 + trial, trial));
      int count = packets.size();
      List<byte[]> withDups = new ArrayList<>(packets);
      for (int i = 0; i < 5; i++) {
        withDups.add(packets.get(rnd.nextInt(count)).clone());
      }
      Collections.shuffle(withDups, rnd);
      List<byte[]> out = offerAll(r, "a", withDups);
      assertEquals(1, out.size());
      assertArrayEquals(FRAME, out.get(0));
      assertEquals(5, r.stats().duplicates());
      // Late duplicates (QoS 1 redelivery) after completion do not start a new message.
      assertEquals(Optional.empty(), r.offer("a", packets.get(0)));
      assertEquals(0, r.stats().incompleteMessages());
      assertEquals(6, r.stats().duplicates());
    }
  }

  @Test
  void sendersHaveSeparateMessageIds() {
    byte[] other = EnvelopeCodec.encode(Frames.model(Kind.CLIENT_UPDATE, 2, 70));
    List<byte[]> a = ChunkSplitter.split(FRAME, 200, 7);
    List<byte[]> b = ChunkSplitter.split(other, 200, 7);
    Reassembler r = builder().build();
    List<byte[]> outA = new ArrayList<>();
    List<byte[]> outB = new ArrayList<>();
    for (int i = 0; i < Math.max(a.size(), b.size()); i++) {
      if (i < a.size()) {
        r.offer("peer-a", a.get(i)).ifPresent(outA::add);
      }
      if (i < b.size()) {
        r.offer("peer-b", b.get(i)).ifPresent(outB::add);
      }
    }
    assertArrayEquals(FRAME, outA.get(0));
    assertArrayEquals(other, outB.get(0));
  }

  @Test
  void missingChunkTimesOut() {
    Reassembler r = builder().build();
    List<byte[]> packets = ChunkSplitter.split(FRAME, 300, 1);
    offerAll(r, "a", packets.subList(0, packets.size() - 1));
    assertEquals(1, r.stats().incompleteMessages());
    assertEquals(FRAME.length, r.stats().reservedBytes());
    assertTrue(r.stats().bufferedBytes() > 0);
    now.addAndGet(Duration.ofSeconds(10).toNanos() - 1);
    assertEquals(0, r.expire());
    assertEquals(1, r.stats().incompleteMessages());
    now.addAndGet(1);
    assertEquals(1, r.expire());
    assertEquals(new Reassembler.Stats(0, 0, 0, 0, 1, 0, 0, 0, 0, 0), r.stats());
    // The straggler arrives late: ignored, not the start of a message that can never complete.
    assertEquals(Optional.empty(), r.offer("a", packets.get(packets.size() - 1)));
    assertEquals(0, r.stats().incompleteMessages());
    assertEquals(1, r.stats().discarded());
    // Expiry also happens on offer, without an explicit expire().
    offerAll(r, "a", ChunkSplitter.split(FRAME, 300, 2).subList(0, 2));
    now.addAndGet(Duration.ofSeconds(11).toNanos());
    assertSame(FRAME, r.offer("b", FRAME).orElseThrow());
    assertEquals(2, r.stats().expired());
    assertEquals(0, r.stats().incompleteMessages());
    // Once forgotten, the same id from the same sender can be sent again.
    List<byte[]> again = ChunkSplitter.split(FRAME, 300, 1);
    assertArrayEquals(FRAME, offerAll(r, "a", again).get(0));
  }

  @Test
  void memoryCapIsCheckedAgainstTheClaimedLengthBeforeAllocating() {
    Reassembler r = builder().maxBufferedBytes(FRAME.length + FRAME.length / 2).build();
    List<byte[]> one = ChunkSplitter.split(FRAME, 300, 1);
    List<byte[]> two = ChunkSplitter.split(FRAME, 300, 2);
    assertEquals(Optional.empty(), r.offer("a", one.get(0)));
    reject(Reason.MEMORY_CAP, r, "c", two.get(0)); // other senders share the cap
    reject(Reason.MEMORY_CAP, r, "b", two.get(1));
    // The refused message cannot complete any more: its other chunks are discarded quietly.
    assertEquals(Optional.empty(), r.offer("c", two.get(1)));
    assertEquals(Optional.empty(), r.offer("c", two.get(2)));
    assertEquals(2, r.stats().discarded());
    assertArrayEquals(FRAME, offerAll(r, "a", one.subList(1, one.size())).get(0));
    assertArrayEquals(FRAME, offerAll(r, "a", ChunkSplitter.split(FRAME, 300, 3)).get(0)); // room again
    assertEquals(2, r.stats().rejected());

    // A claim of 4 GiB against the defaults: refused without allocating anything near it.
    Reassembler d = Reassembler.builder().build();
    byte[] huge = chunk(3, 0, 2, 0xFFFF_FFFFL, 0, new byte[100]);
    byte[] big = chunk(3, 0, 4096, 64L << 20, 0, new byte[100]);
    reject(Reason.MESSAGE_TOO_LARGE, d, "warm-up", huge);
    long before = Frames.allocatedBytes();
    reject(Reason.MESSAGE_TOO_LARGE, d, "a", huge);
    reject(Reason.MESSAGE_TOO_LARGE, d, "b", big);
    long allocated = Frames.allocatedBytes() - before;
    if (before >= 0) {
      assertTrue(allocated < 100_000, "allocated " + allocated);
    }
    Reassembler capped = Reassembler.builder().maxMessageBytes(1 << 30).maxBufferedBytes(1 << 20).build();
    reject(Reason.MEMORY_CAP, capped, "a", chunk(4, 0, 4096, 1 << 29, 0, new byte[(1 << 29) / 4096])); // a first chunk of the size its claim needs
    assertEquals(0, capped.stats().reservedBytes());
  }

  @Test
  void chunkAndMessageCountLimits() {
    Reassembler r = builder().maxChunksPerMessage(4).maxIncompleteMessages(2).build();
    reject(Reason.TOO_MANY_CHUNKS, r, "a", ChunkSplitter.split(FRAME, FRAME.length / 4, 1).get(0));
    r.offer("a", ChunkSplitter.split(FRAME, FRAME.length / 2 + 40, 2).get(0));
    r.offer("b", ChunkSplitter.split(FRAME, FRAME.length / 2 + 40, 2).get(0));
    reject(Reason.TOO_MANY_MESSAGES, r, "c", ChunkSplitter.split(FRAME, FRAME.length / 2 + 40, 2).get(0));
    assertEquals(2, r.stats().incompleteMessages());
  }

  /**
   * One sender (a topic) cannot take what the others need: a new message beyond its share of the
   * incomplete messages or of the bytes supersedes its own oldest, and another sender's messages still
   * get in and complete. Before, one sender's first chunks filled both caps and every other chunked
   * message was refused until they timed out.
   */
  @Test
  void aSenderBeyondItsShareSupersedesItsOwnOldestAndTheOthersStillGetIn() {
    Reassembler r = builder().maxIncompleteMessages(8).build(); // a share of 2 incomplete messages
    for (int id = 1; id <= 8; id++) {
      assertEquals(Optional.empty(), r.offer("flood", chunk(id, 0, 2, FRAME.length, id, new byte[FRAME.length / 2 + 1])));
    }
    assertEquals(2, r.stats().incompleteMessages());
    assertEquals(6, r.stats().superseded());
    assertEquals(0, r.stats().rejected());
    assertArrayEquals(FRAME, offerAll(r, "peer", ChunkSplitter.split(FRAME, 300, 1)).get(0));
    // the superseded message's later chunks are dropped quietly
    long discarded = r.stats().discarded();
    assertEquals(Optional.empty(), r.offer("flood", chunk(1, 1, 2, FRAME.length, 1, new byte[FRAME.length / 2 - 1])));
    assertEquals(discarded + 1, r.stats().discarded());

    // bytes: a share is half the cap (two frames of four)
    Reassembler bytes = builder().maxMessageBytes(FRAME.length).maxBufferedBytes(4L * FRAME.length).build();
    for (int id = 1; id <= 4; id++) {
      bytes.offer("flood", chunk(id, 0, 2, FRAME.length, id, new byte[FRAME.length / 2 + 1]));
    }
    assertEquals(2L * FRAME.length, bytes.stats().reservedBytes());
    assertEquals(2, bytes.stats().superseded());
    List<byte[]> one = ChunkSplitter.split(FRAME, 300, 1);
    assertEquals(Optional.empty(), bytes.offer("peer", one.get(0)));
    assertArrayEquals(FRAME, offerAll(bytes, "peer", ChunkSplitter.split(FRAME, 300, 2)).get(0));
    assertArrayEquals(FRAME, offerAll(bytes, "peer", one.subList(1, one.size())).get(0));
    // the flood's messages expire, and it sends again
    now.addAndGet(Duration.ofSeconds(10).toNanos());
    assertArrayEquals(FRAME, offerAll(bytes, "flood", ChunkSplitter.split(FRAME, 300, 5)).get(0));
    assertEquals(0, bytes.stats().reservedBytes());
    // a share is counted down as its messages complete (where a full share refuses, without superseding)
    Reassembler strict = builder().maxMessageBytes(FRAME.length).maxBufferedBytes(2L * FRAME.length)
        .maxBufferedBytesPerSender(FRAME.length).superseding(false).build();
    assertArrayEquals(FRAME, offerAll(strict, "a", ChunkSplitter.split(FRAME, 300, 1)).get(0));
    assertArrayEquals(FRAME, offerAll(strict, "a", ChunkSplitter.split(FRAME, 300, 2)).get(0));
    assertThrows(IllegalArgumentException.class, () -> Reassembler.builder().maxIncompletePerSender(0));
    assertThrows(IllegalArgumentException.class, () -> Reassembler.builder().maxBufferedBytesPerSender(0));
  }

  /**
   * A frame sent again while its first copy stalled (a publish cut off mid-chunks, then a resend with a
   * new message id) gets through at once even where the cap holds only one of them: the stalled copy
   * is superseded. Before, the resend was refused until the copy timed out (60 s by default), longer
   * than a ring waits for its acknowledgement. A first chunk that cannot belong to its message, or a
   * message the cap refuses anyway, supersedes nothing.
   */
  @Test
  void aResendSupersedesItsStalledCopyAndABadNewcomerNothing() {
    Reassembler r = builder().maxBufferedBytes(FRAME.length + FRAME.length / 2).build();
    List<byte[]> first = ChunkSplitter.split(FRAME, 300, 1);
    assertEquals(Optional.empty(), r.offer("a", first.get(0)));
    assertEquals(Optional.empty(), r.offer("a", first.get(1)));
    ChunkHeader h = ChunkHeader.parse(first.get(0));
    reject(Reason.INCONSISTENT, r, "a", chunk(9, 0, h.count(), h.totalLength(), h.frameCrc(), new byte[7]));
    assertEquals(1, r.stats().incompleteMessages());
    assertEquals(0, r.stats().superseded());
    reject(Reason.MEMORY_CAP, r, "b", ChunkSplitter.split(FRAME, 300, 2).get(0)); // another sender: no room
    assertArrayEquals(FRAME, offerAll(r, "a", ChunkSplitter.split(FRAME, 400, 3)).get(0));
    assertEquals(1, r.stats().superseded());
    assertEquals(List.of(), offerAll(r, "a", first.subList(2, first.size())), "the stalled copy's chunks are dropped");

    // within its share, a sender whose newcomer the cap would refuse supersedes its own older message
    // when that makes room, and keeps it when it would not
    Reassembler full = builder().maxMessageBytes(100_000).maxBufferedBytes(100_000)
        .maxBufferedBytesPerSender(60_000).build();
    full.offer("b", claim(1, 50_000));
    full.offer("c", claim(2, 40_000));
    full.offer("a", claim(3, 5_000));
    reject(Reason.MEMORY_CAP, full, "a", claim(4, 20_000)); // 95 000 - 5 000 + 20 000 > 100 000
    assertEquals(3, full.stats().incompleteMessages());
    assertEquals(0, full.stats().superseded(), "nothing superseded for a newcomer that does not fit anyway");
    assertEquals(Optional.empty(), full.offer("a", claim(5, 9_000))); // fits once its 5 000 go
    assertEquals(1, full.stats().superseded());
    assertEquals(99_000, full.stats().reservedBytes());
    // without superseding, the newcomer is refused and the older message kept (parts retained on a broker)
    Reassembler kept = builder().maxMessageBytes(100_000).maxBufferedBytes(100_000).superseding(false).build();
    kept.offer("final", claim(1, 60_000));
    reject(Reason.MEMORY_CAP, kept, "final", claim(2, 50_000));
    assertEquals(60_000, kept.stats().reservedBytes());
    assertEquals(0, kept.stats().superseded());
    // and there one sender may hold all the caps allow (its share defaults to them)
    Reassembler one = builder().maxIncompleteMessages(8).superseding(false).build();
    for (int id = 1; id <= 8; id++) {
      assertEquals(Optional.empty(), one.offer("final", claim(id, 1_000)));
    }
    reject(Reason.TOO_MANY_MESSAGES, one, "final", claim(9, 1_000));
    assertEquals(8, one.stats().incompleteMessages());
  }

  /** The first of two chunks of a message that claims {@code total} bytes. */
  private static byte[] claim(long id, int total) {
    return chunk(id, 0, 2, total, (int) id, new byte[total / 2 + 1]);
  }

  @Test
  void malformedChunkHeaders() {
    Reassembler r = builder().build();
    byte[] good = ChunkSplitter.split(FRAME, 300, 1).get(0);
    reject(Reason.BAD_MAGIC, r, "a", "XXXX and more bytes than that".getBytes());
    reject(Reason.BAD_MAGIC, r, "a", new byte[0]);
    reject(Reason.MALFORMED, r, "a", Arrays.copyOf(good, ChunkHeader.BYTES)); // no payload
    reject(Reason.MALFORMED, r, "a", Arrays.copyOf(good, 10));
    byte[] v2 = good.clone();
    v2[4] = 2;
    reject(Reason.UNSUPPORTED_VERSION, r, "a", v2);
    byte[] p = new byte[10];
    reject(Reason.MALFORMED, r, "a", chunk(1, 0, 0, 10, 0, p)); // count 0
    reject(Reason.MALFORMED, r, "a", chunk(1, 3, 3, 30, 0, p)); // index == count
    reject(Reason.MALFORMED, r, "a", chunk(1, -1, 3, 30, 0, p)); // index 2^32-1
    reject(Reason.MALFORMED, r, "a", chunk(1, 0, 5, 4, 0, new byte[1])); // total < count
    reject(Reason.MALFORMED, r, "a", chunk(1, 0, 2, 5, 0, p)); // payload > total
    reject(Reason.MALFORMED, r, "a", chunk(1, 0, -1, 0xFFFF_FFFFL, 0, p)); // count 2^32-1
    // Sizes contradicting the header on the first chunk: 3 chunks of 10 cannot total 40 or 20.
    reject(Reason.INCONSISTENT, r, "a", chunk(2, 0, 3, 40, 0, p));
    reject(Reason.INCONSISTENT, r, "a", chunk(2, 1, 3, 20, 0, p));
    reject(Reason.INCONSISTENT, r, "a", chunk(2, 2, 3, 20, 0, new byte[19])); // last leaves < 1 byte each
    reject(Reason.INCONSISTENT, r, "a", chunk(2, 0, 1, 20, 0, p)); // single chunk must hold it all
    assertEquals(0, r.stats().incompleteMessages(), "rejected first chunks leave nothing behind");
    assertEquals(0, r.stats().reservedBytes());
  }

  @Test
  void chunksInconsistentWithTheirMessage() {
    byte[] frame = Arrays.copyOf(FRAME, 100);
    int crc = crc(frame);
    Reassembler r = builder().build();
    byte[] c0 = chunk(5, 0, 3, 100, crc, Arrays.copyOfRange(frame, 0, 40));
    assertEquals(Optional.empty(), r.offer("a", c0));
    reject(Reason.INCONSISTENT, r, "a", chunk(5, 1, 4, 100, crc, Arrays.copyOfRange(frame, 40, 80))); // count
    reject(Reason.INCONSISTENT, r, "a", chunk(5, 1, 3, 101, crc, Arrays.copyOfRange(frame, 40, 80))); // total
    reject(Reason.INCONSISTENT, r, "a", chunk(5, 1, 3, 100, crc + 1, Arrays.copyOfRange(frame, 40, 80))); // crc
    reject(Reason.INCONSISTENT, r, "a", chunk(5, 1, 3, 100, crc, Arrays.copyOfRange(frame, 40, 79))); // size
    reject(Reason.INCONSISTENT, r, "a", chunk(5, 2, 3, 100, crc, Arrays.copyOfRange(frame, 80, 99))); // last size
    byte[] changed = c0.clone();
    changed[ChunkHeader.BYTES] ^= 1;
    reject(Reason.INCONSISTENT, r, "a", changed); // a duplicate index with different bytes
    assertEquals(Optional.empty(), r.offer("a", c0.clone())); // an exact duplicate is fine
    assertEquals(1, r.stats().duplicates());
    // The message survives the noise and completes.
    assertEquals(Optional.empty(), r.offer("a", chunk(5, 2, 3, 100, crc, Arrays.copyOfRange(frame, 80, 100))));
    assertArrayEquals(frame, r.offer("a", chunk(5, 1, 3, 100, crc, Arrays.copyOfRange(frame, 40, 80))).orElseThrow());

    // Last chunk first: its size is checked again when the chunk size becomes known.
    Reassembler s = builder().build();
    s.offer("a", chunk(6, 2, 3, 100, crc, Arrays.copyOfRange(frame, 70, 100))); // 30: then P = 35
    reject(Reason.INCONSISTENT, s, "a", chunk(6, 0, 3, 100, crc, Arrays.copyOfRange(frame, 0, 40)));
  }

  @Test
  void assembledFrameMustMatchTheCrc() {
    List<byte[]> packets = ChunkSplitter.split(FRAME, 300, 8);
    packets.get(1)[ChunkHeader.BYTES + 5] ^= 0x20;
    Reassembler r = builder().build();
    offerAll(r, "a", packets.subList(0, packets.size() - 1));
    reject(Reason.BAD_CHECKSUM, r, "a", packets.get(packets.size() - 1));
    assertEquals(0, r.stats().incompleteMessages());
    assertEquals(0, r.stats().reservedBytes());
    assertEquals(Optional.empty(), r.offer("a", packets.get(0)), "chunks of the dropped message are ignored");
  }

  @Test
  void unchunkedFramesPassThrough() {
    Reassembler r = builder().build();
    byte[] ack = EnvelopeCodec.encode(Frames.ack());
    assertArrayEquals(ack, r.offer("a", ack).orElseThrow());
    assertEquals(1, r.stats().unchunked());
  }

  @Test
  void sealedFramesAreChunkedAndReassembledLikePlainOnes() {
    byte[] sealed = new byte[5000];
    new java.util.Random(3).nextBytes(sealed);
    System.arraycopy("HDFS".getBytes(java.nio.charset.StandardCharsets.US_ASCII), 0, sealed, 0, 4);
    Reassembler r = Reassembler.builder().build();
    java.util.List<byte[]> chunks = ChunkSplitter.split(sealed, 1024, 77);
    org.junit.jupiter.api.Assertions.assertTrue(chunks.size() > 4);
    java.util.Optional<byte[]> whole = java.util.Optional.empty();
    for (byte[] c : chunks) {
      whole = r.offer("t", c);
    }
    org.junit.jupiter.api.Assertions.assertArrayEquals(sealed, whole.orElseThrow());
    byte[] small = java.util.Arrays.copyOf(sealed, 100);
    org.junit.jupiter.api.Assertions.assertArrayEquals(small, r.offer("t", small).orElseThrow(), "a whole sealed frame passes");
  }
}
