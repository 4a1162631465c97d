package io.hdfl.sensors.window;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hdfl.sensors.signal.SyntheticMachiningSource;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The synthetic machine's classes are learnable but overlap: a nearest-centroid classifier (the simplest
 * linear model) on z-scored 10-sample windows of 90 channels (900 features) must land clearly above
 * chance and clearly below perfect on later cycles of the same machine.
 */
class SyntheticWindowsAccuracyTest {

  private static final int TRAIN_CYCLES = 120;
  private static final int TEST_CYCLES = 50;

  @Test
  void nearestCentroidOnTenSampleWindowsIsGoodButNotPerfect() throws Exception {
    for (int machine : new int[] {0, 3}) {
      double accuracy = nearestCentroidAccuracy(machine);
      System.out.printf("synthetic machining, machine %d: nearest-centroid accuracy %.3f on 10-sample windows%n",
          machine, accuracy);
      assertTrue(accuracy > 0.70 && accuracy < 0.95, "machine " + machine + ": " + accuracy);
    }
  }

  private static double nearestCentroidAccuracy(int machine) throws Exception {
    // Pass 1: normalization statistics of the training cycles only.
    ChannelStatistics stats;
    try (SyntheticMachiningSource src = SyntheticMachiningSource.builder().machine(machine).cycles(TRAIN_CYCLES)
        .build()) {
      Normalization n = Normalization.running(src.channels());
      Windowing w = Windowing.builder(src).normalization(n).build();
      while (w.next(src) != null) {
        // only the statistics matter here
      }
      stats = n.statistics();
    }
    // Pass 2: the same (deterministic) stream, longer; training windows are those of the first cycles.
    List<Window> train = new ArrayList<>();
    List<Window> test = new ArrayList<>();
    try (SyntheticMachiningSource src = SyntheticMachiningSource.builder().machine(machine)
        .cycles(TRAIN_CYCLES + TEST_CYCLES).build()) {
      Windowing w = Windowing.builder(src).size(10).stride(10).normalization(Normalization.fixed(stats)).build();
      Window x;
      while ((x = w.next(src)) != null) {
        (src.cyclesStarted() <= TRAIN_CYCLES ? train : test).add(x);
      }
      assertEquals(900, w.featureCount());
      assertTrue(w.stats().mixedLabelWindows() > 0, "windows straddling two cycles of different classes are dropped");
    }
    int features = train.get(0).featureCount();
    double[][] centroid = new double[SyntheticMachiningSource.CLASSES][features];
    int[] count = new int[SyntheticMachiningSource.CLASSES];
    for (Window x : train) {
      count[x.label()]++;
      for (int i = 0; i < features; i++) {
        centroid[x.label()][i] += x.feature(i);
      }
    }
    for (int k = 0; k < centroid.length; k++) {
      for (int i = 0; i < features; i++) {
        centroid[k][i] /= Math.max(1, count[k]);
      }
    }
    int correct = 0;
    for (Window x : test) {
      int best = -1;
      double bestDistance = Double.POSITIVE_INFINITY;
      for (int k = 0; k < centroid.length; k++) {
        if (count[k] == 0) {
          continue;
        }
        double d = 0;
        for (int i = 0; i < features; i++) {
          double e = x.feature(i) - centroid[k][i];
          d += e * e;
        }
        if (d < bestDistance) {
          bestDistance = d;
          best = k;
        }
      }
      correct += best == x.label() ? 1 : 0;
    }
    assertTrue(test.size() > 2000, "test windows: " + test.size());
    return correct / (double) test.size();
  }
}
