package io.hdfl.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.hdfl.fuzz.Contract;
import io.hdfl.fuzz.Seed;
import io.hdfl.fuzz.TestKeys;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32C;

/**
 * Fuzz target of {@link CheckpointFile#read} on arbitrary files (a device's checkpoints after bit rot
 * or an edit). Only {@link CheckpointFormatException} may escape, with one line that names the file;
 * allocations stay within a small multiple of the file; the format has no slack, so a file that
 * reads writes back byte for byte.
 */
public class CheckpointFileFuzzTest {
  private static final Path DIR = TestKeys.tempDir("hdfl-fuzz-checkpoint");

  @FuzzTest(maxDuration = "60s")
  void read(byte[] data) throws Exception {
    Path file = Files.write(DIR.resolve("ring.ckpt"), data);
    // the fuzzer cannot forge the CRC-32C: read each input also with its checksum made right
    byte[] fixed = withValidCrc(data);
    Path fixedFile = Files.write(DIR.resolve("fixed.ckpt"), fixed);
    Contract.allocatesAtMost((1 << 20) + 16L * data.length, "reading a checkpoint of " + data.length + " bytes",
        () -> {
          check(file, data);
          check(fixedFile, fixed);
        });
  }

  private static byte[] withValidCrc(byte[] data) {
    byte[] b = data.clone();
    if (b.length >= 4) {
      CRC32C crc = new CRC32C();
      crc.update(b, 0, b.length - 4);
      ByteBuffer.wrap(b, b.length - 4, 4).putInt((int) crc.getValue());
    }
    return b;
  }

  private static void check(Path file, byte[] data) throws Exception {
    CheckpointFile.Content c;
    try {
      c = CheckpointFile.read(file);
    } catch (CheckpointFormatException e) {
      Contract.oneLineAbout(e, file.toString());
      return;
    }
    Map<String, String> fields = new LinkedHashMap<>(c.fields());
    fields.remove("kind");
    Path back = DIR.resolve("back.ckpt");
    CheckpointFile.write(back, c.kind(), fields, c.payload());
    assertArrayEquals(data, Files.readAllBytes(back));
  }

  /** Checkpoints as devices write them, and broken ones, for the committed corpus. */
  public static List<Seed> seeds() throws Exception {
    List<Seed> s = new ArrayList<>();
    Map<String, String> ring = new LinkedHashMap<>();
    ring.put("federation", "plant-7");
    ring.put("peer", "press-02");
    ring.put("role", "ring");
    ring.put("last-step", "5");
    ring.put("bundled", "true");
    ring.put("noise-position", "1536");
    ring.put("delivered", "false");
    byte[] ok = bytes("ring", ring, new byte[] {'H', 'D', 'F', 'M', 1, 2, 3});
    s.add(seed("ring", ok));
    Map<String, String> agg = new LinkedHashMap<>();
    agg.put("round", "3");
    agg.put("present-variance", "0.30000000000000004");
    agg.put("lines", "1");
    agg.put("line.0", "{\"v\":1,\"peer\":\"agg\"}");
    s.add(seed("aggregator", bytes("aggregator", agg, new byte[0])));
    s.add(seed("truncated", Arrays.copyOf(ok, ok.length - 6)));
    byte[] flipped = ok.clone();
    flipped[20] ^= 0x04;
    s.add(seed("bit-flip", flipped));
    return s;
  }

  private static byte[] bytes(String kind, Map<String, String> fields, byte[] payload) throws Exception {
    Path f = DIR.resolve("seed.ckpt");
    CheckpointFile.write(f, kind, fields, payload);
    return Files.readAllBytes(f);
  }

  private static Seed seed(String name, byte[] bytes) {
    return new Seed(CheckpointFileFuzzTest.class, "read", name, bytes);
  }
}
