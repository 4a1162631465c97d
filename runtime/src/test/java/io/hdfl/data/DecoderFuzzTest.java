package io.hdfl.data;

import static io.hdfl.data.TestFiles.gzip;
import static io.hdfl.data.TestFiles.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seeded mutation fuzzing of every loader: a corrupted file must either load as a valid data set
 * or fail with a {@link DatasetFormatException} — never another exception or an error.
 */
class DecoderFuzzTest {
  private static final int ROUNDS = 400;

  @TempDir Path dir;

  private static byte[] mutate(byte[] valid, SplittableRandom r) {
    byte[] b;
    switch (r.nextInt(4)) {
      case 0 -> b = Arrays.copyOf(valid, r.nextInt(valid.length + 1)); // truncate
      case 1 -> { // append junk
        b = Arrays.copyOf(valid, valid.length + 1 + r.nextInt(16));
        for (int i = valid.length; i < b.length; i++) {
          b[i] = (byte) r.nextInt(256);
        }
      }
      default -> b = valid.clone();
    }
    int flips = 1 + r.nextInt(4);
    for (int k = 0; k < flips && b.length > 0; k++) {
      int i = r.nextInt(Math.min(b.length, r.nextBoolean() ? 24 : b.length));
      b[i] = (byte) (r.nextBoolean() ? r.nextInt(256) : b[i] ^ (1 << r.nextInt(8)));
    }
    return b;
  }

  private interface Load {
    Dataset load(Path p) throws IOException;
  }

  private void fuzz(String name, byte[] valid, Load load, long seed) throws IOException {
    SplittableRandom r = new SplittableRandom(seed);
    Path p = dir.resolve(name);
    int loaded = 0;
    int rejected = 0;
    for (int round = 0; round < ROUNDS; round++) {
      byte[] bytes = mutate(valid, r);
      if (r.nextInt(4) == 0) {
        bytes = gzip(bytes);
      }
      Files.write(p, bytes);
      try {
        Dataset d = load.load(p);
        assertEquals(d.size() * d.featureCount(), d.features().length);
        loaded++;
      } catch (DatasetFormatException e) {
        // IDX problems may be reported against either the images or the labels file.
        if (e.getMessage().contains("\n") || !e.getMessage().startsWith(dir.toString())) {
          fail("badly formed message: " + e.getMessage());
        }
        rejected++;
      } catch (RuntimeException | Error e) {
        throw new AssertionError("round " + round + " of " + name + ": " + e, e);
      }
    }
    assertEquals(ROUNDS, loaded + rejected);
  }

  @Test
  void choirDat() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ChoirDatFormat.write(TestFiles.synthetic(6, 3, 3), out);
    fuzz("f.choir_dat", out.toByteArray(), ChoirDatFormat::read, 1);
  }

  @Test
  void idxImages() throws IOException {
    byte[] labels = IdxFormatTest.labels(3, new byte[] {1, 2, 0});
    write(dir, "f-labels-idx1-ubyte", labels);
    byte[] images = IdxFormatTest.images(3, 2, 2, new byte[12]);
    fuzz("f-images-idx3-ubyte", images, IdxFormat::read, 2);
  }

  @Test
  void idxLabels() throws IOException {
    write(dir, "g-images-idx3-ubyte", IdxFormatTest.images(3, 2, 2, new byte[12]));
    byte[] labels = IdxFormatTest.labels(3, new byte[] {1, 2, 0});
    Path images = dir.resolve("g-images-idx3-ubyte");
    fuzz("g-labels-idx1-ubyte", labels, p -> IdxFormat.read(images, p), 3);
  }

  @Test
  void csv() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (Writer w = new OutputStreamWriter(out, StandardCharsets.UTF_8)) {
      CsvFormat.write(TestFiles.synthetic(5, 3, 2), w);
    }
    fuzz("f.csv", out.toByteArray(), CsvFormat::read, 4);
  }
}
