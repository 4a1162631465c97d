package io.hdfl.sensors.window;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.hdfl.sensors.signal.ListSignalSource;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Welford statistics against two-pass formulas. */
class ChannelStatisticsTest {

  @Test
  void matchesTwoPassMeanAndVarianceEvenOnALargeOffset() {
    Random r = new Random(11);
    int n = 10_000;
    float[][] x = new float[n][2];
    for (int i = 0; i < n; i++) {
      x[i][0] = (float) (3 + 2 * r.nextGaussian());
      x[i][1] = (float) (1e5 + 0.1 * r.nextGaussian());   // Σx² − (Σx)²/n would cancel catastrophically
    }
    ChannelStatistics s = new ChannelStatistics(ListSignalSource.channels(2));
    for (float[] v : x) {
      s.add(v);
    }
    for (int c = 0; c < 2; c++) {
      double mean = 0;
      for (float[] v : x) {
        mean += v[c];
      }
      mean /= n;
      double ss = 0;
      for (float[] v : x) {
        ss += (v[c] - mean) * (v[c] - mean);
      }
      assertEquals(mean, s.mean(c), Math.abs(mean) * 1e-12);
      assertEquals(ss / n, s.variance(c), ss / n * 1e-7);
    }
    assertEquals(n, s.count());
    assertEquals(2.0, s.standardDeviation(0), 0.05);
  }

  @Test
  void emptyAndSingleSampleStatistics() {
    ChannelStatistics s = new ChannelStatistics(ListSignalSource.channels(1));
    assertEquals(0, s.variance(0));
    s.add(new float[] {5});
    assertEquals(5, s.mean(0));
    assertEquals(0, s.variance(0));
    assertThrows(IllegalArgumentException.class, () -> s.add(new float[] {1, 2}));
  }

  @Test
  void restoredPartsAreValidated() {
    var ch = ListSignalSource.channels(2);
    ChannelStatistics s = new ChannelStatistics(ch, 4, new double[] {1, 2}, new double[] {4, 8});
    assertEquals(1.0, s.variance(0));
    assertEquals(2.0, s.variance(1));
    assertThrows(IllegalArgumentException.class, () -> new ChannelStatistics(ch, -1, new double[2], new double[2]));
    assertThrows(IllegalArgumentException.class, () -> new ChannelStatistics(ch, 1, new double[1], new double[2]));
    assertThrows(IllegalArgumentException.class,
        () -> new ChannelStatistics(ch, 1, new double[] {Double.NaN, 0}, new double[2]));
    assertEquals("channel c1: mean 0.0 and sum of squares -1.0 must be finite, the sum ≥ 0",
        assertThrows(IllegalArgumentException.class,
            () -> new ChannelStatistics(ch, 1, new double[2], new double[] {0, -1})).getMessage());
  }
}
