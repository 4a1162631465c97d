package io.hdfl.data;

import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.function.Executable;

/** Builds small data files byte by byte for the loader tests. */
final class TestFiles {
  private TestFiles() {}

  /** Little-endian int32s. */
  static byte[] le(int... values) {
    ByteBuffer b = ByteBuffer.allocate(4 * values.length).order(ByteOrder.LITTLE_ENDIAN);
    for (int v : values) {
      b.putInt(v);
    }
    return b.array();
  }

  /** Big-endian int32s. */
  static byte[] be(int... values) {
    ByteBuffer b = ByteBuffer.allocate(4 * values.length).order(ByteOrder.BIG_ENDIAN);
    for (int v : values) {
      b.putInt(v);
    }
    return b.array();
  }

  /** One choir_dat sample: features as little-endian float32, then the label. */
  static byte[] sample(int label, float... features) {
    ByteBuffer b = ByteBuffer.allocate(4 * features.length + 4).order(ByteOrder.LITTLE_ENDIAN);
    for (float v : features) {
      b.putFloat(v);
    }
    b.putInt(label);
    return b.array();
  }

  static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      out.writeBytes(p);
    }
    return out.toByteArray();
  }

  static byte[] gzip(byte[] data) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
      gz.write(data);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  static Path write(Path dir, String name, byte[] data) throws IOException {
    Path p = dir.resolve(name);
    Files.write(p, data);
    return p;
  }

  static Path write(Path dir, String name, String text) throws IOException {
    Path p = dir.resolve(name);
    Files.writeString(p, text);
    return p;
  }

  /** Runs {@code load}, expecting a DatasetFormatException, and returns its message. */
  static String failure(Executable load) {
    return assertThrows(DatasetFormatException.class, load).getMessage();
  }

  /** A small data set: n samples of f features, labels i % classes, value i*f+j scaled. */
  static Dataset synthetic(int n, int f, int classes) {
    float[] x = new float[n * f];
    int[] y = new int[n];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < f; j++) {
        x[i * f + j] = (i * f + j) * 0.25f - 3f;
      }
      y[i] = i % classes;
    }
    return new Dataset(f, x, y, classes, Dataset.indexClassNames(classes), "synthetic");
  }
}
