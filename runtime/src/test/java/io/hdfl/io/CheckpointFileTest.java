package io.hdfl.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CheckpointFileTest {
  @TempDir Path dir;

  private Path sample() throws Exception {
    Map<String, String> f = new LinkedHashMap<>();
    f.put("peer", "press-02");
    f.put("last-step", "42");
    f.put("present-variance", Double.toString(0.1 + 0.2));
    f.put("bundled", "true");
    f.put("line.0", "{\"v\":1,\"reason\":\"a=b\"}");
    Path p = dir.resolve("ring.ckpt");
    CheckpointFile.write(p, "ring", f, new byte[] {1, 2, 3, 4, 5});
    return p;
  }

  @Test
  void roundTripsFieldsAndPayloadExactly() throws Exception {
    CheckpointFile.Content c = CheckpointFile.read(sample());
    assertEquals("ring", c.kind());
    assertEquals(42, c.number("last-step"));
    assertEquals(0.1 + 0.2, c.real("present-variance"), 0.0, "doubles round-trip exactly");
    assertTrue(c.flag("bundled"));
    assertEquals("{\"v\":1,\"reason\":\"a=b\"}", c.text("line.0"));
    assertArrayEquals(new byte[] {1, 2, 3, 4, 5}, c.payload());
    assertEquals("[kind, peer, last-step, present-variance, bundled, line.0]", c.fields().keySet().toString());
    CheckpointFormatException e = assertThrows(CheckpointFormatException.class, () -> c.number("round"));
    assertEquals(dir.resolve("ring.ckpt") + ": no 'round' field", e.getMessage());
    assertThrows(CheckpointFormatException.class, () -> c.number("peer"));
    assertThrows(CheckpointFormatException.class, () -> c.flag("peer"));
  }

  @Test
  void everyTruncationAndEveryFlippedBitIsRefusedWithOneLineNamingTheFile() throws Exception {
    Path p = sample();
    byte[] good = Files.readAllBytes(p);
    Path bad = dir.resolve("bad.ckpt");
    for (int n = 0; n < good.length; n++) {
      Files.write(bad, Arrays.copyOf(good, n));
      CheckpointFormatException e = assertThrows(CheckpointFormatException.class, () -> CheckpointFile.read(bad),
          "truncated to " + n);
      assertTrue(e.getMessage().startsWith(bad + ": "), e.getMessage());
      assertFalse(e.getMessage().contains("\n"), e.getMessage());
    }
    for (int i = 0; i < good.length; i++) {
      for (int bit = 0; bit < 8; bit++) {
        byte[] b = good.clone();
        b[i] ^= (byte) (1 << bit);
        Files.write(bad, b);
        CheckpointFormatException e = assertThrows(CheckpointFormatException.class, () -> CheckpointFile.read(bad),
            "byte " + i + " bit " + bit);
        assertTrue(e.getMessage().startsWith(bad + ": "), e.getMessage());
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
      }
    }
    byte[] longer = Arrays.copyOf(good, good.length + 1);
    Files.write(bad, longer);
    assertTrue(assertThrows(CheckpointFormatException.class, () -> CheckpointFile.read(bad)).getMessage()
        .contains("after its checksum"));
  }

  @Test
  void refusesWhatItCannotWriteBack() {
    Path p = dir.resolve("x.ckpt");
    assertThrows(IllegalArgumentException.class, () -> CheckpointFile.write(p, "ring", Map.of("a", "x\ny"), null));
    assertThrows(IllegalArgumentException.class, () -> CheckpointFile.write(p, "ring", Map.of("A b", "x"), null));
    assertThrows(IllegalArgumentException.class, () -> CheckpointFile.write(p, "ring", Map.of("kind", "x"), null));
    assertFalse(Files.exists(p));
  }

  @Test
  void replacesAtomically() throws Exception {
    Path p = sample();
    CheckpointFile.write(p, "ring", Map.of("last-step", "43"), null);
    assertEquals(43, CheckpointFile.read(p).number("last-step"));
    assertEquals(0, CheckpointFile.read(p).payload().length);
    try (var s = Files.list(dir)) {
      assertEquals(1, s.count(), "no temporary file left behind");
    }
  }
}
