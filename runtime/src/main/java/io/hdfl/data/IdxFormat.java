package io.hdfl.data;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The IDX format of MNIST and Fashion-MNIST: an images file {@code *-images-idx3-ubyte[.gz]}
 * (magic {@code 0x00000803}: unsigned bytes, dimensions {@code n, rows, cols}, big-endian) and a
 * labels file {@code *-labels-idx1-ubyte[.gz]} (magic {@code 0x00000801}: unsigned bytes,
 * dimension {@code n}). Either may be gzip-compressed (detected by magic bytes).
 *
 * <p>Features are {@code pixel / 255f}, row-major per image ({@code rows * cols} features).
 * {@code numClasses} is the largest label + 1 but at least 2; class names are {@code "0".."C-1"}.
 * Image and label counts must match, and neither file may hold more or less data than its header
 * says.
 */
public final class IdxFormat {
  /** Magic number of an IDX file of unsigned bytes with 3 dimensions (images). */
  public static final int IMAGES_MAGIC = 0x00000803;
  /** Magic number of an IDX file of unsigned bytes with 1 dimension (labels). */
  public static final int LABELS_MAGIC = 0x00000801;

  private static final int CHUNK = 1 << 16;

  private IdxFormat() {}

  /**
   * Reads an images file and the labels file beside it, found by {@link #labelsPathFor(Path)}.
   *
   * @throws DatasetFormatException if the labels file cannot be derived or found (naming the
   *     path(s) tried), or either file is malformed
   */
  public static Dataset read(Path images) throws IOException {
    Decompression.requireFile(images); // a missing images file is reported as such, not as its missing labels
    return read(images, labelsPathFor(images));
  }

  /** Reads an images file and the given labels file. */
  public static Dataset read(Path images, Path labels) throws IOException {
    String imgSource = images.toString();
    String lblSource = labels.toString();
    try (InputStream imgIn = Decompression.open(images);
        InputStream lblIn = Decompression.open(labels)) {
      int[] dims = readHeader(imgIn, imgSource, IMAGES_MAGIC);
      int n = dims[0];
      int rows = dims[1];
      int cols = dims[2];
      long pixels = (long) rows * cols;
      if (pixels > Dataset.MAX_FEATURES) {
        throw new DatasetFormatException(
            imgSource,
            "header claims images of "
                + rows
                + "x"
                + cols
                + " = "
                + pixels
                + " pixels, more than the "
                + Dataset.MAX_FEATURES
                + " features allowed");
      }
      int f = (int) pixels;
      if ((long) n * f > Dataset.MAX_VALUES) {
        throw new DatasetFormatException(
            imgSource,
            "header claims "
                + n
                + " images of "
                + rows
                + "x"
                + cols
                + " pixels, more than the "
                + Dataset.MAX_VALUES
                + " values a data set can hold");
      }
      int nLabels = readHeader(lblIn, lblSource, LABELS_MAGIC)[0];
      if (nLabels != n) {
        throw new DatasetFormatException(
            lblSource,
            "holds "
                + nLabels
                + " labels but images file "
                + imgSource
                + " holds "
                + n
                + " images");
      }
      float[] features = readPixels(imgIn, imgSource, n, rows, cols);
      int[] labelValues = readLabels(lblIn, lblSource, n);
      int max = 0;
      for (int label : labelValues) {
        max = Math.max(max, label);
      }
      int numClasses = Math.max(2, max + 1);
      return Dataset.wrap(
          f, features, labelValues, numClasses, Dataset.indexClassNames(numClasses), imgSource);
    }
  }

  /**
   * The labels file that belongs to an images file: the name with {@code images-idx3} replaced by
   * {@code labels-idx1} (or {@code images.idx3} by {@code labels.idx1}); if that does not exist,
   * the same name with {@code .gz} added or removed.
   *
   * @throws DatasetFormatException if the name contains neither pattern, or no candidate exists
   *     (the message lists the paths tried)
   */
  public static Path labelsPathFor(Path images) {
    Path fileName = images.getFileName();
    String name = fileName == null ? "" : fileName.toString();
    String derived;
    if (name.contains("images-idx3")) {
      derived = name.replace("images-idx3", "labels-idx1");
    } else if (name.contains("images.idx3")) {
      derived = name.replace("images.idx3", "labels.idx1");
    } else {
      throw new DatasetFormatException(
          images.toString(),
          "cannot derive the labels file: the name contains neither 'images-idx3' nor"
              + " 'images.idx3'");
    }
    List<Path> candidates = new ArrayList<>();
    candidates.add(images.resolveSibling(derived));
    String toggled =
        derived.endsWith(".gz") ? derived.substring(0, derived.length() - 3) : derived + ".gz";
    candidates.add(images.resolveSibling(toggled));
    for (Path candidate : candidates) {
      if (Files.isRegularFile(candidate)) {
        return candidate;
      }
    }
    throw new DatasetFormatException(
        images.toString(),
        "labels file not found (tried " + candidates.get(0) + " and " + candidates.get(1) + ")");
  }

  /** Reads and checks an IDX header, returning its dimensions (each {@code >= 1}). */
  private static int[] readHeader(InputStream in, String source, int expectedMagic)
      throws IOException {
    String kind = expectedMagic == IMAGES_MAGIC ? "images" : "labels";
    byte[] magic = in.readNBytes(4);
    if (magic.length == 0) {
      throw new DatasetFormatException(source, "empty file (no IDX header)");
    }
    if (magic.length < 4) {
      throw new DatasetFormatException(
          source, "truncated IDX header (expected 4 magic bytes, got " + magic.length + ")");
    }
    int m = ByteBuffer.wrap(magic).getInt();
    if (m != expectedMagic) {
      String what;
      if (m == IMAGES_MAGIC) {
        what = "an IDX images file";
      } else if (m == LABELS_MAGIC) {
        what = "an IDX labels file";
      } else if (magic[0] == 0 && magic[1] == 0) {
        what = "an IDX file of unsupported type/rank (only unsigned bytes, 0x08, are supported)";
      } else {
        what = "not an IDX file";
      }
      throw new DatasetFormatException(
          source,
          String.format(
              "bad magic 0x%08x, %s; expected 0x%08x for IDX %s", m, what, expectedMagic, kind));
    }
    int rank = magic[3];
    byte[] dimBytes = in.readNBytes(4 * rank);
    if (dimBytes.length < 4 * rank) {
      throw new DatasetFormatException(
          source,
          "truncated IDX header (expected "
              + (4 + 4 * rank)
              + " bytes, got "
              + (4 + dimBytes.length)
              + ")");
    }
    ByteBuffer bb = ByteBuffer.wrap(dimBytes).order(ByteOrder.BIG_ENDIAN);
    int[] dims = new int[rank];
    for (int d = 0; d < rank; d++) {
      dims[d] = bb.getInt();
      if (dims[d] < 0) {
        throw new DatasetFormatException(
            source, "header claims a negative dimension " + dims[d] + " (dimension " + d + ")");
      }
    }
    if (dims[0] == 0) {
      throw new DatasetFormatException(source, "header claims zero " + kind + "; no samples");
    }
    for (int d = 1; d < rank; d++) {
      if (dims[d] == 0) {
        throw new DatasetFormatException(source, "header claims an image dimension of 0");
      }
    }
    return dims;
  }

  private static float[] readPixels(InputStream in, String source, int n, int rows, int cols)
      throws IOException {
    long total = (long) n * rows * cols;
    FeatureBuffer out = new FeatureBuffer(source);
    byte[] chunk = new byte[CHUNK];
    float[] values = new float[CHUNK];
    long done = 0;
    while (done < total) {
      int want = (int) Math.min(CHUNK, total - done);
      int got = in.readNBytes(chunk, 0, want);
      for (int k = 0; k < got; k++) {
        values[k] = (chunk[k] & 0xff) / 255f;
      }
      out.append(values, 0, got);
      done += got;
      if (got < want) {
        long imageBytes = (long) rows * cols;
        throw new DatasetFormatException(
            source,
            "truncated: header claims "
                + n
                + " images of "
                + rows
                + "x"
                + cols
                + " but the data ends in image "
                + (done / imageBytes)
                + " (got "
                + done
                + " of "
                + total
                + " pixel bytes)");
      }
    }
    expectEnd(in, source, n + " images");
    return out.toArray();
  }

  private static int[] readLabels(InputStream in, String source, int n) throws IOException {
    LabelBuffer out = new LabelBuffer();
    byte[] chunk = new byte[CHUNK];
    while (out.size() < n) {
      int want = Math.min(CHUNK, n - out.size());
      int got = in.readNBytes(chunk, 0, want);
      for (int k = 0; k < got; k++) {
        out.add(chunk[k] & 0xff);
      }
      if (got < want) {
        throw new DatasetFormatException(
            source,
            "truncated: header claims " + n + " labels but the file holds " + out.size());
      }
    }
    expectEnd(in, source, n + " labels");
    return out.toArray();
  }

  private static void expectEnd(InputStream in, String source, String what) throws IOException {
    if (in.read() != -1) {
      throw new DatasetFormatException(
          source, "unexpected data after the " + what + " the header claims");
    }
  }
}
