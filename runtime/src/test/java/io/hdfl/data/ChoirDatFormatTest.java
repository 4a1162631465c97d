package io.hdfl.data;

import static io.hdfl.data.TestFiles.concat;
import static io.hdfl.data.TestFiles.failure;
import static io.hdfl.data.TestFiles.gzip;
import static io.hdfl.data.TestFiles.le;
import static io.hdfl.data.TestFiles.sample;
import static io.hdfl.data.TestFiles.write;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.Arrays;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChoirDatFormatTest {
  @TempDir Path dir;

  @Test
  void roundTripPlain() throws IOException {
    Dataset d = TestFiles.synthetic(7, 5, 3);
    Path p = dir.resolve("x.choir_dat");
    ChoirDatFormat.write(d, p);
    byte[] bytes = Files.readAllBytes(p);
    assertEquals(8 + 7 * (5 * 4 + 4), bytes.length);
    assertEquals(5, bytes[0]); // little-endian n_features, not gzip
    assertSame(d, ChoirDatFormat.read(p));
  }

  @Test
  void roundTripGzip() throws IOException {
    Dataset d = TestFiles.synthetic(11, 4, 5);
    Path p = dir.resolve("x.choir_dat.gz");
    ChoirDatFormat.write(d, p);
    byte[] bytes = Files.readAllBytes(p);
    assertEquals(0x1f, bytes[0] & 0xff);
    assertEquals(0x8b, bytes[1] & 0xff);
    assertSame(d, ChoirDatFormat.read(p));
    // No temporary files are left beside the target.
    try (var files = Files.list(dir)) {
      assertEquals(1, files.count());
    }
  }

  @Test
  void gzipIsDetectedByMagicNotName() throws IOException {
    byte[] plain = concat(le(2, 2), sample(1, 0.5f, -0.5f));
    Path p = write(dir, "plain-name.choir_dat", gzip(plain));
    Dataset d = ChoirDatFormat.read(p);
    assertEquals(1, d.size());
    assertArrayEquals(new float[] {0.5f, -0.5f}, d.row(0));
    // And an uncompressed file named .gz still reads.
    Path q = write(dir, "fake.choir_dat.gz", plain);
    assertEquals(1, ChoirDatFormat.read(q).size());
  }

  @Test
  void writeRejectsEmptyDataset() {
    Dataset empty = TestFiles.synthetic(3, 2, 2).subset(new int[0]);
    assertThrows(
        IllegalArgumentException.class,
        () -> ChoirDatFormat.write(empty, dir.resolve("e.choir_dat")));
  }

  @Test
  void realIsolet() throws IOException {
    Path p =
        Paths.get(System.getProperty("hdfl.shared.data", "/work/shared/data"))
            .resolve("isolet_test.choir_dat.gz");
    assumeTrue(Files.isRegularFile(p), "ISOLET file not present: " + p);
    Dataset d = Datasets.load(p);
    assertEquals(1559, d.size());
    assertEquals(617, d.featureCount());
    assertEquals(26, d.numClasses());
    int[] hist = d.labelHistogram();
    for (int c = 0; c < 26; c++) {
      assertEquals(c == 12 ? 59 : 60, hist[c], "class " + c);
    }
    assertTrue(d.minFeature() >= -1f && d.maxFeature() <= 1f);
    assertTrue(d.minFeature() < 0 && d.maxFeature() > 0);

    // Write it back (gzip) and read it again unchanged.
    Path copy = dir.resolve("isolet.choir_dat.gz");
    ChoirDatFormat.write(d, copy);
    assertSame(d, ChoirDatFormat.read(copy));
  }

  // ---- bad files -----------------------------------------------------------------------------

  @Test
  void emptyFile() throws IOException {
    Path p = write(dir, "e.choir_dat", new byte[0]);
    String m = failure(() -> ChoirDatFormat.read(p));
    assertTrue(m.startsWith(p.toString() + ": "), m);
    assertTrue(m.contains("empty file"), m);
  }

  @Test
  void truncatedHeader() throws IOException {
    Path p = write(dir, "h.choir_dat", new byte[] {5, 0, 0});
    String m = failure(() -> ChoirDatFormat.read(p));
    assertTrue(m.contains("truncated header (expected 8 bytes, got 3)"), m);
  }

  @Test
  void headerOnlyHasNoSamples() throws IOException {
    Path p = write(dir, "z.choir_dat", le(3, 2));
    assertTrue(failure(() -> ChoirDatFormat.read(p)).contains("no samples"));
  }

  @Test
  void truncatedSampleNamesSampleAndSizes() throws IOException {
    byte[] second = sample(1, 1f, 2f, 3f);
    byte[] data = concat(le(3, 2), sample(0, 1f, 2f, 3f), Arrays.copyOf(second, 7));
    Path p = write(dir, "isolet.choir_dat", data);
    String m = failure(() -> ChoirDatFormat.read(p));
    assertEquals(p + ": truncated sample 1 (expected 16 bytes, got 7)", m);
  }

  @Test
  void truncatedGzipStream() throws IOException {
    byte[] gz = gzip(concat(le(3, 2), sample(0, 1f, 2f, 3f), sample(1, 4f, 5f, 6f)));
    Path p = write(dir, "t.choir_dat.gz", Arrays.copyOf(gz, gz.length - 12));
    String m = failure(() -> ChoirDatFormat.read(p));
    assertTrue(m.startsWith(p + ": corrupt or truncated gzip data ("), m);
  }

  @Test
  void corruptGzipHeader() throws IOException {
    Path p = write(dir, "c.choir_dat.gz", new byte[] {0x1f, (byte) 0x8b, 9});
    String m = failure(() -> ChoirDatFormat.read(p));
    assertTrue(m.contains("corrupt or truncated gzip"), m);
  }

  @Test
  void absurdFeatureCounts() throws IOException {
    for (int nf : new int[] {0, -3, Integer.MAX_VALUE, Dataset.MAX_FEATURES + 1}) {
      Path p = write(dir, "f.choir_dat", concat(le(nf, 2), sample(0, 1f)));
      String m = failure(() -> ChoirDatFormat.read(p));
      assertTrue(m.contains("n_features = " + nf), m);
      assertTrue(m.contains("outside [1, " + Dataset.MAX_FEATURES + "]"), m);
    }
  }

  @Test
  void bigEndianHeaderGetsHint() throws IOException {
    Path p = write(dir, "b.choir_dat", concat(TestFiles.be(617, 26), sample(0, 1f)));
    String m = failure(() -> ChoirDatFormat.read(p));
    assertTrue(m.contains("big-endian"), m);
  }

  @Test
  void absurdClassCounts() throws IOException {
    for (int nc : new int[] {0, -1, Dataset.MAX_CLASSES + 1}) {
      Path p = write(dir, "c.choir_dat", concat(le(1, nc), sample(0, 1f)));
      String m = failure(() -> ChoirDatFormat.read(p));
      assertTrue(m.contains("n_classes = " + nc), m);
    }
  }

  @Test
  void labelOutOfRange() throws IOException {
    for (int label : new int[] {3, -1}) {
      Path p = write(dir, "l.choir_dat", concat(le(1, 3), sample(0, 1f), sample(label, 2f)));
      String m = failure(() -> ChoirDatFormat.read(p));
      assertTrue(m.contains("sample 1 has label " + label + ", outside [0, 3)"), m);
    }
  }

  @Test
  void nonFiniteValuesNameSampleAndFeature() throws IOException {
    float[] bad = {Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY};
    for (float v : bad) {
      Path p =
          write(dir, "n.choir_dat", concat(le(3, 2), sample(0, 1f, 2f, 3f), sample(1, 0f, 0f, v)));
      String m = failure(() -> ChoirDatFormat.read(p));
      assertTrue(m.contains("sample 1 feature 2 is " + v), m);
    }
  }

  @Test
  void missingFile() {
    Path p = dir.resolve("absent.choir_dat");
    String m = failure(() -> ChoirDatFormat.read(p));
    assertEquals(p + ": file not found", m);
  }

  @Test
  void hugeClaimedRecordOnTinyFileFailsFastWithoutBigAllocation() throws IOException {
    // n_features at the cap: one record would be 4 MiB, but the file holds 100 bytes.
    byte[] data = concat(le(Dataset.MAX_FEATURES, 2), new byte[92]);
    Path p = write(dir, "huge.choir_dat", data);
    long before = allocatedBytes();
    String m =
        Assertions.assertTimeout(
            Duration.ofSeconds(10), () -> failure(() -> ChoirDatFormat.read(p)));
    long allocated = allocatedBytes() - before;
    assertEquals(
        p + ": truncated sample 0 (expected " + (4L * Dataset.MAX_FEATURES + 4) + " bytes, got 92)",
        m);
    if (before >= 0) {
      assertTrue(allocated < 2_000_000, "allocated " + allocated + " bytes");
    }
  }

  /** Bytes allocated by this thread so far, or -1 if the JVM cannot tell. */
  static long allocatedBytes() {
    var bean = ManagementFactory.getThreadMXBean();
    if (bean instanceof com.sun.management.ThreadMXBean hotspot
        && hotspot.isThreadAllocatedMemorySupported()
        && hotspot.isThreadAllocatedMemoryEnabled()) {
      return hotspot.getThreadAllocatedBytes(Thread.currentThread().getId());
    }
    return -1;
  }

  static void assertSame(Dataset expected, Dataset actual) {
    assertEquals(expected.size(), actual.size());
    assertEquals(expected.featureCount(), actual.featureCount());
    assertEquals(expected.numClasses(), actual.numClasses());
    assertArrayEquals(expected.features(), actual.features());
    assertArrayEquals(expected.labels(), actual.labels());
  }
}
