package io.hdfl.privacy.noise;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hdfl.kernels.VectorKernels;
import io.hdfl.kernels.VectorKernelsProvider;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class SeededNoiseSourceTest {
  private static final int N = 1_000_000;

  /** The scalar kernels, plus the Panama ones when this JVM can run them. */
  private static List<VectorKernels> kernels() {
    List<VectorKernels> all = new ArrayList<>();
    all.add(VectorKernelsProvider.scalar());
    VectorKernelsProvider.panama().ifPresent(all::add);
    return all;
  }

  @Test
  void millionDrawsAreZeroMeanGaussianWithTheRequestedVariance() {
    for (VectorKernels k : kernels()) {
      float[] model = new float[N];
      NoiseDraw draw = new SeededNoiseSource(20240601L, k).add(model, 7.5);
      assertEquals(new NoiseDraw("seeded", 7.5, 7.5, 7.5, 0, N, 0), draw);
      double[] x = new double[N];
      for (int i = 0; i < N; i++) {
        x[i] = model[i];
      }
      new Moments(x).assertGaussian("seeded " + k.name(), 7.5);
    }
  }

  @Test
  void sameSeedGivesBitIdenticalResults() {
    for (VectorKernels k : kernels()) {
      float[] a = run(new SeededNoiseSource(99, k));
      float[] b = run(new SeededNoiseSource(99, k));
      assertArrayEquals(a, b, k.name());
      assertFalse(Arrays.equals(a, run(new SeededNoiseSource(100, k))), "another seed, " + k.name());
    }
  }

  /** A sequence of calls with different ranges and variances on a non-trivial model. */
  private static float[] run(SeededNoiseSource s) {
    float[] model = new float[3 * SeededNoiseSource.CHUNK + 77];
    for (int i = 0; i < model.length; i++) {
      model[i] = (i % 13) - 6.25f;
    }
    s.add(model, 2.0);
    s.add(model, 5, 1000, 0.25);
    s.add(model, 0.0);
    s.add(model, 17, model.length - 17, 1e6);
    return model;
  }

  @Test
  void noiseIsExactlyTheKernelsGaussianStreamWhateverTheChunking() {
    for (VectorKernels k : kernels()) {
      int len = 2 * SeededNoiseSource.CHUNK + 300;
      float[] model = new float[len + 10];
      SplittableRandom values = new SplittableRandom(1);
      for (int i = 0; i < model.length; i++) {
        model[i] = (float) values.nextDouble(-50, 50);
      }
      float[] expected = model.clone();
      float[] noise = new float[len];
      k.fillGaussian(noise, 0, len, Math.sqrt(3.0), new SplittableRandom(5));
      for (int i = 0; i < len; i++) {
        expected[5 + i] += noise[i];
      }
      new SeededNoiseSource(5, k).add(model, 5, len, 3.0);
      assertArrayEquals(expected, model, k.name());
    }
  }

  @Test
  void zeroVarianceIsANoOp() {
    float[] model = {1.5f, Float.NaN, -3};
    SeededNoiseSource s = new SeededNoiseSource(1, VectorKernelsProvider.scalar());
    assertEquals(NoiseDraw.none("seeded"), s.add(model, 0.0));
    assertArrayEquals(new float[] {1.5f, Float.NaN, -3}, model);
    // and it does not consume the stream
    float[] a = new float[100];
    s.add(a, 1.0);
    float[] b = new float[100];
    new SeededNoiseSource(1, VectorKernelsProvider.scalar()).add(b, 1.0);
    assertArrayEquals(b, a);
  }

  @Test
  void aSourceResumedAtItsPositionContinuesTheSameStream() {
    for (VectorKernels k : kernels()) {
      SeededNoiseSource original = new SeededNoiseSource(7, k);
      assertEquals(0, original.position());
      original.add(new float[1000], 2.0);
      original.add(new float[3 * SeededNoiseSource.CHUNK + 5], 0.5);
      long position = original.position();
      assertTrue(position > 0, "drawing advances the position");
      float[] next = new float[777];
      original.add(next, 3.0);
      // a restarted peer rebuilds its source from the checkpointed position: the same noise follows
      float[] resumed = new float[777];
      SeededNoiseSource restarted = new SeededNoiseSource(7, k, position);
      assertEquals(position, restarted.position());
      restarted.add(resumed, 3.0);
      assertArrayEquals(next, resumed, k.name());
      float[] fresh = new float[777];
      new SeededNoiseSource(7, k).add(fresh, 3.0);
      assertFalse(Arrays.equals(next, fresh), "from position 0 the noise differs");
    }
    assertThrows(IllegalArgumentException.class, () -> new SeededNoiseSource(7, VectorKernelsProvider.scalar(), -1));
    assertEquals(-1, new SecureNoiseSource().position(), "a CSPRNG is never resumed");
  }

  /** {@link #run} with the next add drawn ahead before every call (for its length, or another one). */
  private static float[] runPrepared(SeededNoiseSource s, int lengthChange) {
    float[] model = new float[3 * SeededNoiseSource.CHUNK + 77];
    for (int i = 0; i < model.length; i++) {
      model[i] = (i % 13) - 6.25f;
    }
    s.prepare(model.length + lengthChange, 1.0);
    s.add(model, 2.0);
    s.prepare(1000 + lengthChange, Double.NaN); // the seeded draws do not depend on the variance
    s.add(model, 5, 1000, 0.25);
    s.prepare(model.length + lengthChange, 42.0);
    s.add(model, 0.0); // keeps what was drawn ahead for the next add
    s.add(model, 17, model.length - 17, 1e6);
    return model;
  }

  @Test
  void noiseDrawnAheadIsTheNoiseDrawnAtTheAdd() {
    for (VectorKernels k : kernels()) {
      float[] plain = run(new SeededNoiseSource(99, k));
      assertArrayEquals(plain, runPrepared(new SeededNoiseSource(99, k), 0), k.name() + ", prepared for each add");
      // drawn ahead for another length: the add restarts the stream where it stands, and nothing changes
      assertArrayEquals(plain, runPrepared(new SeededNoiseSource(99, k), 1), k.name() + ", prepared one value longer");
      assertArrayEquals(plain, runPrepared(new SeededNoiseSource(99, k), -128), k.name() + ", a block shorter");
    }
  }

  @Test
  void drawingAheadDoesNotMoveThePositionAndAResumedSourceContinuesTheSameStream() {
    for (VectorKernels k : kernels()) {
      SeededNoiseSource s = new SeededNoiseSource(7, k);
      s.add(new float[1000], 2.0);
      long position = s.position();
      s.prepare(20_000, 1.0);
      assertEquals(position, s.position(), "drawn ahead is not used");
      s.prepare(300, 1.0); // already drawn ahead: a no-op
      assertEquals(position, s.position());
      // a checkpoint taken now resumes exactly where the prepared add would have begun
      float[] next = new float[20_000];
      s.add(next, 3.0);
      float[] resumed = new float[20_000];
      new SeededNoiseSource(7, k, position).add(resumed, 3.0);
      assertArrayEquals(next, resumed, k.name());
      assertEquals(position + 2L * VectorKernels.gaussianPairs(20_000), s.position());
      // longer than MAX_AHEAD, or nothing: not drawn ahead
      s.prepare(SeededNoiseSource.MAX_AHEAD + 1, 1.0);
      s.prepare(0, 1.0);
      assertEquals(position + 2L * VectorKernels.gaussianPairs(20_000), s.position());
    }
  }

  @Test
  void validatesInputs() {
    NoiseSourceChecks.rejectsBadArguments(new SeededNoiseSource(1, VectorKernelsProvider.scalar()));
    assertThrows(NullPointerException.class, () -> new SeededNoiseSource(1, null));
  }

  @Test
  void saysItIsNotForDeployment() {
    SeededNoiseSource s = new SeededNoiseSource(42, VectorKernelsProvider.scalar());
    assertEquals("seeded", s.name());
    assertFalse(s.forDeployment());
    assertTrue(s.describe().contains("NOT FOR DEPLOYMENT (reproducible simulation noise)"), s.describe());
    assertTrue(s.describe().contains("seed 42"), s.describe());
    assertEquals(42, s.seed());
  }
}
