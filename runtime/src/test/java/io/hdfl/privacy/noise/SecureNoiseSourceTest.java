package io.hdfl.privacy.noise;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.SecureRandom;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class SecureNoiseSourceTest {
  private static final int N = 1_000_000;

  @Test
  void millionDrawsAreZeroMeanGaussianWithTheReportedVariance() {
    SecureNoiseSource source = new SecureNoiseSource();
    float[] model = new float[N];
    double variance = 372_876.49; // PrivateDFL, D = 10000, ε = 1, 1000 samples, δ0 = 1e-5
    NoiseDraw draw = source.add(model, variance);
    assertEquals(N, draw.draws());
    assertEquals(0, draw.roundedResults());
    assertTrue(draw.mechanismVariance() >= variance);
    assertTrue(draw.mechanismVariance() <= variance * (1 + 0x1p-19));
    assertEquals(draw.mechanismVariance(), draw.realisedVariance(), 0, "σ_Z ≥ 1024: no measurable deficit");
    double[] x = new double[N];
    for (int i = 0; i < N; i++) {
      x[i] = model[i];
      assertEquals(0, Math.IEEEremainder(model[i], draw.gridStep()), 0, "off the grid at " + i);
    }
    new Moments(x).assertGaussian("secure", draw.realisedVariance());
  }

  @Test
  void resultIsTheGridTimesSnappedValuePlusTheDiscreteGaussianDraw() {
    SplittableRandom r = new SplittableRandom(3);
    float[] model = new float[20_000];
    for (int i = 0; i < model.length; i++) {
      model[i] = (float) (r.nextGaussian() * 300); // values between grid points, up to ~10σ
    }
    model[7] = 0x1p-140f; // tiny: snaps to 0
    model[8] = -0.0f;
    model[9] = 1e6f; // far beyond 8σ: the result is rounded to float32
    double variance = 2.5e4;
    int k = SecureNoiseSource.gridExponent(Math.sqrt(variance));
    double g = Math.scalb(1.0, k);
    assertTrue(Math.sqrt(variance) / g >= 0x1p20 && Math.sqrt(variance) / g < 0x1p21);
    float[] noised = model.clone();
    long rounded = SecureNoiseSource.addOnGrid(noised, 0, noised.length, k,
        new DiscreteGaussianSampler(Math.scalb(variance, -2 * k), new SeededBits(42)));
    DiscreteGaussianSampler same = new DiscreteGaussianSampler(Math.scalb(variance, -2 * k), new SeededBits(42));
    long snapped = 0;
    long inexact = 0;
    for (int i = 0; i < model.length; i++) {
      long m = (long) Math.rint(model[i] / g);
      if (m * g != model[i]) {
        snapped++;
      }
      assertTrue(Math.abs(m * g - model[i]) <= g / 2, "snap moved value " + i + " by more than g/2");
      long z = same.sample();
      double exact = (m + z) * g;
      if (Math.abs(m + z) <= 1 << 24) {
        assertEquals(exact, noised[i], 0, "not exactly g·(m + Z) at " + i);
      }
      if (noised[i] != exact) {
        inexact++;
      }
      assertEquals(Float.floatToIntBits((float) exact), Float.floatToIntBits(noised[i]), "index " + i);
    }
    assertTrue(snapped > 10_000, "the test should exercise snapping: " + snapped);
    assertEquals(inexact, rounded);
    assertTrue(rounded >= 1 && rounded < 200, "rounded " + rounded);
  }

  @Test
  void publicAddStaysOnTheReportedGridAndOnlyTouchesItsRange() {
    SecureNoiseSource source = new SecureNoiseSource();
    float[] model = new float[1000];
    for (int i = 0; i < model.length; i++) {
      model[i] = i * 0.37f - 150;
    }
    float[] before = model.clone();
    NoiseDraw draw = source.add(model, 100, 800, 9.0);
    assertEquals(800, draw.draws());
    assertEquals(SecureNoiseSource.NAME, draw.source());
    double g = draw.gridStep();
    assertEquals(Math.scalb(1.0, 1 - 20), g, 0, "σ = 3: g = 2^(1 - 20)");
    assertEquals(g, SecureNoiseSource.gridStep(9.0), 0, "what the privacy report counts");
    assertEquals(0, SecureNoiseSource.gridStep(0), 0, "no noise, nothing snapped");
    for (double v : new double[] {1e-6, 0.7, 4, 1e5, 3.3e9}) {
      double step = SecureNoiseSource.gridStep(v);
      assertTrue(step <= Math.sqrt(v) / (1 << 20) && step > Math.sqrt(v) / (1 << 21), "σ/2^21 < g <= σ/2^20 at " + v);
    }
    for (int i = 0; i < model.length; i++) {
      if (i < 100 || i >= 900) {
        assertEquals(before[i], model[i], 0, "outside the range at " + i);
      } else {
        assertEquals(0, Math.IEEEremainder(model[i], g), 0, "off the grid at " + i);
        assertTrue(Math.abs(model[i] - before[i]) < 3 * 16, "implausible noise at " + i);
      }
    }
    long beyondExact = 0; // |result| > 2^24·g = 32: may need rounding to float32
    for (int i = 100; i < 900; i++) {
      beyondExact += Math.abs(model[i]) > 32 ? 1 : 0;
    }
    assertTrue(draw.roundedResults() > 0 && draw.roundedResults() <= beyondExact, draw + " vs " + beyondExact);
    assertEquals(g * Math.sqrt(10000), draw.snapSensitivity(10000), 0);
  }

  @Test
  void gridDependsOnSigmaOnlyAndValuesMustStayWithinIt() {
    for (double sigma : new double[] {1e-150, 1e-3, 1, 3, 610.6, 1e6, 0x1p120}) {
      double g = Math.scalb(1.0, SecureNoiseSource.gridExponent(sigma));
      assertTrue(sigma / g >= 0x1p20 && sigma / g < 0x1p21, "σ = " + sigma);
    }
    float[] huge = {0x1p33f, 0, 0}; // 2^33 > 2^52·g for σ = 1 (g = 2^-20)
    IllegalArgumentException big = assertThrows(IllegalArgumentException.class, () -> new SecureNoiseSource().add(huge, 1.0));
    assertTrue(big.getMessage().contains("is too large for noise σ = 1.0"), big.getMessage());
    assertArrayEquals(new float[] {0x1p33f, 0, 0}, huge, "a rejected call changes nothing");
    float[] large = {0x1p31f, 5, -7};
    NoiseDraw d = new SecureNoiseSource().add(large, 1.0);
    assertEquals(1, d.roundedResults(), "2^31 + noise is not a float32");
    assertEquals(0x1p31f, large[0], 0, "noise of σ = 1 is below float32 resolution at 2^31");
    IllegalArgumentException subnormal = assertThrows(IllegalArgumentException.class,
        () -> new SecureNoiseSource().add(new float[1], 1e-310));
    assertTrue(subnormal.getMessage().contains("below 2^-1022"), subnormal.getMessage());
    NoiseDraw tiny = new SecureNoiseSource().add(new float[3], Double.MIN_NORMAL);
    assertTrue(tiny.mechanismVariance() >= Double.MIN_NORMAL);
  }

  @Test
  void twoInstancesDoNotReproduceEachOther() {
    float[] a = new float[1000];
    float[] b = new float[1000];
    new SecureNoiseSource().add(a, 1.0);
    new SecureNoiseSource().add(b, 1.0);
    assertFalse(Arrays.equals(a, b));
    float[] c = new float[1000];
    SecureNoiseSource one = new SecureNoiseSource();
    one.add(c, 1.0);
    float[] d = new float[1000];
    one.add(d, 1.0);
    assertFalse(Arrays.equals(c, d));
  }

  /** A source whose bits are known (SHA1PRNG seeded before first use, keyed ChaCha20 as by default). */
  private static SecureNoiseSource known(long seed) throws Exception {
    SecureRandom r = SecureRandom.getInstance("SHA1PRNG");
    r.setSeed(seed);
    return new SecureNoiseSource(new CsprngBits(r, false, true));
  }

  private static float[] model(int n) {
    float[] m = new float[n];
    SplittableRandom r = new SplittableRandom(n);
    for (int i = 0; i < n; i++) {
      m[i] = (float) (r.nextGaussian() * 40);
    }
    return m;
  }

  @Test
  void drawnAheadForItsVarianceTheAddIsTheAddThatDrawsAtOnce() throws Exception {
    double variance = 207.598;
    float[] now = model(5000);
    NoiseDraw drawnNow = known(5).add(now, variance);
    float[] ahead = model(5000);
    SecureNoiseSource s = known(5);
    s.prepare(5000, variance * (1 + 1e-12)); // foreseen up to rounding: the same discrete Gaussian
    NoiseDraw drawnAhead = s.add(ahead, variance);
    assertArrayEquals(now, ahead);
    assertEquals(drawnNow, drawnAhead);
    // used once: the next add draws afresh (as the second add of a source that never drew ahead)
    SecureNoiseSource plain = known(5);
    plain.add(model(5000), variance);
    float[] secondPlain = model(5000);
    plain.add(secondPlain, variance);
    float[] second = model(5000);
    s.add(second, variance);
    assertArrayEquals(secondPlain, second);
  }

  @Test
  void drawsAheadForAnotherVarianceOrLengthAreForgottenAndNeverAdded() throws Exception {
    double variance = 78.925;
    for (Object[] ahead : new Object[][] {{5000, 68.368}, {4999, variance}}) {
      int len = (int) ahead[0];
      double aheadVariance = (double) ahead[1];
      SecureNoiseSource s = known(9);
      s.prepare(len, aheadVariance);
      float[] actual = model(5000);
      NoiseDraw draw = s.add(actual, variance);
      // the same as a source that made those draws, threw them away, and then added
      SecureNoiseSource reference = known(9);
      reference.add(model(len), aheadVariance);
      float[] expected = model(5000);
      assertEquals(reference.add(expected, variance), draw);
      assertArrayEquals(expected, actual, "drawn ahead: " + len + " values of variance " + aheadVariance);
    }
  }

  @Test
  void drawingAheadIsSkippedForWhatAnAddWouldRefuseOrNotKnow() throws Exception {
    for (double variance : new double[] {Double.NaN, 0.0, -1.0, Double.MIN_VALUE, Double.POSITIVE_INFINITY}) {
      SecureNoiseSource s = known(3);
      s.prepare(100, variance);
      s.prepare(SecureNoiseSource.MAX_AHEAD + 1, 4.0);
      s.prepare(0, 4.0);
      float[] a = model(100);
      s.add(a, 4.0);
      float[] b = model(100);
      known(3).add(b, 4.0);
      assertArrayEquals(b, a, "prepare(" + variance + ") drew nothing");
    }
  }

  @Test
  void zeroVarianceIsANoOp() {
    float[] model = {1.5f, Float.NaN, -3};
    NoiseDraw draw = new SecureNoiseSource().add(model, 0.0);
    assertArrayEquals(new float[] {1.5f, Float.NaN, -3}, model);
    assertEquals(NoiseDraw.none("secure"), draw);
    assertFalse(draw.added());
    assertEquals(0, draw.snapSensitivity(100), 0);
  }

  @Test
  void validatesInputs() {
    NoiseSourceChecks.rejectsBadArguments(new SecureNoiseSource());
  }

  @Test
  void describesItself() {
    SecureNoiseSource s = new SecureNoiseSource();
    assertEquals("secure", s.name());
    assertTrue(s.forDeployment());
    assertTrue(s.describe().contains("discrete Gaussian"), s.describe());
    assertTrue(s.describe().contains("DRBG"), s.describe());
    assertTrue(s.describe().contains("reseeded every update"), s.describe());
    SecureNoiseSource custom = new SecureNoiseSource(new SecureRandom());
    assertFalse(custom.describe().contains("reseeded"), custom.describe());
    float[] m = new float[10];
    custom.add(m, 4.0);
    assertThrows(NullPointerException.class, () -> new SecureNoiseSource((SecureRandom) null));
  }
}
