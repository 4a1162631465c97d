package io.hdfl.hd;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hdfl.kernels.VectorKernels;
import io.hdfl.kernels.VectorKernelsProvider;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The two forms of an encoded set: float32, and int8 codes with a scale ({@link EncodedSet#quantize}). */
class EncodedSetTest {
  private static final VectorKernels K = VectorKernelsProvider.get();

  private static EncodedSet encoded(EncoderKind kind, int n, int d) {
    Encoder enc = new Encoder(new EncoderSpec(kind, 20, d, 5L), K, 1);
    return PrototypeTrainerTest.blobs(n, 9, enc);
  }

  @Test
  void signEncodingsAreStoredExactly() {
    EncodedSet f = encoded(EncoderKind.SIGN, 40, 301);
    EncodedSet q = f.quantize();
    assertTrue(q.quantized());
    assertFalse(f.quantized());
    assertEquals(1f, q.scale(), 0f);
    for (int i = 0; i < f.size(); i++) {
      assertArrayEquals(f.row(i), q.row(i), "sample " + i);
      assertEquals(f.squaredNorm(i), q.squaredNorm(i), 0.0);
      assertEquals(301.0, q.squaredNorm(i), 0.0); // every component is ±1
    }
  }

  @Test
  void cosEncodingsAreRoundedToHalfAStepAndStayInTheSensitivityBound() {
    EncodedSet f = encoded(EncoderKind.COS, 50, 1000);
    EncodedSet q = f.quantize();
    assertEquals(1f / 127, q.scale(), 0f);
    for (int i = 0; i < f.size(); i++) {
      float[] a = f.row(i);
      float[] b = q.row(i);
      double sq = 0;
      for (int j = 0; j < a.length; j++) {
        assertEquals(a[j], b[j], 0.5 / 127 + 1e-6, "sample " + i + " component " + j);
        assertTrue(Math.abs(b[j]) <= 1f, "|component| <= 1 keeps |H| <= sqrt(D)");
        sq += (double) b[j] * b[j];
      }
      assertEquals(sq, q.squaredNorm(i), 1e-7 * sq, "squared norm of the stored codes, sample " + i);
    }
    assertSame(q, q.quantize());
    assertThrows(IllegalStateException.class, q::vectors);
    assertEquals(f.labels().length, q.labels().length);
    assertArrayEquals(f.labels(), q.labels());
  }

  /**
   * An empty int8 set (a ring peer restarted with nothing left to learn) has no scale of its own: rows
   * appended to it keep theirs. With the empty set's scale of 1, cos components in [-1, 1] became -1, 0
   * or 1.
   */
  @Test
  void rowsAppendedToAnEmptyInt8SetAreQuantizedWithTheirOwnScale() {
    EncodedSet f = encoded(EncoderKind.COS, 20, 1000);
    EncodedSet empty = EncodedSet.of(new float[0], 0, f.dim(), new int[0], f.classes()).quantize();
    EncodedSet joined = empty.concat(f);
    assertTrue(joined.quantized());
    assertEquals(f.size(), joined.size());
    assertEquals(f.quantize().scale(), joined.scale());
    assertArrayEquals(f.quantize().row(7), joined.row(7));
    assertArrayEquals(f.labels(), joined.labels());
  }

  /** The latest rows are the last ones, copied with their labels, in the set's form and scale. */
  @Test
  void theLatestRowsAreTheLastOnesInTheSetsFormAndScale() {
    int dim = 8;
    float[] v = new float[5 * dim];
    for (int i = 0; i < v.length; i++) {
      v[i] = (float) Math.cos(0.37 * i);
    }
    int[] labels = {0, 1, 2, 0, 1};
    for (EncodedSet set : List.of(EncodedSet.of(v, 5, dim, labels, 3), EncodedSet.of(v, 5, dim, labels, 3).quantize())) {
      EncodedSet last = set.latest(2);
      assertEquals(2, last.size());
      assertEquals(set.quantized(), last.quantized());
      assertEquals(set.scale(), last.scale());
      assertArrayEquals(new int[] {0, 1}, last.labels());
      assertArrayEquals(set.row(3), last.row(0));
      assertArrayEquals(set.row(4), last.row(1));
      assertSame(set, set.latest(5), "no more rows than asked: the set itself");
      assertSame(set, set.latest(9));
      assertEquals(0, set.latest(0).size());
      assertThrows(IllegalArgumentException.class, () -> set.latest(-1));
    }
  }

  @Test
  void encodingStraightToInt8GivesTheCodesOfQuantizingTheFloats() {
    for (EncoderKind kind : EncoderKind.values()) {
      Encoder enc = new Encoder(new EncoderSpec(kind, 20, 257, 11L), K, 2);
      EncodedSet floats = PrototypeTrainerTest.blobs(600, 4, enc); // several chunks of rows, two threads
      float[] x = new float[600 * 20];
      int[] y = floats.labels();
      java.util.SplittableRandom r = new java.util.SplittableRandom(4);
      for (int i = 0; i < x.length; i++) {
        x[i] = (float) r.nextGaussian();
      }
      EncodedSet viaFloats = EncodedSet.encode(enc, x, 600, y, 3, 2).quantize();
      EncodedSet direct = EncodedSet.encode(enc, x, 600, y, 3, 2, EncodingPrecision.INT8);
      assertTrue(direct.quantized());
      assertEquals(viaFloats.scale(), direct.scale(), 0f, kind.id());
      assertEquals(kind == EncoderKind.SIGN ? 1f : 1f / 127, direct.scale(), 0f, kind.id());
      for (int i = 0; i < 600; i++) {
        assertArrayEquals(viaFloats.row(i), direct.row(i), kind.id() + " sample " + i);
        assertEquals(viaFloats.squaredNorm(i), direct.squaredNorm(i), 0.0);
        assertEquals(y[i], direct.label(i));
      }
      assertFalse(EncodedSet.encode(enc, x, 600, y, 3, 2, EncodingPrecision.FLOAT32).quantized());
      assertThrows(IllegalArgumentException.class,
          () -> EncodedSet.encode(enc, x, 600, new int[] {0}, 3, 2, EncodingPrecision.INT8));
    }
  }

  @Test
  void encodingOnceStraightToInt8GivesTheCodesOfEncodingWithTheWholeBasis() {
    java.util.List<VectorKernels> kernels = new java.util.ArrayList<>();
    kernels.add(VectorKernelsProvider.scalar());
    VectorKernelsProvider.panama().ifPresent(kernels::add);
    // D below and across basis blocks, not a multiple of any vector width, one column past a block;
    // n over two chunks of rows
    int[][] shapes = {{300, 23, 1000}, {37, 19, 2 * Encoder.STREAM_COLUMNS + 77}, {3, 7, Encoder.STREAM_COLUMNS + 1}};
    for (VectorKernels k : kernels) {
      for (int[] shape : shapes) {
        int n = shape[0], f = shape[1], d = shape[2];
        float[] x = EncoderTest.randomRows(n, f, n + d, 3.0);
        int[] y = new int[n];
        for (int i = 0; i < n; i++) {
          y[i] = i % 3;
        }
        for (EncoderKind kind : EncoderKind.values()) {
          EncoderSpec spec = new EncoderSpec(kind, f, d, 5L + d);
          EncodedSet whole = EncodedSet.encode(new Encoder(spec, k, 2), x, n, y, 3, 2, EncodingPrecision.INT8);
          EncodedSet once = EncodedSet.encodeOnce(spec, k, x, n, y, 3, 2, EncodingPrecision.INT8);
          String what = k.name() + " " + kind + " n=" + n + " D=" + d;
          assertTrue(once.quantized(), what);
          assertEquals(whole.scale(), once.scale(), 0f, what);
          for (int i = 0; i < n; i++) {
            assertArrayEquals(whole.row(i), once.row(i), what + " sample " + i);
            assertEquals(y[i], once.label(i));
          }
          assertFalse(EncodedSet.encodeOnce(spec, k, x, n, y, 3, 1, EncodingPrecision.FLOAT32).quantized(), what);
        }
      }
    }
  }

  @Test
  void valuesBeyondOneGetAScaleThatFitsTheLargest() {
    float[] v = {3.5f, -7f, 0.25f, 1f, 0f, -2f};
    EncodedSet q = EncodedSet.of(v, 2, 3, new int[] {0, 1}, 2).quantize();
    assertEquals(7f / 127, q.scale(), 1e-9f);
    assertEquals(-7f, q.row(0)[1], 1e-6f);
    for (int j = 0; j < 3; j++) {
      assertEquals(v[j], q.row(0)[j], 0.5 * 7 / 127 + 1e-6);
      assertEquals(v[3 + j], q.row(1)[j], 0.5 * 7 / 127 + 1e-6);
    }
    // integers within the code range are kept as they are
    EncodedSet ints = EncodedSet.of(new float[] {-127, 3, 0, 127}, 2, 2, new int[] {0, 0}, 1).quantize();
    assertEquals(1f, ints.scale(), 0f);
    assertArrayEquals(new float[] {-127, 3}, ints.row(0));
  }

  @Test
  void scoresAndUpdatesOfAnInt8SetAreThoseOfItsDecodedRows() {
    EncodedSet q = encoded(EncoderKind.COS, 30, 999).quantize();
    int s = 10;
    int d = q.dim();
    float[] protos = EncoderTest.randomRows(s, d, 3, 1.0);
    // five samples in any order: a tile of four and one alone
    int[] samples = {4, 17, 29, 0, 17};
    int[] offsets = new int[samples.length];
    for (int k = 0; k < samples.length; k++) {
      offsets[k] = q.offset(samples[k]);
    }
    float[] at = new float[samples.length * s];
    float[] batch = new float[6 * s];
    q.scoresAt(K, offsets, samples.length, protos, s, at);
    q.scores(K, 14, 6, protos, s, batch); // a tile of four samples and two alone
    for (int c = 0; c < s; c++) {
      float[] h = q.row(4);
      double exact = 0;
      for (int j = 0; j < d; j++) {
        exact += (double) h[j] * protos[c * d + j];
      }
      assertEquals(exact, at[c], 1e-4, "class " + c);
      // one sample's score has the same bits whichever way it is asked for
      for (int k = 0; k < samples.length; k++) {
        assertEquals(Float.floatToRawIntBits(q.score(K, samples[k], protos, s, c)),
            Float.floatToRawIntBits(at[k * s + c]), "sample " + samples[k] + " class " + c);
      }
      for (int k = 0; k < 6; k++) {
        assertEquals(Float.floatToRawIntBits(q.score(K, 14 + k, protos, s, c)),
            Float.floatToRawIntBits(batch[k * s + c]), "batch sample " + (14 + k) + " class " + c);
      }
    }
    float[] y = new float[d + 2];
    q.addTo(K, -2f, 7, y, 1);
    float[] h = q.row(7);
    assertEquals(0f, y[0], 0f);
    assertEquals(0f, y[d + 1], 0f);
    for (int j = 0; j < d; j++) {
      assertEquals(-2f * h[j], y[1 + j], 1e-6);
    }
  }

  @Test
  void subsetsAndConcatenationsKeepTheFormOfTheFirstSet() {
    EncodedSet f = encoded(EncoderKind.COS, 20, 64);
    EncodedSet q = f.quantize();
    EncodedSet sub = q.subset(new int[] {5, 2});
    assertTrue(sub.quantized());
    assertArrayEquals(q.row(5), sub.row(0));
    assertArrayEquals(q.row(2), sub.row(1));
    assertEquals(q.label(5), sub.label(0));

    EncodedSet longer = q.concat(f.subset(new int[] {0, 1}));
    assertTrue(longer.quantized());
    assertEquals(22, longer.size());
    assertEquals(q.scale(), longer.scale(), 0f);
    assertArrayEquals(q.row(0), longer.row(20)); // the float rows appended as this set's codes
    assertArrayEquals(q.row(19), longer.row(19));
    assertEquals(f.label(1), longer.label(21));

    EncodedSet mixed = f.concat(q.subset(new int[] {3}));
    assertFalse(mixed.quantized());
    assertArrayEquals(q.row(3), mixed.row(20)); // the codes appended decoded
    assertArrayEquals(f.row(7), mixed.row(7));
  }
}
