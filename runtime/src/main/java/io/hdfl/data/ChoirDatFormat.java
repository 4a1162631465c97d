package io.hdfl.data;

import io.hdfl.io.AtomicFile;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;

/**
 * The {@code choir_dat} format, the de facto exchange format of HD-computing data sets. All
 * integers and floats are little-endian:
 *
 * <pre>
 *   int32 n_features, int32 n_classes,
 *   then per sample: n_features x float32, int32 label (0-indexed),
 *   until end of file.
 * </pre>
 *
 * Files may be gzip-compressed (detected by magic bytes when reading; chosen by a {@code .gz}
 * name when writing). Reading checks {@code 1 <= n_features <= MAX_FEATURES}, {@code 1 <=
 * n_classes <= MAX_CLASSES}, that every sample is complete, every value finite and every label in
 * {@code [0, n_classes)}, and that there is at least one sample. Class names are {@code "0"..}.
 */
public final class ChoirDatFormat {
  private static final int HEADER_BYTES = 8;

  private ChoirDatFormat() {}

  /** Reads a (possibly gzip-compressed) {@code choir_dat} file. */
  public static Dataset read(Path path) throws IOException {
    try (InputStream in = Decompression.open(path)) {
      return read(in, path.toString());
    }
  }

  /**
   * Reads {@code choir_dat} data (already decompressed) from a stream, which is not closed.
   *
   * @param source names the data in error messages and in {@link Dataset#source()}
   */
  public static Dataset read(InputStream in, String source) throws IOException {
    byte[] header = in.readNBytes(HEADER_BYTES);
    if (header.length == 0) {
      throw new DatasetFormatException(source, "empty file (no choir_dat header)");
    }
    if (header.length < HEADER_BYTES) {
      throw new DatasetFormatException(
          source,
          "truncated header (expected " + HEADER_BYTES + " bytes, got " + header.length + ")");
    }
    ByteBuffer hb = ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN);
    int nFeatures = hb.getInt();
    int nClasses = hb.getInt();
    checkHeader(source, nFeatures, nClasses);

    int recordBytes = 4 * nFeatures + 4;
    FeatureBuffer features = new FeatureBuffer(source);
    LabelBuffer labels = new LabelBuffer();
    // The first record is read with readNBytes(len), which grows its buffer as bytes arrive; only
    // once a whole record has really been read are buffers of record size allocated.
    byte[] record = in.readNBytes(recordBytes);
    int got = record.length;
    float[] row = null;
    for (int sample = 0; got > 0; sample++) {
      if (got < recordBytes) {
        throw new DatasetFormatException(
            source,
            "truncated sample "
                + sample
                + " (expected "
                + recordBytes
                + " bytes, got "
                + got
                + ")");
      }
      if (row == null) {
        row = new float[nFeatures];
      }
      ByteBuffer rb = ByteBuffer.wrap(record).order(ByteOrder.LITTLE_ENDIAN);
      for (int j = 0; j < nFeatures; j++) {
        float v = rb.getFloat();
        if (!Float.isFinite(v)) {
          throw new DatasetFormatException(
              source,
              "sample " + sample + " feature " + j + " is " + v + " (values must be finite)");
        }
        row[j] = v;
      }
      int label = rb.getInt();
      if (label < 0 || label >= nClasses) {
        throw new DatasetFormatException(
            source,
            "sample "
                + sample
                + " has label "
                + label
                + ", outside [0, "
                + nClasses
                + ") declared by the header");
      }
      features.append(row, 0, nFeatures);
      labels.add(label);
      got = in.readNBytes(record, 0, recordBytes);
    }
    if (labels.size() == 0) {
      throw new DatasetFormatException(source, "no samples after the header");
    }
    return Dataset.wrap(
        nFeatures,
        features.toArray(),
        labels.toArray(),
        nClasses,
        Dataset.indexClassNames(nClasses),
        source);
  }

  private static void checkHeader(String source, int nFeatures, int nClasses) {
    if (nFeatures < 1 || nFeatures > Dataset.MAX_FEATURES) {
      throw new DatasetFormatException(
          source,
          "header claims n_features = "
              + nFeatures
              + ", outside [1, "
              + Dataset.MAX_FEATURES
              + "]"
              + endiannessHint(nFeatures, nClasses));
    }
    if (nClasses < 1 || nClasses > Dataset.MAX_CLASSES) {
      throw new DatasetFormatException(
          source,
          "header claims n_classes = "
              + nClasses
              + ", outside [1, "
              + Dataset.MAX_CLASSES
              + "]"
              + endiannessHint(nFeatures, nClasses));
    }
  }

  private static String endiannessHint(int nFeatures, int nClasses) {
    int f = Integer.reverseBytes(nFeatures);
    int c = Integer.reverseBytes(nClasses);
    boolean plausible = f >= 1 && f <= Dataset.MAX_FEATURES && c >= 1 && c <= Dataset.MAX_CLASSES;
    return plausible ? " (big-endian? choir_dat is little-endian)" : " (not a choir_dat file?)";
  }

  /**
   * Writes {@code data} to {@code path}, gzip-compressed if the name ends in {@code .gz}. The file
   * is written beside the target and moved into place, so readers never see a partial file.
   *
   * @throws IllegalArgumentException if {@code data} has no samples (readers reject such files)
   */
  public static void write(Dataset data, Path path) throws IOException {
    if (data.size() == 0) {
      throw new IllegalArgumentException(
          "cannot write " + data.source() + ": it has no samples, which choir_dat readers reject");
    }
    AtomicFile.write(path, file -> {
      if (Decompression.wantsGzip(path)) {
        GZIPOutputStream gz = new GZIPOutputStream(file, 1 << 16);
        write(data, gz);
        gz.finish();
      } else {
        write(data, file);
      }
    });
  }


  /**
   * Writes {@code data} in {@code choir_dat} layout (uncompressed) to a stream, not closed.
   *
   * @throws IllegalArgumentException if {@code data} has no samples (readers reject such files)
   */
  public static void write(Dataset data, OutputStream out) throws IOException {
    if (data.size() == 0) {
      throw new IllegalArgumentException(
          "cannot write " + data.source() + ": it has no samples, which choir_dat readers reject");
    }
    int f = data.featureCount();
    ByteBuffer header = ByteBuffer.allocate(HEADER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
    header.putInt(f).putInt(data.numClasses());
    out.write(header.array());
    ByteBuffer record = ByteBuffer.allocate(4 * f + 4).order(ByteOrder.LITTLE_ENDIAN);
    float[] values = data.features();
    for (int i = 0; i < data.size(); i++) {
      record.clear();
      int off = i * f;
      for (int j = 0; j < f; j++) {
        record.putFloat(values[off + j]);
      }
      record.putInt(data.label(i));
      out.write(record.array());
    }
    out.flush();
  }
}
