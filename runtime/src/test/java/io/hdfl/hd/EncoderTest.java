package io.hdfl.hd;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hdfl.kernels.VectorKernels;
import io.hdfl.kernels.VectorKernelsProvider;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class EncoderTest {
  private static final VectorKernels K = VectorKernelsProvider.get();

  static float[] randomRows(int n, int f, long seed, double scale) {
    SplittableRandom r = new SplittableRandom(seed);
    float[] x = new float[n * f];
    for (int i = 0; i < x.length; i++) {
      x[i] = (float) ((r.nextDouble() * 2 - 1) * scale);
    }
    return x;
  }

  @Test
  void matchesDirectDoublePrecisionComputation() {
    int n = 37, f = 23, d = 300;
    float[] x = randomRows(n, f, 1, 5.0);
    for (EncoderKind kind : EncoderKind.values()) {
      Encoder enc = new Encoder(new EncoderSpec(kind, f, d, 77L), K, 2);
      float[] out = new float[n * d];
      enc.encode(x, n, out, 2);
      float[] b = Basis.entries(77L, f, d, 1);
      Basis basis = Basis.generate(77L, f, d, K, 1);
      for (int i = 0; i < n; i++) {
        double norm = 0;
        for (int k = 0; k < f; k++) {
          norm += (double) x[i * f + k] * x[i * f + k];
        }
        norm = Math.sqrt(norm);
        for (int j = 0; j < d; j++) {
          double dot = 0;
          for (int k = 0; k < f; k++) {
            dot += x[i * f + k] / norm * b[k * d + j];
          }
          double expected;
          switch (kind) {
            case COS:
              expected = Math.cos(dot);
              break;
            case SIGN:
              if (Math.abs(dot) < 1e-4) {
                continue; // rounding may legitimately flip a sign this close to zero
              }
              expected = dot < 0 ? -1 : 1;
              break;
            default:
              expected = Math.cos(dot + basis.phases()[j]);
          }
          assertEquals(expected, out[i * d + j], 2e-5, kind + " at (" + i + "," + j + ")");
        }
      }
    }
  }

  @Test
  void everyValueInUnitRangeSoNormIsAtMostSqrtD() {
    int n = 300, f = 50, d = 1000;
    float[] x = randomRows(n, f, 2, 1000.0);
    for (EncoderKind kind : EncoderKind.values()) {
      Encoder enc = new Encoder(new EncoderSpec(kind, f, d, 5L), K, 2);
      float[] out = new float[n * d];
      enc.encode(x, n, out, 2);
      for (float v : out) {
        assertTrue(v >= -1f && v <= 1f, kind + " produced " + v);
      }
      for (int i = 0; i < n; i++) {
        assertTrue(K.sumOfSquares(out, i * d, d) <= d * (1 + 1e-6));
      }
      if (kind == EncoderKind.SIGN) {
        for (float v : out) {
          assertTrue(v == 1f || v == -1f);
        }
      }
    }
  }

  @Test
  void inputScaleDoesNotMatterBecauseSamplesAreNormalized() {
    int n = 5, f = 17, d = 128;
    float[] x = randomRows(n, f, 3, 1.0);
    float[] scaled = x.clone();
    for (int i = 0; i < scaled.length; i++) {
      scaled[i] *= 250f;
    }
    Encoder enc = new Encoder(new EncoderSpec(EncoderKind.COS, f, d, 1L), K, 1);
    float[] a = new float[n * d];
    float[] b = new float[n * d];
    enc.encode(x, n, a, 1);
    enc.encode(scaled, n, b, 1);
    for (int i = 0; i < a.length; i++) {
      assertEquals(a[i], b[i], 1e-5);
    }
    assertArrayEquals(java.util.Arrays.copyOfRange(a, d, 2 * d), enc.encode(java.util.Arrays.copyOfRange(x, f, 2 * f)));
  }

  @Test
  void batchResultIndependentOfThreadsAndChunking() {
    int n = 1000, f = 31, d = 200; // several 256-row chunks, uneven tail
    float[] x = randomRows(n, f, 4, 1.0);
    Encoder enc = new Encoder(new EncoderSpec(EncoderKind.COS_BIAS, f, d, 11L), K, 2);
    float[] one = new float[n * d];
    float[] two = new float[n * d];
    enc.encode(x, n, one, 1);
    enc.encode(x, n, two, 2);
    assertArrayEquals(one, two);
  }

  @Test
  void encodeOnceGivesTheSameBitsWithoutTheWholeBasis() {
    java.util.List<VectorKernels> kernels = new java.util.ArrayList<>();
    kernels.add(VectorKernelsProvider.scalar());
    VectorKernelsProvider.panama().ifPresent(kernels::add);
    // D below, at and across block boundaries, not a multiple of any vector width; n with uneven chunks;
    // and a last block narrower than a vector, whose scalar tail of the nonlinearity would wrap over rows
    int[][] shapes = {{1, 7, 50}, {300, 23, 1000}, {513, 31, Encoder.STREAM_COLUMNS},
        {37, 19, 2 * Encoder.STREAM_COLUMNS + 77}, {2, 7, Encoder.STREAM_COLUMNS + 1}, {3, 7, Encoder.STREAM_COLUMNS + 1},
        {5, 7, 2 * Encoder.STREAM_COLUMNS + 3}};
    for (VectorKernels k : kernels) {
      for (int[] shape : shapes) {
        int n = shape[0], f = shape[1], d = shape[2];
        float[] x = randomRows(n, f, n + d, 3.0);
        for (EncoderKind kind : EncoderKind.values()) {
          EncoderSpec spec = new EncoderSpec(kind, f, d, 5L + d);
          for (int threads : new int[] {1, 2}) {
            float[] whole = new float[n * d];
            new Encoder(spec, k, threads).encode(x, n, whole, threads);
            float[] streamed = new float[n * d];
            Encoder.encodeOnce(spec, k, x, n, streamed, threads);
            assertArrayEquals(whole, streamed, k.name() + " " + kind + " n=" + n + " f=" + f + " D=" + d + " threads=" + threads);
          }
        }
      }
    }
  }

  @Test
  void encodeOnceChecksItsInput() {
    EncoderSpec spec = new EncoderSpec(EncoderKind.COS, 4, 16, 1L);
    IllegalArgumentException nonFinite = assertThrows(IllegalArgumentException.class,
        () -> Encoder.encodeOnce(spec, K, new float[] {1, 0, Float.POSITIVE_INFINITY, 0}, 1, new float[16], 1));
    assertTrue(nonFinite.getMessage().contains("non-finite"));
    assertThrows(IllegalArgumentException.class, () -> Encoder.encodeOnce(spec, K, new float[7], 2, new float[32], 1));
    assertThrows(IllegalArgumentException.class, () -> Encoder.encodeOnce(spec, K, new float[8], 2, new float[31], 1));
  }

  @Test
  void zeroSampleEncodesAsCosOfZeroAndNonFiniteIsRejected() {
    Encoder enc = new Encoder(new EncoderSpec(EncoderKind.COS, 4, 16, 1L), K, 1);
    float[] h = enc.encode(new float[4]);
    for (float v : h) {
      assertEquals(1f, v);
    }
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> enc.encode(new float[] {1, Float.NaN, 0, 0}));
    assertTrue(e.getMessage().contains("non-finite"));
  }

  @Test
  void specValidation() {
    assertThrows(IllegalArgumentException.class, () -> new EncoderSpec(EncoderKind.COS, 0, 10, 1));
    assertThrows(IllegalArgumentException.class, () -> new EncoderSpec(EncoderKind.COS, 10, 0, 1));
    assertThrows(IllegalArgumentException.class, () -> new EncoderSpec(null, 10, 10, 1));
    assertEquals(EncoderKind.COS_BIAS, EncoderKind.parse("cos-bias"));
    assertThrows(IllegalArgumentException.class, () -> EncoderKind.parse("tanh"));
  }
}
