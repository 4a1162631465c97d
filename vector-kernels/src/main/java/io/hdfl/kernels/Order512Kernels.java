package io.hdfl.kernels;

import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * The Panama kernels whose sums would otherwise depend on the vector width, for 256-bit vectors
 * (AVX2): every sum is added in the order of 512-bit vectors, so that a model trained on an AVX2
 * machine has the bits it has on an AVX-512 one. A 512-bit accumulator's lane k sums the products of
 * the elements {@code i ≡ k (mod 16)} in order, and its sixteen lanes are then added from lane 0;
 * here each accumulator is two vectors, lanes 0–7 ({@code lo}) and 8–15 ({@code hi}), each fed from
 * its own half of every 16 elements; {@code lo} is stored before {@code hi}, and {@link
 * PanamaVectorKernels#laneSum} adds the sixteen lanes. Used by {@link PanamaVectorKernels} where
 * {@link #ACTIVE}: the int8 scores (one query at a time, five classes at a time: ten accumulators,
 * two widened halves and a prototype row fit AVX2's sixteen registers) and the sum of squares (an
 * encoder's input row's, before it is normalized; a prototype's, after a sample is bundled into it;
 * a float32 query's, for cosine scoring). Scores of float32 queries are not covered (README,
 * Determinism).
 */
final class Order512Kernels {
  private static final VectorSpecies<Float> F = FloatVector.SPECIES_PREFERRED;
  private static final int L = F.length();
  /** Lanes of the order kept: a 512-bit float vector's. */
  static final int ORDER_LANES = 16;
  /** Whether these kernels run: float vectors of half of {@link #ORDER_LANES}. */
  static final boolean ACTIVE = 2 * L == ORDER_LANES;
  /** One half's codes, where these kernels run: eight bytes, one float vector's worth. */
  private static final VectorSpecies<Byte> B = PanamaCodeKernels.B;

  private Order512Kernels() {}

  // ---------------------------------------------------------------- int8 scores

  /** The {@code nq} queries from {@code qOff}, one after another. */
  static void dotScores(byte[] q, int qOff, int nq, float[] p, int s, int d, float[] scores) {
    float[] lanes = PanamaVectorKernels.lanes();
    for (int k = 0; k < nq; k++) {
      one(q, qOff + k * d, p, s, d, scores, k * s, lanes);
    }
  }

  /** The {@code n} queries at {@code offsets[0..n)}, one after another. */
  static void dotScoresAt(byte[] q, int[] offsets, int n, float[] p, int s, int d, float[] scores) {
    float[] lanes = PanamaVectorKernels.lanes();
    for (int k = 0; k < n; k++) {
      one(q, offsets[k], p, s, d, scores, k * s, lanes);
    }
  }

  /** Classes {@code a} and {@code b} for the queries at {@code offsets[0..n)}. */
  static void dotScoresOfTwoAt(byte[] q, int[] offsets, int n, float[] p, int d, int a, int b, float[] scores) {
    float[] lanes = PanamaVectorKernels.lanes();
    for (int k = 0; k < n; k++) {
      scores[2 * k] = dot1(q, offsets[k], p, a * d, d, lanes);
      scores[2 * k + 1] = dot1(q, offsets[k], p, b * d, d, lanes);
    }
  }

  static float dotScore(byte[] q, int qo, float[] p, int d, int c) {
    return dot1(q, qo, p, c * d, d, PanamaVectorKernels.lanes());
  }

  /** The query at {@code qo}, its scores at {@code scores[o..o+s)}: five classes at a time, then four, then one. */
  private static void one(byte[] q, int qo, float[] p, int s, int d, float[] scores, int o, float[] lanes) {
    int c = 0;
    for (; c + 5 <= s; c += 5) {
      dot5(q, qo, p, c * d, d, scores, o + c, lanes);
    }
    if (c + 4 <= s) {
      dot4(q, qo, p, c * d, d, scores, o + c, lanes);
      c += 4;
    }
    for (; c < s; c++) {
      scores[o + c] = dot1(q, qo, p, c * d, d, lanes);
    }
  }

  private static float dot1(byte[] q, int qo, float[] p, int po, int d, float[] lanes) {
    FloatVector lo = FloatVector.zero(F), hi = lo;
    int i = 0;
    for (int bound = d - d % ORDER_LANES; i < bound; i += ORDER_LANES) {
      FloatVector x = (FloatVector) ByteVector.fromArray(B, q, qo + i).convertShape(VectorOperators.B2F, F, 0);
      FloatVector y = (FloatVector) ByteVector.fromArray(B, q, qo + i + L).convertShape(VectorOperators.B2F, F, 0);
      lo = x.fma(FloatVector.fromArray(F, p, po + i), lo);
      hi = y.fma(FloatVector.fromArray(F, p, po + i + L), hi);
    }
    lo.intoArray(lanes, 0);
    hi.intoArray(lanes, L);
    float t = PanamaVectorKernels.laneSum(lanes, ORDER_LANES);
    for (; i < d; i++) {
      t += q[qo + i] * p[po + i];
    }
    return t;
  }

  /** Four classes from {@code p0} for one query; {@link #dot1}'s order for each. */
  private static void dot4(byte[] q, int qo, float[] p, int p0, int d, float[] out, int o, float[] lanes) {
    int p1 = p0 + d, p2 = p1 + d, p3 = p2 + d;
    FloatVector a0 = FloatVector.zero(F), a1 = a0, a2 = a0, a3 = a0;
    FloatVector b0 = a0, b1 = a0, b2 = a0, b3 = a0;
    int i = 0;
    for (int bound = d - d % ORDER_LANES; i < bound; i += ORDER_LANES) {
      int j = i + L;
      FloatVector x = (FloatVector) ByteVector.fromArray(B, q, qo + i).convertShape(VectorOperators.B2F, F, 0);
      FloatVector y = (FloatVector) ByteVector.fromArray(B, q, qo + j).convertShape(VectorOperators.B2F, F, 0);
      a0 = x.fma(FloatVector.fromArray(F, p, p0 + i), a0);
      b0 = y.fma(FloatVector.fromArray(F, p, p0 + j), b0);
      a1 = x.fma(FloatVector.fromArray(F, p, p1 + i), a1);
      b1 = y.fma(FloatVector.fromArray(F, p, p1 + j), b1);
      a2 = x.fma(FloatVector.fromArray(F, p, p2 + i), a2);
      b2 = y.fma(FloatVector.fromArray(F, p, p2 + j), b2);
      a3 = x.fma(FloatVector.fromArray(F, p, p3 + i), a3);
      b3 = y.fma(FloatVector.fromArray(F, p, p3 + j), b3);
    }
    float[] t = new float[4];
    a0.intoArray(lanes, 0);
    b0.intoArray(lanes, L);
    t[0] = PanamaVectorKernels.laneSum(lanes, ORDER_LANES);
    a1.intoArray(lanes, 0);
    b1.intoArray(lanes, L);
    t[1] = PanamaVectorKernels.laneSum(lanes, ORDER_LANES);
    a2.intoArray(lanes, 0);
    b2.intoArray(lanes, L);
    t[2] = PanamaVectorKernels.laneSum(lanes, ORDER_LANES);
    a3.intoArray(lanes, 0);
    b3.intoArray(lanes, L);
    t[3] = PanamaVectorKernels.laneSum(lanes, ORDER_LANES);
    tails(q, qo, p, p0, d, i, t);
    System.arraycopy(t, 0, out, o, 4);
  }

  /** Five classes from {@code p0} for one query; {@link #dot1}'s order for each. */
  private static void dot5(byte[] q, int qo, float[] p, int p0, int d, float[] out, int o, float[] lanes) {
    int p1 = p0 + d, p2 = p1 + d, p3 = p2 + d, p4 = p3 + d;
    FloatVector a0 = FloatVector.zero(F), a1 = a0, a2 = a0, a3 = a0, a4 = a0;
    FloatVector b0 = a0, b1 = a0, b2 = a0, b3 = a0, b4 = a0;
    int i = 0;
    for (int bound = d - d % ORDER_LANES; i < bound; i += ORDER_LANES) {
      int j = i + L;
      FloatVector x = (FloatVector) ByteVector.fromArray(B, q, qo + i).convertShape(VectorOperators.B2F, F, 0);
      FloatVector y = (FloatVector) ByteVector.fromArray(B, q, qo + j).convertShape(VectorOperators.B2F, F, 0);
      a0 = x.fma(FloatVector.fromArray(F, p, p0 + i), a0);
      b0 = y.fma(FloatVector.fromArray(F, p, p0 + j), b0);
      a1 = x.fma(FloatVector.fromArray(F, p, p1 + i), a1);
      b1 = y.fma(FloatVector.fromArray(F, p, p1 + j), b1);
      a2 = x.fma(FloatVector.fromArray(F, p, p2 + i), a2);
      b2 = y.fma(FloatVector.fromArray(F, p, p2 + j), b2);
      a3 = x.fma(FloatVector.fromArray(F, p, p3 + i), a3);
      b3 = y.fma(FloatVector.fromArray(F, p, p3 + j), b3);
      a4 = x.fma(FloatVector.fromArray(F, p, p4 + i), a4);
      b4 = y.fma(FloatVector.fromArray(F, p, p4 + j), b4);
    }
    float[] t = new float[5];
    a0.intoArray(lanes, 0);
    b0.intoArray(lanes, L);
    t[0] = PanamaVectorKernels.laneSum(lanes, ORDER_LANES);
    a1.intoArray(lanes, 0);
    b1.intoArray(lanes, L);
    t[1] = PanamaVectorKernels.laneSum(lanes, ORDER_LANES);
    a2.intoArray(lanes, 0);
    b2.intoArray(lanes, L);
    t[2] = PanamaVectorKernels.laneSum(lanes, ORDER_LANES);
    a3.intoArray(lanes, 0);
    b3.intoArray(lanes, L);
    t[3] = PanamaVectorKernels.laneSum(lanes, ORDER_LANES);
    a4.intoArray(lanes, 0);
    b4.intoArray(lanes, L);
    t[4] = PanamaVectorKernels.laneSum(lanes, ORDER_LANES);
    tails(q, qo, p, p0, d, i, t);
    System.arraycopy(t, 0, out, o, 5);
  }

  /** Adds the products after the last whole 16 elements, from {@code i}, to the {@code t.length} classes from {@code p0}. */
  private static void tails(byte[] q, int qo, float[] p, int p0, int d, int i, float[] t) {
    for (; i < d; i++) {
      float v = q[qo + i];
      for (int c = 0; c < t.length; c++) {
        t[c] += v * p[p0 + c * d + i];
      }
    }
  }

  // ---------------------------------------------------------------- sum of squares

  /**
   * {@code Σ x²} in the order of {@link PanamaVectorKernels}' dot product with 512-bit vectors: four
   * accumulators over blocks of 64 elements, then blocks of 16 into the first, the four added lane by
   * lane ({@code (s0 + s1) + (s2 + s3)}), their lanes added, then the rest one by one.
   */
  static float sumOfSquares(float[] x, int off, int len, float[] lanes) {
    FloatVector a0 = FloatVector.zero(F), a1 = a0, a2 = a0, a3 = a0;
    FloatVector b0 = a0, b1 = a0, b2 = a0, b3 = a0;
    int i = 0;
    for (int bound = len - 4 * ORDER_LANES; i <= bound; i += 4 * ORDER_LANES) {
      FloatVector v = FloatVector.fromArray(F, x, off + i);
      a0 = v.fma(v, a0);
      v = FloatVector.fromArray(F, x, off + i + L);
      b0 = v.fma(v, b0);
      v = FloatVector.fromArray(F, x, off + i + 2 * L);
      a1 = v.fma(v, a1);
      v = FloatVector.fromArray(F, x, off + i + 3 * L);
      b1 = v.fma(v, b1);
      v = FloatVector.fromArray(F, x, off + i + 4 * L);
      a2 = v.fma(v, a2);
      v = FloatVector.fromArray(F, x, off + i + 5 * L);
      b2 = v.fma(v, b2);
      v = FloatVector.fromArray(F, x, off + i + 6 * L);
      a3 = v.fma(v, a3);
      v = FloatVector.fromArray(F, x, off + i + 7 * L);
      b3 = v.fma(v, b3);
    }
    for (int bound = len - len % ORDER_LANES; i < bound; i += ORDER_LANES) {
      FloatVector v = FloatVector.fromArray(F, x, off + i);
      a0 = v.fma(v, a0);
      v = FloatVector.fromArray(F, x, off + i + L);
      b0 = v.fma(v, b0);
    }
    a0.add(a1).add(a2.add(a3)).intoArray(lanes, 0);
    b0.add(b1).add(b2.add(b3)).intoArray(lanes, L);
    float s = PanamaVectorKernels.laneSum(lanes, ORDER_LANES);
    for (; i < len; i++) {
      s += x[off + i] * x[off + i];
    }
    return s;
  }
}
