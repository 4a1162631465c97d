package io.hdfl.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class StratifiedSplitTest {
  /** Class c has counts[c] samples, interleaved. */
  private static int[] labels(int... counts) {
    int total = Arrays.stream(counts).sum();
    int[] y = new int[total];
    int[] left = counts.clone();
    int i = 0;
    while (i < total) {
      for (int c = 0; c < counts.length; c++) {
        if (left[c] > 0) {
          left[c]--;
          y[i++] = c;
        }
      }
    }
    return y;
  }

  @Test
  void perClassProportionsAndPartition() {
    int[] counts = {60, 59, 10, 3, 1};
    int[] y = labels(counts);
    int[][] parts = StratifiedSplit.splitIndices(y, counts.length, 0.2, 42);
    int[] train = parts[0];
    int[] test = parts[1];
    assertEquals(y.length, train.length + test.length);
    int[] testPerClass = new int[counts.length];
    for (int i : test) {
      testPerClass[y[i]]++;
    }
    for (int c = 0; c < counts.length; c++) {
      assertEquals(Math.round(0.2 * counts[c]), testPerClass[c], "class " + c);
    }
    // Disjoint, complete, ascending.
    int[] all = new int[y.length];
    System.arraycopy(train, 0, all, 0, train.length);
    System.arraycopy(test, 0, all, train.length, test.length);
    Arrays.sort(all);
    for (int i = 0; i < all.length; i++) {
      assertEquals(i, all[i]);
    }
    assertArrayEquals(Arrays.stream(train).sorted().toArray(), train);
    assertArrayEquals(Arrays.stream(test).sorted().toArray(), test);
  }

  @Test
  void deterministicPerSeedAndSeedsDiffer() {
    int[] y = labels(50, 50, 50);
    int[][] a = StratifiedSplit.splitIndices(y, 3, 0.3, 7);
    int[][] b = StratifiedSplit.splitIndices(y, 3, 0.3, 7);
    int[][] c = StratifiedSplit.splitIndices(y, 3, 0.3, 8);
    assertArrayEquals(a[1], b[1]);
    assertArrayEquals(a[0], b[0]);
    assertFalse(Arrays.equals(a[1], c[1]));
  }

  @Test
  void extremesAndBadFractions() {
    int[] y = labels(4, 4);
    assertEquals(0, StratifiedSplit.splitIndices(y, 2, 0, 1)[1].length);
    assertEquals(8, StratifiedSplit.splitIndices(y, 2, 1, 1)[1].length);
    assertThrows(IllegalArgumentException.class, () -> StratifiedSplit.splitIndices(y, 2, -0.1, 1));
    assertThrows(IllegalArgumentException.class, () -> StratifiedSplit.splitIndices(y, 2, 1.5, 1));
    assertThrows(
        IllegalArgumentException.class, () -> StratifiedSplit.splitIndices(y, 2, Double.NaN, 1));
  }

  @Test
  void datasetSplitCarriesSamples() {
    Dataset d = TestFiles.synthetic(30, 3, 3);
    TrainTestSplit s = StratifiedSplit.split(d, 0.2, 5);
    assertEquals(24, s.train().size());
    assertEquals(6, s.test().size());
    assertArrayEquals(new int[] {2, 2, 2}, s.test().labelHistogram());
    for (int k = 0; k < s.testIndices().length; k++) {
      assertArrayEquals(d.row(s.testIndices()[k]), s.test().row(k));
      assertEquals(d.label(s.testIndices()[k]), s.test().label(k));
    }
    assertEquals(3, s.test().numClasses());
  }

  @Test
  void isoletEightyTwenty() throws IOException {
    Path p =
        Paths.get(System.getProperty("hdfl.shared.data", "/work/shared/data"))
            .resolve("isolet_test.choir_dat.gz");
    assumeTrue(Files.isRegularFile(p), "ISOLET file not present: " + p);
    TrainTestSplit s = StratifiedSplit.split(Datasets.load(p), 0.2, 2024);
    assertEquals(26 * 12, s.test().size());
    assertEquals(1559 - 26 * 12, s.train().size());
    int[] testHist = s.test().labelHistogram();
    for (int c = 0; c < 26; c++) {
      assertEquals(12, testHist[c]);
    }
  }
}
