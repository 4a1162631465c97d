package io.hdfl.data;

import static io.hdfl.data.TestFiles.gzip;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.hdfl.fuzz.Contract;
import io.hdfl.fuzz.Seed;
import io.hdfl.fuzz.TestKeys;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fuzz targets of the data set loaders through the public load API ({@link Datasets#load}) on
 * files: choir_dat, IDX (input = {@code u16 LE n | n bytes images file | labels file}) and CSV. A
 * file either loads as a valid data set or fails with a {@link DatasetFormatException} whose one
 * line names the file — never another exception or an error; allocations stay within a multiple of
 * the (decompressed) file; a loaded file is consistent, and choir_dat and CSV write back to what
 * was read. The {@code @Test}s below run the same checks on seeded mutations of valid files.
 */
public class DatasetFuzzTest {
  private static final Path DIR = TestKeys.tempDir("hdfl-fuzz-data");
  private static final int ROUNDS = 400;

  @FuzzTest(maxDuration = "60s")
  void choirDat(byte[] data) throws Exception {
    loadWithin(data, () -> checkChoirDat(DIR, data));
  }

  @FuzzTest(maxDuration = "60s")
  void idx(byte[] data) throws Exception {
    loadWithin(data, () -> checkIdx(DIR, data));
  }

  @FuzzTest(maxDuration = "60s")
  void csv(byte[] data) throws Exception {
    loadWithin(data, () -> checkCsv(DIR, data));
  }

  /** Loaders read through fixed buffers (64 KiB) and grow arrays as values arrive: a multiple of the data. */
  private static void loadWithin(byte[] data, Contract.Body body) throws Exception {
    long n = Math.max(data.length, gunzippedLength(data));
    Contract.allocatesAtMost((4 << 20) + 128L * n, "loading " + data.length + " bytes", body);
  }

  static Dataset checkChoirDat(Path dir, byte[] data) throws IOException {
    Dataset d = load(dir, Files.write(dir.resolve("f.choir_dat"), data));
    if (d != null && !isGzip(data)) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      ChoirDatFormat.write(d, out);
      assertArrayEquals(data, out.toByteArray(), "choir_dat has no slack: what reads writes back the same");
    }
    return d;
  }

  static Dataset checkIdx(Path dir, byte[] data) throws IOException {
    int n = data.length < 2 ? 0 : Math.min(data.length - 2, (data[0] & 0xFF) | (data[1] & 0xFF) << 8);
    int from = Math.min(2, data.length);
    Files.write(dir.resolve("f-labels-idx1-ubyte"), Arrays.copyOfRange(data, from + n, data.length));
    Dataset d = load(dir, Files.write(dir.resolve("f-images-idx3-ubyte"), Arrays.copyOfRange(data, from, from + n)));
    if (d != null) {
      int max = 0;
      for (int label : d.labels()) {
        max = Math.max(max, label);
      }
      assertEquals(Math.max(2, max + 1), d.numClasses());
      for (float v : d.features()) {
        assertTrue(v >= 0 && v <= 1, "pixel " + v);
      }
    }
    return d;
  }

  static Dataset checkCsv(Path dir, byte[] data) throws IOException {
    Dataset d = load(dir, Files.write(dir.resolve("f.csv"), data));
    if (d != null) {
      StringBuilder text = new StringBuilder();
      try (Writer w = new java.io.StringWriter()) {
        CsvFormat.write(d, w);
        text.append(w);
      }
      Dataset back = CsvFormat.read(new java.io.StringReader(text.toString()), "written",
          LoadOptions.builder().classNames(d.classNames()).build());
      assertArrayEquals(d.features(), back.features());
      assertArrayEquals(d.labels(), back.labels());
      assertEquals(d.classNames(), back.classNames());
    }
    return d;
  }

  /** Loads {@code file}; returns the data set (checked for consistency), or null if it was rejected properly. */
  private static Dataset load(Path dir, Path file) throws IOException {
    Dataset d;
    try {
      d = Datasets.load(file);
    } catch (DatasetFormatException e) {
      // IDX problems may be reported against either the images or the labels file.
      Contract.oneLineAbout(e, dir.toString());
      return null;
    }
    assertTrue(d.size() >= 1);
    assertEquals((long) d.size() * d.featureCount(), d.features().length);
    assertEquals(d.numClasses(), d.classNames().size());
    for (int label : d.labels()) {
      assertTrue(label >= 0 && label < d.numClasses(), "label " + label);
    }
    for (float v : d.features()) {
      assertTrue(Float.isFinite(v));
    }
    return d;
  }

  private static boolean isGzip(byte[] b) {
    return b.length >= 2 && (b[0] & 0xFF) == 0x1f && (b[1] & 0xFF) == 0x8b;
  }

  /** The decompressed length of gzip data (up to 64 MiB; 0 for data that is not gzip or is broken early). */
  private static long gunzippedLength(byte[] data) {
    if (!isGzip(data)) {
      return 0;
    }
    long n = 0;
    try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(data))) {
      byte[] buf = new byte[8192];
      for (int k; (k = in.read(buf)) > 0 && n < (64 << 20); ) {
        n += k;
      }
    } catch (IOException e) {
      // counted up to the break
    }
    return n;
  }

  // ---- seeded mutations of valid files (no Jazzer needed) ------------------------------------

  @TempDir Path tmp;

  private interface Check {
    Dataset run(Path dir, byte[] data) throws IOException;
  }

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

  private void mutations(byte[] valid, Check check, long seed) throws IOException {
    SplittableRandom r = new SplittableRandom(seed);
    int loaded = 0;
    for (int round = 0; round < ROUNDS; round++) {
      byte[] bytes = mutate(valid, r);
      if (r.nextInt(4) == 0) {
        bytes = gzip(bytes);
      }
      try {
        if (check.run(tmp, bytes) != null) {
          loaded++;
        }
      } catch (RuntimeException | Error e) {
        throw new AssertionError("round " + round + ": " + e, e);
      }
    }
    assertTrue(loaded > 0 && loaded < ROUNDS, "loaded " + loaded + " of " + ROUNDS);
  }

  @Test
  void choirDatMutations() throws IOException {
    mutations(choirDat(), DatasetFuzzTest::checkChoirDat, 1);
  }

  @Test
  void idxImagesMutations() throws IOException {
    byte[] labels = IdxFormatTest.labels(3, new byte[] {1, 2, 0});
    mutations(images(3, 2, 2), (dir, images) -> checkIdx(dir, idx(images, labels)), 2);
  }

  @Test
  void idxLabelsMutations() throws IOException {
    byte[] images = images(3, 2, 2);
    mutations(IdxFormatTest.labels(3, new byte[] {1, 2, 0}), (dir, labels) -> checkIdx(dir, idx(images, labels)), 3);
  }

  @Test
  void csvMutations() throws IOException {
    mutations(csv(TestFiles.synthetic(5, 3, 2)), DatasetFuzzTest::checkCsv, 4);
  }

  private static byte[] choirDat() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ChoirDatFormat.write(TestFiles.synthetic(6, 3, 3), out);
    return out.toByteArray();
  }

  private static byte[] images(int n, int rows, int cols) {
    byte[] pixels = new byte[n * rows * cols];
    for (int i = 0; i < pixels.length; i++) {
      pixels[i] = (byte) (i * 37);
    }
    return IdxFormatTest.images(n, rows, cols, pixels);
  }

  private static byte[] csv(Dataset d) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (Writer w = new OutputStreamWriter(out, StandardCharsets.UTF_8)) {
      CsvFormat.write(d, w);
    }
    return out.toByteArray();
  }

  /** An input of {@link #idx}: the images file's length, the images file, the labels file. */
  static byte[] idx(byte[] images, byte[] labels) {
    if (images.length > 0xFFFF) {
      throw new IllegalArgumentException("images file too long for an idx input");
    }
    return ByteBuffer.allocate(2 + images.length + labels.length).order(ByteOrder.LITTLE_ENDIAN)
        .putShort((short) images.length).put(images).put(labels).array();
  }

  /** Small valid files of each format (plain and gzip), for the committed corpus. */
  public static List<Seed> seeds() throws IOException {
    List<Seed> s = new ArrayList<>();
    byte[] choir = choirDat();
    s.add(seed("choirDat", "synthetic-6x3", choir));
    s.add(seed("choirDat", "synthetic-6x3-gzip", gzip(choir)));
    s.add(seed("choirDat", "one-sample", TestFiles.concat(TestFiles.le(2, 2), TestFiles.sample(1, 0.5f, -2f))));
    byte[] labels = IdxFormatTest.labels(3, new byte[] {1, 2, 0});
    s.add(seed("idx", "three-2x2-images", idx(images(3, 2, 2), labels)));
    s.add(seed("idx", "gzip-images", idx(gzip(images(3, 2, 2)), labels)));
    s.add(seed("idx", "one-1x3-image", idx(images(1, 1, 3), IdxFormatTest.labels(1, new byte[] {9}))));
    s.add(seed("csv", "synthetic-integer-labels", csv(TestFiles.synthetic(5, 3, 2))));
    s.add(seed("csv", "named-labels-quotes-bom", ("\uFEFFa, \"b\",label\n1,2e3,walk\n\n-0.5, 7,\"run, fast\"\r\n"
        + "0x1p3,1,\"say \"\"hi\"\"\"\n").getBytes(StandardCharsets.UTF_8)));
    s.add(seed("csv", "label-first-gzip", gzip("label,x\n3,1.5\n0,2\n".getBytes(StandardCharsets.UTF_8))));
    return s;
  }

  private static Seed seed(String method, String name, byte[] bytes) {
    return new Seed(DatasetFuzzTest.class, method, name, bytes);
  }
}
