package io.hdfl.sensors.window;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hdfl.sensors.signal.Channel;
import io.hdfl.sensors.signal.ListSignalSource;
import io.hdfl.sensors.signal.SignalFormatException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Normalization modes and its file: round trip, atomic replace, and rejection of damaged files. */
class NormalizationTest {

  private static final List<Channel> CHANNELS = List.of(new Channel("S.torque", "Nm"), new Channel("temp", "°C"),
      Channel.of("flag"));

  @TempDir
  Path dir;

  private static Normalization trained() {
    Normalization n = Normalization.frozenAfter(CHANNELS, 3);
    n.observe(new float[] {1, 20, 7});
    n.observe(new float[] {2, 22, 7});
    n.observe(new float[] {3, 24, 7});
    n.observe(new float[] {100, 100, 100});   // after the warm-up: ignored
    return n;
  }

  @Test
  void zScoresWithFrozenWarmupStatistics() {
    Normalization n = trained();
    assertTrue(n.isFrozen());
    assertTrue(n.isReady());
    assertEquals(2.0, n.mean(0), 1e-12);
    assertEquals(1 / Math.sqrt(2 / 3.0), n.scale(0), 1e-12);
    assertEquals((float) ((3 - 2) / Math.sqrt(2 / 3.0)), n.apply(0, 3));
    assertEquals(1.0, n.scale(2), "a constant channel is only centred");
    assertEquals(-7f, n.apply(2, 0));
  }

  @Test
  void modes() {
    Normalization running = Normalization.running(CHANNELS, 2);
    assertFalse(running.isReady());
    running.observe(new float[] {1, 1, 1});
    running.observe(new float[] {3, 3, 3});
    assertTrue(running.isReady());
    assertFalse(running.isFrozen());
    running.observe(new float[] {5, 5, 5});
    assertEquals(3, running.mean(0), 1e-12);
    running.freeze();
    running.observe(new float[] {100, 100, 100});
    assertEquals(3, running.statistics().count());
    Normalization fixed = Normalization.fixed(running.statistics());
    assertTrue(fixed.isFrozen() && fixed.isReady());
    assertThrows(IllegalArgumentException.class, () -> Normalization.frozenAfter(CHANNELS, 0));
    assertEquals("Normalization[3 channels, 3 samples, frozen, warm-up 2]", running.toString());
  }

  @Test
  void saveAndLoadRestoreStatisticsAndModeExactly() throws Exception {
    Path f = dir.resolve("norm.bin");
    Normalization n = trained();
    n.save(f);
    Normalization back = Normalization.load(f);
    assertEquals(CHANNELS, back.channels());
    assertTrue(back.isFrozen());
    assertTrue(back.freezesAfterWarmup());
    assertEquals(3, back.warmupSamples());
    for (int c = 0; c < 3; c++) {
      assertEquals(n.mean(c), back.mean(c));
      assertEquals(n.scale(c), back.scale(c));
    }
    Normalization running = Normalization.running(ListSignalSource.channels(90));
    running.observe(new float[90]);
    running.save(f);
    Normalization r = Normalization.load(f);
    assertFalse(r.isFrozen());
    assertEquals(1, r.statistics().count());
    assertTrue(Files.size(f) < 4096, "90 channels fit in a few KB: " + Files.size(f));
    try (Stream<Path> files = Files.list(dir)) {
      assertEquals(List.of(f), files.toList(), "no temporary file left behind");
    }
  }

  @Test
  void everyTruncationAndEveryBitFlipIsRejected() throws Exception {
    Path f = dir.resolve("n");
    trained().save(f);
    byte[] good = Files.readAllBytes(f);
    for (int len = 0; len < good.length; len++) {
      Files.write(f, Arrays.copyOf(good, len));
      SignalFormatException e = assertThrows(SignalFormatException.class, () -> Normalization.load(f), "length " + len);
      assertTrue(e.getMessage().startsWith(f.toString()), e.getMessage());
    }
    for (int i = 0; i < good.length; i++) {
      byte[] bad = good.clone();
      bad[i] ^= 0x10;
      Files.write(f, bad);
      assertThrows(SignalFormatException.class, () -> Normalization.load(f), "flipped byte " + i);
    }
    Files.write(f, Arrays.copyOf(good, good.length + 1));
    assertEquals(f + ": 1 unexpected bytes after the checksum",
        assertThrows(SignalFormatException.class, () -> Normalization.load(f)).getMessage());
  }

  @Test
  void truncatedAndForeignFilesGetClearMessages() throws Exception {
    Path f = dir.resolve("n");
    trained().save(f);
    byte[] good = Files.readAllBytes(f);
    Files.write(f, Arrays.copyOf(good, good.length - 10));
    assertEquals(f + ": truncated normalization file (" + (good.length - 10) + " bytes)",
        assertThrows(SignalFormatException.class, () -> Normalization.load(f)).getMessage());
    Files.writeString(f, "time,a\n");
    assertEquals(f + ": not a normalization file (bad magic bytes)",
        assertThrows(SignalFormatException.class, () -> Normalization.load(f)).getMessage());
    ByteBuffer huge = ByteBuffer.wrap(good.clone()).order(ByteOrder.LITTLE_ENDIAN).putInt(24, 1 << 30);
    Files.write(f, huge.array());
    assertEquals(f + ": channel count 1073741824 is outside 1..4096",
        assertThrows(SignalFormatException.class, () -> Normalization.load(f)).getMessage());
    Files.write(f, new byte[NormalizationFile.MAX_BYTES + 1]);
    assertTrue(assertThrows(SignalFormatException.class, () -> Normalization.load(f)).getMessage()
        .contains("larger than any normalization file"));
    assertThrows(IOException.class, () -> Normalization.load(dir.resolve("missing")));
  }

  @Test
  void saveReplacesAnExistingFileAndTheWindowingChecksChannels() throws Exception {
    Path f = dir.resolve("n");
    Files.writeString(f, "old");
    trained().save(f);
    Normalization back = Normalization.load(f);
    assertEquals(2.0, back.mean(0), 1e-12);
    Windowing w = Windowing.builder(CHANNELS, 500).normalization(back).build();
    assertEquals(back, w.normalization());
    assertThrows(IllegalArgumentException.class,
        () -> Windowing.builder(ListSignalSource.channels(3), 500).normalization(back).build());
  }
}
