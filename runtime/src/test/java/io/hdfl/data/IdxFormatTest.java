package io.hdfl.data;

import static io.hdfl.data.TestFiles.be;
import static io.hdfl.data.TestFiles.concat;
import static io.hdfl.data.TestFiles.failure;
import static io.hdfl.data.TestFiles.gzip;
import static io.hdfl.data.TestFiles.write;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IdxFormatTest {
  @TempDir Path dir;

  /** 3 images of 2x2 pixels. */
  private static final byte[] PIXELS = {0, (byte) 255, 51, 102, 1, 2, 3, 4, (byte) 200, 0, 0, 0};

  private static final byte[] LABELS = {7, 0, 3};

  static byte[] images(int n, int rows, int cols, byte[] pixels) {
    return concat(be(IdxFormat.IMAGES_MAGIC, n, rows, cols), pixels);
  }

  static byte[] labels(int n, byte[] labels) {
    return concat(be(IdxFormat.LABELS_MAGIC, n), labels);
  }

  private void checkTiny(Dataset d) {
    assertEquals(3, d.size());
    assertEquals(4, d.featureCount());
    assertArrayEquals(new int[] {7, 0, 3}, d.labels());
    assertEquals(8, d.numClasses());
    assertEquals(Dataset.indexClassNames(8), d.classNames());
    assertArrayEquals(new float[] {0f, 1f, 51 / 255f, 102 / 255f}, d.row(0));
    assertEquals(200 / 255f, d.feature(2, 0));
  }

  @Test
  void plainRoundTrip() throws IOException {
    Path img = write(dir, "train-images-idx3-ubyte", images(3, 2, 2, PIXELS));
    write(dir, "train-labels-idx1-ubyte", labels(3, LABELS));
    checkTiny(IdxFormat.read(img));
    checkTiny(Datasets.load(img));
  }

  @Test
  void gzipRoundTrip() throws IOException {
    Path img = write(dir, "t10k-images-idx3-ubyte.gz", gzip(images(3, 2, 2, PIXELS)));
    write(dir, "t10k-labels-idx1-ubyte.gz", gzip(labels(3, LABELS)));
    checkTiny(Datasets.load(img));
  }

  @Test
  void dottedNamesAndMixedCompression() throws IOException {
    Path img = write(dir, "t10k-images.idx3-ubyte.gz", gzip(images(3, 2, 2, PIXELS)));
    Path lbl = write(dir, "t10k-labels.idx1-ubyte", labels(3, LABELS));
    assertEquals(lbl, IdxFormat.labelsPathFor(img));
    checkTiny(Datasets.load(img));
  }

  @Test
  void explicitLabelsFile() throws IOException {
    Path img = write(dir, "a-images-idx3-ubyte", images(3, 2, 2, PIXELS));
    Path lbl = write(dir, "whatever.bin", labels(3, LABELS));
    checkTiny(Datasets.load(img, LoadOptions.builder().labelsFile(lbl).build()));
  }

  @Test
  void atLeastTwoClasses() throws IOException {
    Path img = write(dir, "z-images-idx3-ubyte", images(2, 1, 1, new byte[] {1, 2}));
    write(dir, "z-labels-idx1-ubyte", labels(2, new byte[] {0, 0}));
    Dataset d = IdxFormat.read(img);
    assertEquals(2, d.numClasses());
    assertEquals(List.of("0", "1"), d.classNames());
  }

  @Test
  void aMissingImagesFileIsReportedAsMissing() {
    Path img = dir.resolve("t10k-images-idx3-ubyte.gz");
    assertEquals(img + ": file not found", failure(() -> IdxFormat.read(img)));
  }

  @Test
  void missingLabelsFileNamesPathsTried() throws IOException {
    Path img = write(dir, "train-images-idx3-ubyte.gz", gzip(images(3, 2, 2, PIXELS)));
    String m = failure(() -> IdxFormat.read(img));
    assertTrue(m.contains("labels file not found"), m);
    assertTrue(m.contains(dir.resolve("train-labels-idx1-ubyte.gz").toString()), m);
    assertTrue(m.contains(dir.resolve("train-labels-idx1-ubyte").toString()), m);
  }

  @Test
  void underivableLabelsName() throws IOException {
    Path img = write(dir, "pictures-idx3-ubyte", images(3, 2, 2, PIXELS));
    String m = failure(() -> IdxFormat.read(img));
    assertTrue(m.contains("cannot derive the labels file"), m);
  }

  @Test
  void countMismatch() throws IOException {
    Path img = write(dir, "c-images-idx3-ubyte", images(3, 2, 2, PIXELS));
    Path lbl = write(dir, "c-labels-idx1-ubyte", labels(2, new byte[] {1, 2}));
    String m = failure(() -> IdxFormat.read(img));
    assertEquals(lbl + ": holds 2 labels but images file " + img + " holds 3 images", m);
  }

  @Test
  void wrongMagic() throws IOException {
    // A labels file passed as images.
    Path img = write(dir, "w-images-idx3-ubyte", labels(3, LABELS));
    write(dir, "w-labels-idx1-ubyte", labels(3, LABELS));
    String m = failure(() -> IdxFormat.read(img));
    assertTrue(m.contains("bad magic 0x00000801, an IDX labels file; expected 0x00000803"), m);

    Path png = write(dir, "p-images-idx3-ubyte", new byte[] {(byte) 0x89, 'P', 'N', 'G', 0, 0});
    write(dir, "p-labels-idx1-ubyte", labels(3, LABELS));
    assertTrue(failure(() -> IdxFormat.read(png)).contains("not an IDX file"));

    Path floats = write(dir, "f-images-idx3-ubyte", concat(be(0x00000D03, 1, 1, 1), new byte[4]));
    write(dir, "f-labels-idx1-ubyte", labels(1, new byte[] {0}));
    assertTrue(failure(() -> IdxFormat.read(floats)).contains("unsupported type"));
  }

  @Test
  void emptyAndTruncatedHeaders() throws IOException {
    write(dir, "e-labels-idx1-ubyte", labels(3, LABELS));
    Path empty = write(dir, "e-images-idx3-ubyte", new byte[0]);
    assertTrue(failure(() -> IdxFormat.read(empty)).contains("empty file"));
    Path shortHeader = write(dir, "e-images-idx3-ubyte", be(IdxFormat.IMAGES_MAGIC, 3));
    String m = failure(() -> IdxFormat.read(shortHeader));
    assertTrue(m.contains("truncated IDX header (expected 16 bytes, got 8)"), m);
  }

  @Test
  void zeroAndNegativeCounts() throws IOException {
    write(dir, "n-labels-idx1-ubyte", labels(0, new byte[0]));
    Path zero = write(dir, "n-images-idx3-ubyte", images(0, 2, 2, new byte[0]));
    assertTrue(failure(() -> IdxFormat.read(zero)).contains("zero images"));
    Path neg = write(dir, "n-images-idx3-ubyte", images(-5, 2, 2, new byte[0]));
    assertTrue(failure(() -> IdxFormat.read(neg)).contains("negative dimension -5"));
    Path wide = write(dir, "n-images-idx3-ubyte", images(1, 1 << 11, 1 << 11, new byte[0]));
    assertTrue(failure(() -> IdxFormat.read(wide)).contains("features allowed"));
  }

  @Test
  void truncatedPixelsAndLabels() throws IOException {
    Path img = write(dir, "t-images-idx3-ubyte", images(3, 2, 2, Arrays.copyOf(PIXELS, 9)));
    write(dir, "t-labels-idx1-ubyte", labels(3, LABELS));
    String m = failure(() -> IdxFormat.read(img));
    assertTrue(m.contains("data ends in image 2 (got 9 of 12 pixel bytes)"), m);

    Path img2 = write(dir, "u-images-idx3-ubyte", images(3, 2, 2, PIXELS));
    Path lbl2 = write(dir, "u-labels-idx1-ubyte", labels(3, new byte[] {1}));
    String m2 = failure(() -> IdxFormat.read(img2));
    assertTrue(m2.startsWith(lbl2.toString()), m2);
    assertTrue(m2.contains("claims 3 labels but the file holds 1"), m2);
  }

  @Test
  void trailingData() throws IOException {
    Path img = write(dir, "x-images-idx3-ubyte", images(3, 2, 2, concat(PIXELS, new byte[] {9})));
    write(dir, "x-labels-idx1-ubyte", labels(3, LABELS));
    assertTrue(failure(() -> IdxFormat.read(img)).contains("unexpected data after the 3 images"));
  }

  @Test
  void hugeClaimedCountInTinyFileFailsFast() throws IOException {
    // 2^30 images of 1x1 pixel (within the value cap) claimed by a 100-byte file.
    Path img = write(dir, "h-images-idx3-ubyte", images(1 << 30, 1, 1, new byte[84]));
    write(dir, "h-labels-idx1-ubyte", labels(1 << 30, new byte[10]));
    long before = ChoirDatFormatTest.allocatedBytes();
    String m =
        Assertions.assertTimeout(
            Duration.ofSeconds(10), () -> failure(() -> IdxFormat.read(img)));
    long allocated = ChoirDatFormatTest.allocatedBytes() - before;
    assertTrue(m.contains("header claims 1073741824 images of 1x1"), m);
    assertTrue(m.contains("got 84 of 1073741824 pixel bytes"), m);
    if (before >= 0) {
      assertTrue(allocated < 4_000_000, "allocated " + allocated + " bytes");
    }

    // 2^30 images of 28x28 exceed what any data set can hold: rejected from the header alone.
    Path big = write(dir, "h-images-idx3-ubyte", images(1 << 30, 28, 28, new byte[84]));
    String m2 = failure(() -> IdxFormat.read(big));
    assertTrue(m2.contains("values a data set can hold"), m2);
  }
}
