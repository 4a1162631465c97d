package io.hdfl.hd;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.hdfl.fuzz.Contract;
import io.hdfl.fuzz.Seed;
import io.hdfl.fuzz.TestKeys;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * Fuzz target of {@link ModelFile#read} on arbitrary files (models are copied between devices and
 * given on the command line). Only {@link ModelFormatException} may escape, with one line that
 * names the file; allocations stay within a small multiple of the file; the format has no slack, so
 * a file that reads writes back byte for byte.
 */
public class ModelFileFuzzTest {
  private static final Path DIR = TestKeys.tempDir("hdfl-fuzz-model");

  @FuzzTest(maxDuration = "60s")
  void read(byte[] data) throws Exception {
    Path file = Files.write(DIR.resolve("model.hdfl"), data);
    // The fuzzer cannot forge the CRC-32C: read each input also with its checksum made right, so
    // that mutations reach the checks behind it.
    byte[] fixed = withValidCrc(data);
    Path fixedFile = Files.write(DIR.resolve("model-crc.hdfl"), fixed);
    // The file's bytes, the prototypes twice (read, then copied into ClassPrototypes) and the names.
    Contract.allocatesAtMost((1 << 20) + 16L * data.length, "reading a model file of " + data.length + " bytes",
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
      ByteBuffer.wrap(b, b.length - 4, 4).order(ByteOrder.LITTLE_ENDIAN).putInt((int) crc.getValue());
    }
    return b;
  }

  static void check(Path file, byte[] data) {
    HdModel m;
    try {
      m = ModelFile.read(file);
    } catch (ModelFormatException e) {
      Contract.oneLineAbout(e, file.toString());
      return;
    }
    assertArrayEquals(data, ModelFile.toBytes(m));
  }

  /** Small models of every encoder and similarity, and broken ones, for the committed corpus. */
  public static List<Seed> seeds() {
    List<Seed> s = new ArrayList<>();
    float[] v = {0.5f, -1f, 2f, 0f, -0f, 3.25f, 1e-30f, -7f};
    s.add(seed("cos-cosine-2x4", model(EncoderKind.COS, Similarity.COSINE, 2, 4, v, List.of("walk", "run"))));
    s.add(seed("sign-dot-4x2", model(EncoderKind.SIGN, Similarity.DOT, 4, 2, v, List.of("0", "1", "2", "3"))));
    s.add(seed("cos-bias-utf8-names", model(EncoderKind.COS_BIAS, Similarity.COSINE, 1, 8, v, List.of("Zoë ✓"))));
    byte[] ok = model(EncoderKind.COS, Similarity.COSINE, 2, 4, v, List.of("a", ""));
    s.add(seed("empty-name", ok));
    s.add(seed("truncated", Arrays.copyOf(ok, ok.length - 9)));
    byte[] crc = ok.clone();
    crc[crc.length - 1] ^= 0x40;
    s.add(seed("bad-checksum", crc));
    return s;
  }

  private static byte[] model(EncoderKind kind, Similarity sim, int classes, int dim, float[] v, List<String> names) {
    return ModelFile.toBytes(new HdModel(new EncoderSpec(kind, 5, dim, 42), sim,
        ClassPrototypes.copyOf(classes, dim, Arrays.copyOf(v, classes * dim)), names));
  }

  private static Seed seed(String name, byte[] bytes) {
    return new Seed(ModelFileFuzzTest.class, "read", name, bytes);
  }
}
