package io.hdfl.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hdfl.codec.ModelEnvelope.Kind;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

class ChunkSplitterTest {
  static final byte[] FRAME = EnvelopeCodec.encode(Frames.model(Kind.RING_MODEL, 3, 100)); // ~1.3 KB

  @Test
  void frameThatFitsIsSentAsItIs() {
    assertSame(FRAME, ChunkSplitter.split(FRAME, FRAME.length, 1).get(0));
    assertEquals(1, ChunkSplitter.split(FRAME, Integer.MAX_VALUE, 1).size());
    // One byte over the limit: two chunks.
    List<byte[]> two = ChunkSplitter.split(FRAME, FRAME.length - 1, 1);
    assertEquals(2, two.size());
    assertEquals(FRAME.length - 1, two.get(0).length);
    assertEquals(ChunkSplitter.HEADER_BYTES + ChunkSplitter.HEADER_BYTES + 1, two.get(1).length);
  }

  @Test
  void chunkLayoutIsAsDocumented() {
    int max = 500;
    List<byte[]> chunks = ChunkSplitter.split(FRAME, max, 0x0102030405060708L);
    int payload = max - ChunkSplitter.HEADER_BYTES;
    assertEquals(29, ChunkSplitter.HEADER_BYTES);
    assertEquals((FRAME.length + payload - 1) / payload, chunks.size());
    CRC32C crc = new CRC32C();
    crc.update(FRAME);
    ByteArrayOutputStream joined = new ByteArrayOutputStream();
    for (int i = 0; i < chunks.size(); i++) {
      byte[] c = chunks.get(i);
      assertTrue(c.length <= max);
      if (i < chunks.size() - 1) {
        assertEquals(max, c.length);
      }
      ByteBuffer b = ByteBuffer.wrap(c).order(ByteOrder.LITTLE_ENDIAN);
      assertEquals("HDFC", new String(c, 0, 4, StandardCharsets.US_ASCII));
      assertEquals(1, c[4]);
      assertEquals(0x0102030405060708L, b.getLong(5));
      assertEquals(i, b.getInt(13));
      assertEquals(chunks.size(), b.getInt(17));
      assertEquals(FRAME.length, b.getInt(21));
      assertEquals((int) crc.getValue(), b.getInt(25));
      joined.write(c, 29, c.length - 29);
    }
    assertArrayEquals(FRAME, joined.toByteArray());
  }

  @Test
  void refusesWhatItCannotSplit() {
    assertThrows(IllegalArgumentException.class, () -> ChunkSplitter.split("not a frame".getBytes(), 4, 1));
    assertThrows(IllegalArgumentException.class, () -> ChunkSplitter.split(FRAME, ChunkSplitter.HEADER_BYTES, 1));
    assertEquals(FRAME.length, ChunkSplitter.split(FRAME, ChunkSplitter.HEADER_BYTES + 1, 1).size());
  }
}
