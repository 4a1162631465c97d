package io.hdfl.cli;

import io.hdfl.data.ChoirDatFormat;
import io.hdfl.data.Dataset;
import java.nio.file.Path;
import java.util.SplittableRandom;

/** Small separable data sets written as real files for CLI tests. */
final class SyntheticData {
  private SyntheticData() {}

  /** {@code n} samples, {@code f} features, {@code c} classes with class-specific means. */
  static Dataset blobs(int n, int f, int c, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    float[] x = new float[n * f];
    int[] y = new int[n];
    for (int i = 0; i < n; i++) {
      y[i] = i % c;
      for (int k = 0; k < f; k++) {
        x[i * f + k] = (float) ((k % c == y[i] ? 1.0 : 0.0) + 0.3 * (r.nextDouble() * 2 - 1));
      }
    }
    return new Dataset(f, x, y, c, Dataset.indexClassNames(c), "synthetic");
  }

  static Path write(Dataset d, Path file) throws Exception {
    ChoirDatFormat.write(d, file);
    return file;
  }
}
