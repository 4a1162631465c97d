package io.hdfl.hd;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ModelFileTest {
  @TempDir Path dir;

  static HdModel sample() {
    float[] v = EncoderTest.randomRows(3, 10, 1, 50.0);
    return new HdModel(new EncoderSpec(EncoderKind.COS_BIAS, 7, 10, -99L), Similarity.DOT,
        ClassPrototypes.copyOf(3, 10, v), List.of("nominal", "under-drilled", "über"));
  }

  @Test
  void roundTripsThroughAFile() throws Exception {
    HdModel m = sample();
    Path p = dir.resolve("sub/model.hdfl");
    ModelFile.write(m, p);
    HdModel r = ModelFile.read(p);
    assertEquals(m.encoder(), r.encoder());
    assertEquals(m.similarity(), r.similarity());
    assertEquals(m.classNames(), r.classNames());
    assertArrayEquals(m.prototypes().toArray(), r.prototypes().toArray());
    try (var files = Files.list(p.getParent())) {
      assertEquals(1, files.count(), "no temporary file left behind");
    }
  }

  @Test
  void everyTruncationIsRejectedCleanly() {
    byte[] good = ModelFile.toBytes(sample());
    for (int len = 0; len < good.length; len++) {
      byte[] cut = java.util.Arrays.copyOf(good, len);
      ModelFormatException e = assertThrows(ModelFormatException.class, () -> ModelFile.fromBytes(cut, "m"));
      assertTrue(e.getMessage().startsWith("m: "), e.getMessage());
    }
  }

  @Test
  void everySingleBitFlipIsDetected() {
    byte[] good = ModelFile.toBytes(sample());
    for (int i = 0; i < good.length; i++) {
      byte[] bad = good.clone();
      bad[i] ^= 0x10;
      assertThrows(ModelFormatException.class, () -> ModelFile.fromBytes(bad, "m"), "byte " + i);
    }
  }

  @Test
  void specificProblemsAreNamed() {
    byte[] good = ModelFile.toBytes(sample());
    assertMessage(patch(good, 0, (byte) 'X'), "bad magic");
    assertMessage(withCrc(patchShort(good, 8, 7)), "version 7");
    assertMessage(withCrc(patchInt(good, 16, 0)), "dimension 0");
    assertMessage(withCrc(patchInt(good, 20, 1 << 20)), "class count");
    // A header claiming a huge model in a tiny file fails on size, before allocation.
    assertMessage(withCrc(patchInt(good, 16, 1 << 20)), "truncated");
    byte[] longer = java.util.Arrays.copyOf(good, good.length + 3);
    assertMessage(longer, "trailing bytes");
    // A NaN prototype with a valid checksum is still rejected.
    int firstFloat = good.length - 4 - 3 * 10 * 4;
    assertMessage(withCrc(patchInt(good, firstFloat, Float.floatToIntBits(Float.NaN))), "non-finite");
    assertMessage(good.length > 0 ? flipLastByte(good) : good, "checksum");
  }

  @Test
  void missingFileIsAClearError() {
    ModelFormatException e = assertThrows(ModelFormatException.class, () -> ModelFile.read(dir.resolve("nope")));
    assertTrue(e.getMessage().endsWith("no such file"));
  }

  @Test
  void overwriteIsAtomicAndKeepsOldFileOnFailure() throws Exception {
    Path p = dir.resolve("m.hdfl");
    ModelFile.write(sample(), p);
    byte[] before = Files.readAllBytes(p);
    HdModel bad = sample();
    // A model whose class name is too long fails before the target is touched.
    assertThrows(IllegalArgumentException.class, () -> ModelFile.write(new HdModel(bad.encoder(), bad.similarity(),
        bad.prototypes(), List.of("a", "b", "x".repeat(2000))), p));
    assertArrayEquals(before, Files.readAllBytes(p));
    assertFalse(Files.list(dir).anyMatch(f -> f.toString().endsWith(".tmp")));
  }

  private static void assertMessage(byte[] bytes, String fragment) {
    ModelFormatException e = assertThrows(ModelFormatException.class, () -> ModelFile.fromBytes(bytes, "f"));
    assertTrue(e.getMessage().contains(fragment), () -> "'" + e.getMessage() + "' lacks '" + fragment + "'");
  }

  private static byte[] patch(byte[] b, int at, byte v) {
    byte[] c = b.clone();
    c[at] = v;
    return c;
  }

  private static byte[] patchShort(byte[] b, int at, int v) {
    byte[] c = b.clone();
    ByteBuffer.wrap(c).order(ByteOrder.LITTLE_ENDIAN).putShort(at, (short) v);
    return c;
  }

  private static byte[] patchInt(byte[] b, int at, int v) {
    byte[] c = b.clone();
    ByteBuffer.wrap(c).order(ByteOrder.LITTLE_ENDIAN).putInt(at, v);
    return c;
  }

  private static byte[] flipLastByte(byte[] b) {
    byte[] c = b.clone();
    c[c.length - 1] ^= 1;
    return c;
  }

  private static byte[] withCrc(byte[] b) {
    CRC32C crc = new CRC32C();
    crc.update(b, 0, b.length - 4);
    ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putInt(b.length - 4, (int) crc.getValue());
    return b;
  }
}
