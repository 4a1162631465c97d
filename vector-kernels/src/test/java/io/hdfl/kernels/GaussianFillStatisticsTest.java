package io.hdfl.kernels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Moments of 2·10^6 draws from each implementation lie within tight confidence bounds. */
class GaussianFillStatisticsTest {

  @Test
  void meanVarianceAndTailsMatchNormal() {
    List<VectorKernels> all = new ArrayList<>();
    all.add(KernelPairs.scalar());
    String why = VectorKernelsProvider.panamaUnavailableReason();
    if (why == null) {
      all.add(new PanamaVectorKernels(true));
    }
    double sigma = 3.0;
    int n = 2_000_000;
    for (VectorKernels k : all) {
      float[] z = new float[n];
      k.fillGaussian(z, 0, n, sigma, new SplittableRandom(2024));
      double sum = 0;
      double sumSq = 0;
      double sum4 = 0;
      int beyond2 = 0;
      for (float v : z) {
        sum += v;
        sumSq += (double) v * v;
        sum4 += Math.pow(v / sigma, 4);
        if (Math.abs(v) > 2 * sigma) {
          beyond2++;
        }
      }
      double mean = sum / n;
      double var = sumSq / n - mean * mean;
      // 5-sigma bounds: sd(mean) = sigma/sqrt(n); sd(var) = sigma^2*sqrt(2/n).
      assertEquals(0.0, mean, 5 * sigma / Math.sqrt(n), k.name() + " mean");
      assertEquals(sigma * sigma, var, 5 * sigma * sigma * Math.sqrt(2.0 / n), k.name() + " variance");
      assertEquals(3.0, sum4 / n, 5 * Math.sqrt(96.0 / n), k.name() + " kurtosis");
      double p2 = 0.0455002638963586; // P(|Z| > 2)
      double expected = p2 * n;
      assertEquals(expected, beyond2, 5 * Math.sqrt(n * p2 * (1 - p2)), k.name() + " tail mass");
      // Odd pairs and the sin half are independent of the cos half: lag-one correlation ~ 0.
      double lag = 0;
      for (int i = 1; i < n; i++) {
        lag += (double) z[i] * z[i - 1];
      }
      double corr = lag / (n - 1) / var;
      assertTrue(Math.abs(corr) < 5 / Math.sqrt(n), k.name() + " lag-1 correlation " + corr);
    }
  }
}
