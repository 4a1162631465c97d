package io.hdfl.kernels;

import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;

/**
 * The Panama kernels on int8 codes (quantized hypervectors): codes are loaded as bytes and widened to
 * float lanes, so a sample costs a quarter of the memory traffic of its float32 form. Every score has
 * one accumulator per query and class, summed over the dimensions in order, its lanes stored and added
 * with {@link PanamaVectorKernels#laneSum} and the tail after them, so single, pair and batch scores have
 * the same bits. Used only by {@link PanamaVectorKernels}; with 256-bit vectors it scores with {@link
 * Order512Kernels} instead, which adds in the order these kernels have with 512-bit ones.
 */
final class PanamaCodeKernels {
  private static final VectorSpecies<Float> F = FloatVector.SPECIES_PREFERRED;
  private static final int L = F.length();
  /**
   * Codes loaded at a time: one float vector's worth, or eight where a float vector has four lanes
   * (there is no 32-bit byte vector), widened in {@link #PARTS} parts.
   */
  static final VectorSpecies<Byte> B =
      L >= 8 ? VectorSpecies.of(byte.class, VectorShape.forBitSize(L * Byte.SIZE)) : ByteVector.SPECIES_64;
  static final int STEP = B.length();
  private static final int PARTS = STEP / L;

  private PanamaCodeKernels() {}

  static void axpy(float alpha, byte[] x, int xOff, float[] y, int yOff, int len) {
    FloatVector va = FloatVector.broadcast(F, alpha);
    int i = 0;
    for (int bound = B.loopBound(len); i < bound; i += STEP) {
      ByteVector codes = ByteVector.fromArray(B, x, xOff + i);
      for (int part = 0; part < PARTS; part++) {
        int j = i + part * L;
        FloatVector v = (FloatVector) codes.convertShape(VectorOperators.B2F, F, part);
        v.fma(va, FloatVector.fromArray(F, y, yOff + j)).intoArray(y, yOff + j);
      }
    }
    for (; i < len; i++) {
      y[yOff + i] += alpha * x[xOff + i];
    }
  }

  /** Four queries at a time in {@link #quadAt} tiles, the rest one at a time. */
  static void dotScores(byte[] q, int qOff, int nq, float[] p, int s, int d, float[] scores) {
    float[] lanes = PanamaVectorKernels.lanes();
    int k = 0;
    for (; k + 4 <= nq; k += 4) {
      int q0 = qOff + k * d;
      quadAt(q, q0, q0 + d, q0 + 2 * d, q0 + 3 * d, p, s, d, scores, k * s, lanes);
    }
    for (; k < nq; k++) {
      one(q, qOff + k * d, p, s, d, scores, k * s, lanes);
    }
  }

  /** The {@code n} queries at {@code offsets[0..n)}: {@link #quadAt} tiles of four, then a pair, then one. */
  static void dotScoresAt(byte[] q, int[] offsets, int n, float[] p, int s, int d, float[] scores) {
    float[] lanes = PanamaVectorKernels.lanes();
    int k = 0;
    for (; k + 4 <= n; k += 4) {
      quadAt(q, offsets[k], offsets[k + 1], offsets[k + 2], offsets[k + 3], p, s, d, scores, k * s, lanes);
    }
    if (k + 2 <= n) {
      pairAt(q, offsets[k], offsets[k + 1], p, s, d, scores, k * s, (k + 1) * s, lanes);
      k += 2;
    }
    if (k < n) {
      one(q, offsets[k], p, s, d, scores, k * s, lanes);
    }
  }

  /**
   * Four queries in tiles of four queries by four classes (each class row loaded once for the four: a
   * quarter of the prototype reads of one query at a time), their scores from {@code scores[o]}, one
   * query after another. Each score is one accumulator over the dimensions, as in {@link #dot1}, so it
   * has the bits of the query scored alone.
   */
  private static void quadAt(byte[] q, int q0, int q1, int q2, int q3, float[] p, int s, int d, float[] scores, int o,
      float[] lanes) {
    int c = 0;
    for (; c + 4 <= s; c += 4) {
      dot4Quad(q, q0, q1, q2, q3, p, c, d, s, scores, o + c, lanes);
    }
    for (; c + 2 <= s; c += 2) {
      dot2Pair(q, q0, q1, p, c * d, c * d + d, d, scores, o + c, o + s + c, lanes);
      dot2Pair(q, q2, q3, p, c * d, c * d + d, d, scores, o + 2 * s + c, o + 3 * s + c, lanes);
    }
    if (c < s) {
      scores[o + c] = dot1(q, q0, p, c * d, d, lanes);
      scores[o + s + c] = dot1(q, q1, p, c * d, d, lanes);
      scores[o + 2 * s + c] = dot1(q, q2, p, c * d, d, lanes);
      scores[o + 3 * s + c] = dot1(q, q3, p, c * d, d, lanes);
    }
  }

  /** The queries at {@code qa} and {@code qb}, their scores at {@code scores[oa..oa+s)} and {@code [ob..ob+s)}. */
  private static void pairAt(byte[] q, int qa, int qb, float[] p, int s, int d, float[] scores, int oa, int ob,
      float[] lanes) {
    int c = 0;
    for (; c + 8 <= s; c += 8) {
      dot8Pair(q, qa, qb, p, c * d, d, scores, oa + c, ob + c, lanes);
    }
    for (; c + 2 <= s; c += 2) {
      dot2Pair(q, qa, qb, p, c * d, c * d + d, d, scores, oa + c, ob + c, lanes);
    }
    if (c < s) {
      scores[oa + c] = dot1(q, qa, p, c * d, d, lanes);
      scores[ob + c] = dot1(q, qb, p, c * d, d, lanes);
    }
  }

  /** The query at {@code qo}, its scores at {@code scores[o..o+s)}. */
  private static void one(byte[] q, int qo, float[] p, int s, int d, float[] scores, int o, float[] lanes) {
    int c = 0;
    for (; c + 4 <= s; c += 4) {
      dot4(q, qo, p, c * d, d, scores, o + c, lanes);
    }
    for (; c < s; c++) {
      scores[o + c] = dot1(q, qo, p, c * d, d, lanes);
    }
  }

  /** Classes {@code a} and {@code b} for the queries at {@code offsets[0..n)}: pairs of queries, then one. */
  static void dotScoresOfTwoAt(byte[] q, int[] offsets, int n, float[] p, int d, int a, int b, float[] scores) {
    float[] lanes = PanamaVectorKernels.lanes();
    int k = 0;
    for (; k + 2 <= n; k += 2) {
      dot2Pair(q, offsets[k], offsets[k + 1], p, a * d, b * d, d, scores, 2 * k, 2 * k + 2, lanes);
    }
    if (k < n) {
      scores[2 * k] = dot1(q, offsets[k], p, a * d, d, lanes);
      scores[2 * k + 1] = dot1(q, offsets[k], p, b * d, d, lanes);
    }
  }

  static float dotScore(byte[] q, int qo, float[] p, int d, int c) {
    return dot1(q, qo, p, c * d, d, PanamaVectorKernels.lanes());
  }

  private static float dot1(byte[] q, int qo, float[] p, int po, int d, float[] lanes) {
    FloatVector s0 = FloatVector.zero(F);
    int i = 0;
    for (int bound = B.loopBound(d); i < bound; i += STEP) {
      ByteVector codes = ByteVector.fromArray(B, q, qo + i);
      for (int part = 0; part < PARTS; part++) {
        FloatVector v = (FloatVector) codes.convertShape(VectorOperators.B2F, F, part);
        s0 = v.fma(FloatVector.fromArray(F, p, po + i + part * L), s0);
      }
    }
    s0.intoArray(lanes, 0);
    float t = PanamaVectorKernels.laneSum(lanes, L);
    for (; i < d; i++) {
      t += q[qo + i] * p[po + i];
    }
    return t;
  }

  /** Four classes from {@code p0} for one query; {@link #dot1}'s order for each. */
  private static void dot4(byte[] q, int qo, float[] p, int p0, int d, float[] out, int o, float[] lanes) {
    int p1 = p0 + d, p2 = p1 + d, p3 = p2 + d;
    FloatVector s0 = FloatVector.zero(F), s1 = s0, s2 = s0, s3 = s0;
    int i = 0;
    for (int bound = B.loopBound(d); i < bound; i += STEP) {
      ByteVector codes = ByteVector.fromArray(B, q, qo + i);
      for (int part = 0; part < PARTS; part++) {
        FloatVector v = (FloatVector) codes.convertShape(VectorOperators.B2F, F, part);
        int j = i + part * L;
        s0 = v.fma(FloatVector.fromArray(F, p, p0 + j), s0);
        s1 = v.fma(FloatVector.fromArray(F, p, p1 + j), s1);
        s2 = v.fma(FloatVector.fromArray(F, p, p2 + j), s2);
        s3 = v.fma(FloatVector.fromArray(F, p, p3 + j), s3);
      }
    }
    s0.intoArray(lanes, 0);
    float t0 = PanamaVectorKernels.laneSum(lanes, L);
    s1.intoArray(lanes, 0);
    float t1 = PanamaVectorKernels.laneSum(lanes, L);
    s2.intoArray(lanes, 0);
    float t2 = PanamaVectorKernels.laneSum(lanes, L);
    s3.intoArray(lanes, 0);
    float t3 = PanamaVectorKernels.laneSum(lanes, L);
    for (; i < d; i++) {
      float v = q[qo + i];
      t0 += v * p[p0 + i];
      t1 += v * p[p1 + i];
      t2 += v * p[p2 + i];
      t3 += v * p[p3 + i];
    }
    out[o] = t0;
    out[o + 1] = t1;
    out[o + 2] = t2;
    out[o + 3] = t3;
  }

  /**
   * Classes {@code c0..c0+4) for the queries at {@code q0..q3}: sixteen independent chains, each class
   * row read once for the four queries. Query k's scores go to {@code out[o + k·s ..]}.
   */
  private static void dot4Quad(byte[] q, int q0, int q1, int q2, int q3, float[] p, int c0, int d, int s,
      float[] out, int o, float[] lanes) {
    int p0 = c0 * d, p1 = p0 + d, p2 = p1 + d, p3 = p2 + d;
    FloatVector a0 = FloatVector.zero(F), a1 = a0, a2 = a0, a3 = a0, b0 = a0, b1 = a0, b2 = a0, b3 = a0;
    FloatVector e0 = a0, e1 = a0, e2 = a0, e3 = a0, f0 = a0, f1 = a0, f2 = a0, f3 = a0;
    int i = 0;
    for (int bound = B.loopBound(d); i < bound; i += STEP) {
      ByteVector c0s = ByteVector.fromArray(B, q, q0 + i);
      ByteVector c1s = ByteVector.fromArray(B, q, q1 + i);
      ByteVector c2s = ByteVector.fromArray(B, q, q2 + i);
      ByteVector c3s = ByteVector.fromArray(B, q, q3 + i);
      for (int part = 0; part < PARTS; part++) {
        FloatVector x0 = (FloatVector) c0s.convertShape(VectorOperators.B2F, F, part);
        FloatVector x1 = (FloatVector) c1s.convertShape(VectorOperators.B2F, F, part);
        FloatVector x2 = (FloatVector) c2s.convertShape(VectorOperators.B2F, F, part);
        FloatVector x3 = (FloatVector) c3s.convertShape(VectorOperators.B2F, F, part);
        int j = i + part * L;
        FloatVector w = FloatVector.fromArray(F, p, p0 + j);
        a0 = x0.fma(w, a0);
        b0 = x1.fma(w, b0);
        e0 = x2.fma(w, e0);
        f0 = x3.fma(w, f0);
        w = FloatVector.fromArray(F, p, p1 + j);
        a1 = x0.fma(w, a1);
        b1 = x1.fma(w, b1);
        e1 = x2.fma(w, e1);
        f1 = x3.fma(w, f1);
        w = FloatVector.fromArray(F, p, p2 + j);
        a2 = x0.fma(w, a2);
        b2 = x1.fma(w, b2);
        e2 = x2.fma(w, e2);
        f2 = x3.fma(w, f2);
        w = FloatVector.fromArray(F, p, p3 + j);
        a3 = x0.fma(w, a3);
        b3 = x1.fma(w, b3);
        e3 = x2.fma(w, e3);
        f3 = x3.fma(w, f3);
      }
    }
    float[] t = new float[16];
    a0.intoArray(lanes, 0);
    t[0] = PanamaVectorKernels.laneSum(lanes, L);
    a1.intoArray(lanes, 0);
    t[1] = PanamaVectorKernels.laneSum(lanes, L);
    a2.intoArray(lanes, 0);
    t[2] = PanamaVectorKernels.laneSum(lanes, L);
    a3.intoArray(lanes, 0);
    t[3] = PanamaVectorKernels.laneSum(lanes, L);
    b0.intoArray(lanes, 0);
    t[4] = PanamaVectorKernels.laneSum(lanes, L);
    b1.intoArray(lanes, 0);
    t[5] = PanamaVectorKernels.laneSum(lanes, L);
    b2.intoArray(lanes, 0);
    t[6] = PanamaVectorKernels.laneSum(lanes, L);
    b3.intoArray(lanes, 0);
    t[7] = PanamaVectorKernels.laneSum(lanes, L);
    e0.intoArray(lanes, 0);
    t[8] = PanamaVectorKernels.laneSum(lanes, L);
    e1.intoArray(lanes, 0);
    t[9] = PanamaVectorKernels.laneSum(lanes, L);
    e2.intoArray(lanes, 0);
    t[10] = PanamaVectorKernels.laneSum(lanes, L);
    e3.intoArray(lanes, 0);
    t[11] = PanamaVectorKernels.laneSum(lanes, L);
    f0.intoArray(lanes, 0);
    t[12] = PanamaVectorKernels.laneSum(lanes, L);
    f1.intoArray(lanes, 0);
    t[13] = PanamaVectorKernels.laneSum(lanes, L);
    f2.intoArray(lanes, 0);
    t[14] = PanamaVectorKernels.laneSum(lanes, L);
    f3.intoArray(lanes, 0);
    t[15] = PanamaVectorKernels.laneSum(lanes, L);
    int[] qs = {q0, q1, q2, q3};
    for (; i < d; i++) {
      for (int k = 0; k < 4; k++) {
        float v = q[qs[k] + i];
        for (int c = 0; c < 4; c++) {
          t[4 * k + c] += v * p[p0 + c * d + i];
        }
      }
    }
    for (int k = 0; k < 4; k++) {
      System.arraycopy(t, 4 * k, out, o + k * s, 4);
    }
  }

  /**
   * The prototype rows at {@code p0} and {@code p1} (two classes) for the queries at {@code qa} and
   * {@code qb}, into {@code out[oa], out[oa + 1]} and {@code out[ob], out[ob + 1]}: four independent
   * chains.
   */
  private static void dot2Pair(byte[] q, int qa, int qb, float[] p, int p0, int p1, int d, float[] out, int oa, int ob,
      float[] lanes) {
    FloatVector a0 = FloatVector.zero(F), a1 = a0, b0 = a0, b1 = a0;
    int i = 0;
    for (int bound = B.loopBound(d); i < bound; i += STEP) {
      ByteVector xs = ByteVector.fromArray(B, q, qa + i);
      ByteVector ys = ByteVector.fromArray(B, q, qb + i);
      for (int part = 0; part < PARTS; part++) {
        FloatVector x = (FloatVector) xs.convertShape(VectorOperators.B2F, F, part);
        FloatVector y = (FloatVector) ys.convertShape(VectorOperators.B2F, F, part);
        int j = i + part * L;
        FloatVector w = FloatVector.fromArray(F, p, p0 + j);
        a0 = x.fma(w, a0);
        b0 = y.fma(w, b0);
        w = FloatVector.fromArray(F, p, p1 + j);
        a1 = x.fma(w, a1);
        b1 = y.fma(w, b1);
      }
    }
    a0.intoArray(lanes, 0);
    float ta0 = PanamaVectorKernels.laneSum(lanes, L);
    a1.intoArray(lanes, 0);
    float ta1 = PanamaVectorKernels.laneSum(lanes, L);
    b0.intoArray(lanes, 0);
    float tb0 = PanamaVectorKernels.laneSum(lanes, L);
    b1.intoArray(lanes, 0);
    float tb1 = PanamaVectorKernels.laneSum(lanes, L);
    for (; i < d; i++) {
      float u = q[qa + i];
      float v = q[qb + i];
      ta0 += u * p[p0 + i];
      ta1 += u * p[p1 + i];
      tb0 += v * p[p0 + i];
      tb1 += v * p[p1 + i];
    }
    out[oa] = ta0;
    out[oa + 1] = ta1;
    out[ob] = tb0;
    out[ob + 1] = tb1;
  }

  /** Eight classes from {@code p0} for the queries at {@code qa} and {@code qb}, the prototypes read once. */
  private static void dot8Pair(byte[] q, int qa, int qb, float[] p, int p0, int d, float[] out, int oa, int ob,
      float[] lanes) {
    int p1 = p0 + d, p2 = p1 + d, p3 = p2 + d, p4 = p3 + d, p5 = p4 + d, p6 = p5 + d, p7 = p6 + d;
    FloatVector a0 = FloatVector.zero(F), a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0, a6 = a0, a7 = a0;
    FloatVector b0 = a0, b1 = a0, b2 = a0, b3 = a0, b4 = a0, b5 = a0, b6 = a0, b7 = a0;
    int i = 0;
    for (int bound = B.loopBound(d); i < bound; i += STEP) {
      ByteVector xs = ByteVector.fromArray(B, q, qa + i);
      ByteVector ys = ByteVector.fromArray(B, q, qb + i);
      for (int part = 0; part < PARTS; part++) {
        FloatVector x = (FloatVector) xs.convertShape(VectorOperators.B2F, F, part);
        FloatVector y = (FloatVector) ys.convertShape(VectorOperators.B2F, F, part);
        int j = i + part * L;
        FloatVector w = FloatVector.fromArray(F, p, p0 + j);
        a0 = x.fma(w, a0);
        b0 = y.fma(w, b0);
        w = FloatVector.fromArray(F, p, p1 + j);
        a1 = x.fma(w, a1);
        b1 = y.fma(w, b1);
        w = FloatVector.fromArray(F, p, p2 + j);
        a2 = x.fma(w, a2);
        b2 = y.fma(w, b2);
        w = FloatVector.fromArray(F, p, p3 + j);
        a3 = x.fma(w, a3);
        b3 = y.fma(w, b3);
        w = FloatVector.fromArray(F, p, p4 + j);
        a4 = x.fma(w, a4);
        b4 = y.fma(w, b4);
        w = FloatVector.fromArray(F, p, p5 + j);
        a5 = x.fma(w, a5);
        b5 = y.fma(w, b5);
        w = FloatVector.fromArray(F, p, p6 + j);
        a6 = x.fma(w, a6);
        b6 = y.fma(w, b6);
        w = FloatVector.fromArray(F, p, p7 + j);
        a7 = x.fma(w, a7);
        b7 = y.fma(w, b7);
      }
    }
    float[] t = new float[16];
    a0.intoArray(lanes, 0);
    t[0] = PanamaVectorKernels.laneSum(lanes, L);
    a1.intoArray(lanes, 0);
    t[1] = PanamaVectorKernels.laneSum(lanes, L);
    a2.intoArray(lanes, 0);
    t[2] = PanamaVectorKernels.laneSum(lanes, L);
    a3.intoArray(lanes, 0);
    t[3] = PanamaVectorKernels.laneSum(lanes, L);
    a4.intoArray(lanes, 0);
    t[4] = PanamaVectorKernels.laneSum(lanes, L);
    a5.intoArray(lanes, 0);
    t[5] = PanamaVectorKernels.laneSum(lanes, L);
    a6.intoArray(lanes, 0);
    t[6] = PanamaVectorKernels.laneSum(lanes, L);
    a7.intoArray(lanes, 0);
    t[7] = PanamaVectorKernels.laneSum(lanes, L);
    b0.intoArray(lanes, 0);
    t[8] = PanamaVectorKernels.laneSum(lanes, L);
    b1.intoArray(lanes, 0);
    t[9] = PanamaVectorKernels.laneSum(lanes, L);
    b2.intoArray(lanes, 0);
    t[10] = PanamaVectorKernels.laneSum(lanes, L);
    b3.intoArray(lanes, 0);
    t[11] = PanamaVectorKernels.laneSum(lanes, L);
    b4.intoArray(lanes, 0);
    t[12] = PanamaVectorKernels.laneSum(lanes, L);
    b5.intoArray(lanes, 0);
    t[13] = PanamaVectorKernels.laneSum(lanes, L);
    b6.intoArray(lanes, 0);
    t[14] = PanamaVectorKernels.laneSum(lanes, L);
    b7.intoArray(lanes, 0);
    t[15] = PanamaVectorKernels.laneSum(lanes, L);
    for (; i < d; i++) {
      float u = q[qa + i];
      float v = q[qb + i];
      for (int j = 0; j < 8; j++) {
        t[j] += u * p[p0 + j * d + i];
        t[8 + j] += v * p[p0 + j * d + i];
      }
    }
    System.arraycopy(t, 0, out, oa, 8);
    System.arraycopy(t, 8, out, ob, 8);
  }
}
