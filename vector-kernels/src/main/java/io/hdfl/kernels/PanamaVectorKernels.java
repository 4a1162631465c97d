package io.hdfl.kernels;

import java.util.random.RandomGenerator;
import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShuffle;
import jdk.incubator.vector.VectorSpecies;

/**
 * Panama Vector API kernels. This file, {@link PanamaCodeKernels} (its int8 kernels) and {@link
 * Order512Kernels} (the sums of 256-bit vectors in the order of 512-bit ones) are the only ones that
 * touch {@code jdk.incubator.vector}; it is loaded reflectively by {@link
 * VectorKernelsProvider} only after the module is known to be present.
 */
final class PanamaVectorKernels implements VectorKernels {
  private static final VectorSpecies<Float> F = FloatVector.SPECIES_PREFERRED;
  /**
   * Doubles of the same shape as {@link #F}: half as many lanes. Two of them convert into one vector of
   * {@link #F}: each with part 0, the second moved up by {@link #LOWER_TO_UPPER_HALF}, then blended.
   * C2 inlines the Vector API's methods into each kernel with profiles that all callers share, so
   * the kernels use one species per element type and convert with part 0 only (but for the int8
   * kernels' second part on 128-bit NEON, {@link PanamaCodeKernels}). A half-width float
   * species in the noise kernels (primed on a thread of its own) made the float profiles bimorphic,
   * and a projection GEMM compiled after that boxed its vectors: encoding Fashion-MNIST took 25 s
   * instead of 1.5 s in about half of the runs. A part −1 conversion put the part-handling path into
   * the int8 kernels' widening on x86: 9 % slower rounds (README, Kernels).
   */
  private static final VectorSpecies<Double> DS = DoubleVector.SPECIES_PREFERRED;
  private static final int L = F.length();
  /** The upper half of the lanes of {@link #F}. */
  private static final VectorMask<Float> UPPER_HALF = VectorMask.fromLong(F, -1L << DS.length());
  /** Moves the lower half of the lanes of {@link #F} to its upper half. */
  private static final VectorShuffle<Float> LOWER_TO_UPPER_HALF = VectorShuffle.fromOp(F, i -> (i + DS.length()) % L);

  // GEMM register tile: MR rows x NR vectors of C live in registers; B is packed in panels of W columns.
  static final int MR = 4;
  static final int NR = 3;
  static final int W = NR * L;
  // Cache blocking: rows per block (A block in L2), panels per column block (C and B blocks in L2),
  // and the largest k block. Measured on a 2-core AVX-512 VM (60000x784x2000): KC 1024 (no k split for
  // typical feature counts) 155 GFLOP/s vs 145 with KC 256; MC/NC in 64..256 / 4..16 within noise.
  private static final int MC = 128;
  private static final int NC_PANELS = 8;
  private static final int KC_MAX = 1024;
  private static final int MIN_ROWS_PER_THREAD = 32;

  // Polynomial cos: x = n*pi + r, |r| <= pi/2, cos x = (-1)^n cos r; pi split in three for exact products.
  private static final float INV_PI = (float) (1.0 / Math.PI);
  private static final float MAGIC = 12582912f; // 1.5 * 2^23: adding it rounds to an integer
  private static final float PI_A = Float.intBitsToFloat(Float.floatToIntBits((float) Math.PI) & 0xFFFFF000);
  private static final float PI_B =
      Float.intBitsToFloat(Float.floatToIntBits((float) (Math.PI - PI_A)) & 0xFFFFF000);
  private static final float PI_C = (float) (Math.PI - PI_A - PI_B);
  /** Beyond this magnitude the reduction loses accuracy; such chunks are computed with Math.cos. */
  static final float POLY_COS_LIMIT = 8192f;
  // Taylor coefficients of cos on [-pi/2, pi/2] in z = r^2; truncation error < 7e-9.
  private static final float C1 = -1f / 2f;
  private static final float C2 = 1f / 24f;
  private static final float C3 = -1f / 720f;
  private static final float C4 = 1f / 40320f;
  private static final float C5 = -1f / 3628800f;
  private static final float C6 = 1f / 479001600f;

  private final boolean polynomialCos;

  PanamaVectorKernels(boolean polynomialCos) {
    this.polynomialCos = polynomialCos;
  }

  static int preferredBits() {
    return F.vectorBitSize();
  }

  @Override
  public String name() {
    return "panama";
  }

  @Override
  public String describe() {
    return "panama (" + F.vectorBitSize() + "-bit FloatVector x" + L + ", GEMM tile " + MR + "x" + W
        + ", cos=" + (polynomialCos ? "polynomial" : "VectorOperators.COS") + ")";
  }

  @Override
  public int vectorBits() {
    return F.vectorBitSize();
  }

  boolean polynomialCos() {
    return polynomialCos;
  }

  @Override
  public PackedMatrix pack(float[] rowMajor, int rows, int cols) {
    return PackedMatrix.pack(rowMajor, rows, cols, W);
  }

  @Override
  public PackedMatrix pack(int rows, int cols, int threads, PackedMatrix.RowSource source) {
    return PackedMatrix.build(rows, cols, W, threads, source);
  }

  // ---------------------------------------------------------------- projection GEMM

  @Override
  public void project(float[] x, int xOff, int n, int f, PackedMatrix b, float[] out, int outOff, int threads) {
    KernelArgs.project(x, xOff, n, f, b, out, outOff);
    if (b.panelWidth() != W) {
      // Packed by another implementation: correct, not fast. Callers should pack with these kernels.
      ParallelRows.run(n, threads, 1, MIN_ROWS_PER_THREAD,
          (lo, hi) -> ScalarVectorKernels.projectRows(x, xOff, f, b, out, outOff, lo, hi));
      return;
    }
    ParallelRows.run(n, threads, MR, MIN_ROWS_PER_THREAD, (lo, hi) -> projectRows(x, xOff, f, b, out, outOff, lo, hi));
  }

  private static void projectRows(float[] x, int xOff, int f, PackedMatrix b, float[] out, int outOff,
      int lo, int hi) {
    final int d = b.cols();
    final float[] p = b.data();
    final int panels = b.panels();
    final int kBlocks = (f + KC_MAX - 1) / KC_MAX;
    final int kc = (f + kBlocks - 1) / kBlocks;
    final float[] tile = new float[MR * W];
    for (int ib = lo; ib < hi; ib += MC) {
      int ie = Math.min(hi, ib + MC);
      for (int jb = 0; jb < panels; jb += NC_PANELS) {
        int je = Math.min(panels, jb + NC_PANELS);
        for (int kb = 0; kb < f; kb += kc) {
          int ke = Math.min(f, kb + kc);
          boolean first = kb == 0;
          for (int pj = jb; pj < je; pj++) {
            int c0 = pj * W;
            int pbase = pj * W * f;
            boolean full = c0 + W <= d;
            int i = ib;
            for (; i + MR <= ie; i += MR) {
              if (full) {
                tile4(x, xOff, f, p, pbase, kb, ke, out, outOff + i * d + c0, d, i, first);
              } else {
                int cw = d - c0;
                if (!first) {
                  for (int r = 0; r < MR; r++) {
                    System.arraycopy(out, outOff + (i + r) * d + c0, tile, r * W, cw);
                  }
                }
                tile4(x, xOff, f, p, pbase, kb, ke, tile, 0, W, i, first);
                for (int r = 0; r < MR; r++) {
                  System.arraycopy(tile, r * W, out, outOff + (i + r) * d + c0, cw);
                }
              }
            }
            for (; i < ie; i++) {
              if (full) {
                tile1(x, xOff, f, p, pbase, kb, ke, out, outOff + i * d + c0, i, first);
              } else {
                int cw = d - c0;
                if (!first) {
                  System.arraycopy(out, outOff + i * d + c0, tile, 0, cw);
                }
                tile1(x, xOff, f, p, pbase, kb, ke, tile, 0, i, first);
                System.arraycopy(tile, 0, out, outOff + i * d + c0, cw);
              }
            }
          }
        }
      }
    }
  }

  /** C[4 x W] (+)= A[rows i..i+3, kb..ke) . Bpanel[kb..ke, W]; C at c[co + r*cs + j]. */
  private static void tile4(float[] x, int xOff, int f, float[] p, int pbase, int kb, int ke,
      float[] c, int co, int cs, int i, boolean first) {
    FloatVector c00, c01, c02, c10, c11, c12, c20, c21, c22, c30, c31, c32;
    int r0 = co, r1 = co + cs, r2 = co + 2 * cs, r3 = co + 3 * cs;
    if (first) {
      c00 = c01 = c02 = c10 = c11 = c12 = c20 = c21 = c22 = c30 = c31 = c32 = FloatVector.zero(F);
    } else {
      c00 = FloatVector.fromArray(F, c, r0);
      c01 = FloatVector.fromArray(F, c, r0 + L);
      c02 = FloatVector.fromArray(F, c, r0 + 2 * L);
      c10 = FloatVector.fromArray(F, c, r1);
      c11 = FloatVector.fromArray(F, c, r1 + L);
      c12 = FloatVector.fromArray(F, c, r1 + 2 * L);
      c20 = FloatVector.fromArray(F, c, r2);
      c21 = FloatVector.fromArray(F, c, r2 + L);
      c22 = FloatVector.fromArray(F, c, r2 + 2 * L);
      c30 = FloatVector.fromArray(F, c, r3);
      c31 = FloatVector.fromArray(F, c, r3 + L);
      c32 = FloatVector.fromArray(F, c, r3 + 2 * L);
    }
    int a0 = xOff + i * f, a1 = a0 + f, a2 = a1 + f, a3 = a2 + f;
    for (int k = kb, bo = pbase + kb * W; k < ke; k++, bo += W) {
      FloatVector b0 = FloatVector.fromArray(F, p, bo);
      FloatVector b1 = FloatVector.fromArray(F, p, bo + L);
      FloatVector b2 = FloatVector.fromArray(F, p, bo + 2 * L);
      FloatVector a = FloatVector.broadcast(F, x[a0 + k]);
      c00 = b0.fma(a, c00);
      c01 = b1.fma(a, c01);
      c02 = b2.fma(a, c02);
      a = FloatVector.broadcast(F, x[a1 + k]);
      c10 = b0.fma(a, c10);
      c11 = b1.fma(a, c11);
      c12 = b2.fma(a, c12);
      a = FloatVector.broadcast(F, x[a2 + k]);
      c20 = b0.fma(a, c20);
      c21 = b1.fma(a, c21);
      c22 = b2.fma(a, c22);
      a = FloatVector.broadcast(F, x[a3 + k]);
      c30 = b0.fma(a, c30);
      c31 = b1.fma(a, c31);
      c32 = b2.fma(a, c32);
    }
    c00.intoArray(c, r0);
    c01.intoArray(c, r0 + L);
    c02.intoArray(c, r0 + 2 * L);
    c10.intoArray(c, r1);
    c11.intoArray(c, r1 + L);
    c12.intoArray(c, r1 + 2 * L);
    c20.intoArray(c, r2);
    c21.intoArray(c, r2 + L);
    c22.intoArray(c, r2 + 2 * L);
    c30.intoArray(c, r3);
    c31.intoArray(c, r3 + L);
    c32.intoArray(c, r3 + 2 * L);
  }

  /** One-row version of {@link #tile4} for the row tail. */
  private static void tile1(float[] x, int xOff, int f, float[] p, int pbase, int kb, int ke,
      float[] c, int co, int i, boolean first) {
    FloatVector c0, c1, c2;
    if (first) {
      c0 = c1 = c2 = FloatVector.zero(F);
    } else {
      c0 = FloatVector.fromArray(F, c, co);
      c1 = FloatVector.fromArray(F, c, co + L);
      c2 = FloatVector.fromArray(F, c, co + 2 * L);
    }
    int a0 = xOff + i * f;
    for (int k = kb, bo = pbase + kb * W; k < ke; k++, bo += W) {
      FloatVector a = FloatVector.broadcast(F, x[a0 + k]);
      c0 = FloatVector.fromArray(F, p, bo).fma(a, c0);
      c1 = FloatVector.fromArray(F, p, bo + L).fma(a, c1);
      c2 = FloatVector.fromArray(F, p, bo + 2 * L).fma(a, c2);
    }
    c0.intoArray(c, co);
    c1.intoArray(c, co + L);
    c2.intoArray(c, co + 2 * L);
  }

  // ---------------------------------------------------------------- elementwise

  @Override
  public void cos(float[] src, int srcOff, float[] dst, int dstOff, int len) {
    KernelArgs.range(src, srcOff, len, "src");
    KernelArgs.range(dst, dstOff, len, "dst");
    int i = 0;
    int bound = F.loopBound(len);
    if (polynomialCos) {
      for (; i < bound; i += L) {
        polyCos(src, srcOff + i, dst, dstOff + i);
      }
    } else {
      for (; i < bound; i += L) {
        FloatVector.fromArray(F, src, srcOff + i).lanewise(VectorOperators.COS).intoArray(dst, dstOff + i);
      }
    }
    for (; i < len; i++) {
      dst[dstOff + i] = (float) Math.cos(src[srcOff + i]);
    }
  }

  /**
   * cos of one vector of {@code src} from {@code si} into {@code dst} from {@code di}: the polynomial,
   * max abs error about 2e-7, where every |x| <= {@link #POLY_COS_LIMIT}, else {@code Math.cos} lane by
   * lane (also for NaN). Arrays in and out, not vectors: see {@link #laneSum}.
   */
  static void polyCos(float[] src, int si, float[] dst, int di) {
    FloatVector x = FloatVector.fromArray(F, src, si);
    if (x.abs().compare(VectorOperators.GT, POLY_COS_LIMIT).anyTrue() || x.test(VectorOperators.IS_NAN).anyTrue()) {
      for (int j = 0; j < L; j++) {
        dst[di + j] = (float) Math.cos(src[si + j]);
      }
      return;
    }
    FloatVector t = x.fma(INV_PI, MAGIC); // MAGIC + round(x / pi); low mantissa bit = parity
    FloatVector n = t.sub(MAGIC);
    FloatVector r = n.fma(FloatVector.broadcast(F, -PI_A), x);
    r = n.fma(FloatVector.broadcast(F, -PI_B), r);
    r = n.fma(FloatVector.broadcast(F, -PI_C), r);
    FloatVector z = r.mul(r);
    FloatVector poly = z.fma(C6, C5);
    poly = poly.fma(z, FloatVector.broadcast(F, C4));
    poly = poly.fma(z, FloatVector.broadcast(F, C3));
    poly = poly.fma(z, FloatVector.broadcast(F, C2));
    poly = poly.fma(z, FloatVector.broadcast(F, C1));
    poly = poly.fma(z, FloatVector.broadcast(F, 1f));
    IntVector signBit = t.reinterpretAsInts().lanewise(VectorOperators.LSHL, 31);
    poly.reinterpretAsInts().lanewise(VectorOperators.XOR, signBit).reinterpretAsFloats().intoArray(dst, di);
  }

  @Override
  public void sign(float[] src, int srcOff, float[] dst, int dstOff, int len) {
    KernelArgs.range(src, srcOff, len, "src");
    KernelArgs.range(dst, dstOff, len, "dst");
    FloatVector one = FloatVector.broadcast(F, 1f);
    FloatVector minusOne = FloatVector.broadcast(F, -1f);
    int i = 0;
    for (int bound = F.loopBound(len); i < bound; i += L) {
      VectorMask<Float> neg = FloatVector.fromArray(F, src, srcOff + i).compare(VectorOperators.LT, 0f);
      one.blend(minusOne, neg).intoArray(dst, dstOff + i);
    }
    for (; i < len; i++) {
      dst[dstOff + i] = src[srcOff + i] < 0f ? -1f : 1f;
    }
  }

  // ---------------------------------------------------------------- BLAS-1

  /**
   * Scratch for {@link #laneSum}, one per thread, looked up once per public call and passed down: room
   * for two vectors ({@link Order512Kernels} stores a sum's two halves).
   */
  private static final ThreadLocal<float[]> LANES = ThreadLocal.withInitial(() -> new float[2 * L]);

  /** This thread's scratch for {@link #laneSum}. */
  static float[] lanes() {
    return LANES.get();
  }

  /**
   * The first {@code count} floats of {@code lanes} added one after another, {@code ((0 + l0) + l1) +
   * ...}: a vector's lanes once stored with {@code intoArray(lanes, 0)}, in the order of {@code
   * reduceLanes(ADD)} in JDK 17's interpreter and C2 alike, written out because JDK 25's C2 sums the
   * lanes in another order than its interpreter and C1, so that a score, and with it a model, would
   * depend on when its kernel was compiled.
   *
   * <p>It takes the stored lanes, not the vector: no method here takes or returns a vector. C2 inlines
   * a method that is not force-inlined only where the call site's profile looks hot, or where the method
   * is tiny and not already compiled on its own into more than a little code. Where it does not, a
   * vector crossing the call is boxed, and a loop's accumulator passed on after the loop is boxed at
   * every iteration: a retraining pass then allocated gigabytes and took four to six times as long, in
   * some JVM runs and not others (README, How it works).
   */
  static float laneSum(float[] lanes, int count) {
    float s = 0f;
    for (int k = 0; k < count; k++) {
      s += lanes[k];
    }
    return s;
  }

  @Override
  public float dot(float[] a, int aOff, float[] b, int bOff, int len) {
    KernelArgs.range(a, aOff, len, "a");
    KernelArgs.range(b, bOff, len, "b");
    return dotUnchecked(a, aOff, b, bOff, len, LANES.get());
  }

  private static float dotUnchecked(float[] a, int aOff, float[] b, int bOff, int len, float[] lanes) {
    FloatVector s0 = FloatVector.zero(F), s1 = FloatVector.zero(F), s2 = FloatVector.zero(F),
        s3 = FloatVector.zero(F);
    int i = 0;
    for (int bound = len - 4 * L; i <= bound; i += 4 * L) {
      s0 = FloatVector.fromArray(F, a, aOff + i).fma(FloatVector.fromArray(F, b, bOff + i), s0);
      s1 = FloatVector.fromArray(F, a, aOff + i + L).fma(FloatVector.fromArray(F, b, bOff + i + L), s1);
      s2 = FloatVector.fromArray(F, a, aOff + i + 2 * L).fma(FloatVector.fromArray(F, b, bOff + i + 2 * L), s2);
      s3 = FloatVector.fromArray(F, a, aOff + i + 3 * L).fma(FloatVector.fromArray(F, b, bOff + i + 3 * L), s3);
    }
    for (int bound = F.loopBound(len); i < bound; i += L) {
      s0 = FloatVector.fromArray(F, a, aOff + i).fma(FloatVector.fromArray(F, b, bOff + i), s0);
    }
    s0.add(s1).add(s2.add(s3)).intoArray(lanes, 0);
    float s = laneSum(lanes, L);
    for (; i < len; i++) {
      s += a[aOff + i] * b[bOff + i];
    }
    return s;
  }

  @Override
  public void axpy(float alpha, float[] x, int xOff, float[] y, int yOff, int len) {
    KernelArgs.range(x, xOff, len, "x");
    KernelArgs.range(y, yOff, len, "y");
    FloatVector va = FloatVector.broadcast(F, alpha);
    int i = 0;
    for (int bound = F.loopBound(len); i < bound; i += L) {
      FloatVector.fromArray(F, x, xOff + i)
          .fma(va, FloatVector.fromArray(F, y, yOff + i))
          .intoArray(y, yOff + i);
    }
    for (; i < len; i++) {
      y[yOff + i] += alpha * x[xOff + i];
    }
  }

  @Override
  public void scale(float alpha, float[] x, int off, int len) {
    KernelArgs.range(x, off, len, "x");
    int i = 0;
    for (int bound = F.loopBound(len); i < bound; i += L) {
      FloatVector.fromArray(F, x, off + i).mul(alpha).intoArray(x, off + i);
    }
    for (; i < len; i++) {
      x[off + i] *= alpha;
    }
  }

  @Override
  public float sumOfSquares(float[] x, int off, int len) {
    KernelArgs.range(x, off, len, "x");
    if (Order512Kernels.ACTIVE) {
      return Order512Kernels.sumOfSquares(x, off, len, LANES.get());
    }
    return dotUnchecked(x, off, x, off, len, LANES.get());
  }

  // ---------------------------------------------------------------- similarity

  @Override
  public void dotScores(float[] queries, int qOff, int nq, float[] protos, int s, int d, float[] scores) {
    KernelArgs.scores(queries, qOff, nq, protos, s, d, scores);
    float[] lanes = LANES.get(); // once per call, not once per group of classes
    for (int q = 0; q < nq; q++) {
      oneAt(queries, qOff + q * d, protos, s, d, scores, q * s, lanes);
    }
  }

  /** The query at {@code qo}, its scores at {@code scores[so..so+s)}. */
  private static void oneAt(float[] queries, int qo, float[] protos, int s, int d, float[] scores, int so,
      float[] lanes) {
    int c = 0;
    // eight prototypes per pass: the query is read once for eight independent FMA chains
    for (; c + 8 <= s; c += 8) {
      dot8(queries, qo, protos, c * d, d, scores, so + c, lanes);
    }
    for (; c + 4 <= s; c += 4) {
      dot4(queries, qo, protos, c * d, d, scores, so + c, lanes);
    }
    for (; c < s; c++) {
      scores[so + c] = dotUnchecked(queries, qo, protos, c * d, d, lanes);
    }
  }

  /**
   * Float queries are scored two at a time (the kernels of {@link #pairAt}) and the last one alone:
   * their grouping of classes differs from the int8 one, so there is no four-query tile here.
   */
  @Override
  public void dotScoresAt(float[] queries, int[] offsets, int n, float[] protos, int s, int d, float[] scores) {
    KernelArgs.scoresAt(queries, offsets, n, protos, s, d, scores);
    float[] lanes = LANES.get();
    int k = 0;
    for (; k + 2 <= n; k += 2) {
      pairAt(queries, offsets[k], offsets[k + 1], protos, s, d, scores, k * s, (k + 1) * s, lanes);
    }
    if (k < n) {
      oneAt(queries, offsets[k], protos, s, d, scores, k * s, lanes);
    }
  }

  /** The queries at {@code off1} and {@code off2}, their scores at {@code scores[o1..o1+s)} and {@code [o2..o2+s)}. */
  private static void pairAt(float[] queries, int off1, int off2, float[] protos, int s, int d, float[] scores,
      int o1, int o2, float[] lanes) {
    // the grouping of dotScores, and in each group its order of operations, so every score has its bits
    int c = 0;
    for (; c + 8 <= s; c += 8) {
      dot8Pair(queries, off1, off2, protos, c * d, d, scores, o1 + c, o2 + c, lanes);
    }
    for (int grouped = groupedClasses(s); c < grouped; c++) {
      // the classes dotScores gives to dot4 (one accumulator each, as in dot1): at most four
      scores[o1 + c] = dot1(queries, off1, protos, c * d, d, lanes);
      scores[o2 + c] = dot1(queries, off2, protos, c * d, d, lanes);
    }
    for (; c < s; c++) {
      dotUncheckedPair(queries, off1, off2, protos, c * d, d, scores, o1 + c, o2 + c, lanes);
    }
  }

  @Override
  public float dotScore(float[] queries, int qOff, float[] protos, int s, int d, int c) {
    KernelArgs.scoreOf(queries, qOff, protos, s, d, c);
    float[] lanes = LANES.get();
    return c < groupedClasses(s) ? dot1(queries, qOff, protos, c * d, d, lanes)
        : dotUnchecked(queries, qOff, protos, c * d, d, lanes);
  }

  /**
   * How many of {@code s} classes {@link #dotScores} scores in groups of eight and four, one
   * accumulator per class; it scores the rest with {@link #dotUnchecked}.
   */
  private static int groupedClasses(int s) {
    return s / 8 * 8 + s % 8 / 4 * 4;
  }

  /** One class as {@link #dot8} and {@link #dot4} score each of theirs: one accumulator, its lanes, the tail. */
  private static float dot1(float[] q, int qo, float[] p, int po, int d, float[] lanes) {
    FloatVector s0 = FloatVector.zero(F);
    int i = 0;
    for (int bound = F.loopBound(d); i < bound; i += L) {
      s0 = FloatVector.fromArray(F, q, qo + i).fma(FloatVector.fromArray(F, p, po + i), s0);
    }
    s0.intoArray(lanes, 0);
    float t = laneSum(lanes, L);
    for (; i < d; i++) {
      t += q[qo + i] * p[po + i];
    }
    return t;
  }

  /** {@link #dot8} for the queries at {@code qa} and {@code qb}, the prototypes read once; out at oa, ob. */
  private static void dot8Pair(float[] q, int qa, int qb, float[] p, int p0, int d, float[] out, int oa, int ob,
      float[] lanes) {
    int p1 = p0 + d, p2 = p1 + d, p3 = p2 + d, p4 = p3 + d, p5 = p4 + d, p6 = p5 + d, p7 = p6 + d;
    FloatVector a0 = FloatVector.zero(F), a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0, a6 = a0, a7 = a0;
    FloatVector b0 = a0, b1 = a0, b2 = a0, b3 = a0, b4 = a0, b5 = a0, b6 = a0, b7 = a0;
    int i = 0;
    for (int bound = F.loopBound(d); i < bound; i += L) {
      FloatVector x = FloatVector.fromArray(F, q, qa + i);
      FloatVector y = FloatVector.fromArray(F, q, qb + i);
      FloatVector w = FloatVector.fromArray(F, p, p0 + i);
      a0 = x.fma(w, a0);
      b0 = y.fma(w, b0);
      w = FloatVector.fromArray(F, p, p1 + i);
      a1 = x.fma(w, a1);
      b1 = y.fma(w, b1);
      w = FloatVector.fromArray(F, p, p2 + i);
      a2 = x.fma(w, a2);
      b2 = y.fma(w, b2);
      w = FloatVector.fromArray(F, p, p3 + i);
      a3 = x.fma(w, a3);
      b3 = y.fma(w, b3);
      w = FloatVector.fromArray(F, p, p4 + i);
      a4 = x.fma(w, a4);
      b4 = y.fma(w, b4);
      w = FloatVector.fromArray(F, p, p5 + i);
      a5 = x.fma(w, a5);
      b5 = y.fma(w, b5);
      w = FloatVector.fromArray(F, p, p6 + i);
      a6 = x.fma(w, a6);
      b6 = y.fma(w, b6);
      w = FloatVector.fromArray(F, p, p7 + i);
      a7 = x.fma(w, a7);
      b7 = y.fma(w, b7);
    }
    float[] t = new float[16];
    a0.intoArray(lanes, 0);
    t[0] = laneSum(lanes, L);
    a1.intoArray(lanes, 0);
    t[1] = laneSum(lanes, L);
    a2.intoArray(lanes, 0);
    t[2] = laneSum(lanes, L);
    a3.intoArray(lanes, 0);
    t[3] = laneSum(lanes, L);
    a4.intoArray(lanes, 0);
    t[4] = laneSum(lanes, L);
    a5.intoArray(lanes, 0);
    t[5] = laneSum(lanes, L);
    a6.intoArray(lanes, 0);
    t[6] = laneSum(lanes, L);
    a7.intoArray(lanes, 0);
    t[7] = laneSum(lanes, L);
    b0.intoArray(lanes, 0);
    t[8] = laneSum(lanes, L);
    b1.intoArray(lanes, 0);
    t[9] = laneSum(lanes, L);
    b2.intoArray(lanes, 0);
    t[10] = laneSum(lanes, L);
    b3.intoArray(lanes, 0);
    t[11] = laneSum(lanes, L);
    b4.intoArray(lanes, 0);
    t[12] = laneSum(lanes, L);
    b5.intoArray(lanes, 0);
    t[13] = laneSum(lanes, L);
    b6.intoArray(lanes, 0);
    t[14] = laneSum(lanes, L);
    b7.intoArray(lanes, 0);
    t[15] = laneSum(lanes, L);
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

  /** {@link #dotUnchecked} of one prototype with the queries at {@code qa} and {@code qb}; out at oa, ob. */
  private static void dotUncheckedPair(float[] q, int qa, int qb, float[] p, int po, int d, float[] out, int oa,
      int ob, float[] lanes) {
    FloatVector a0 = FloatVector.zero(F), a1 = a0, a2 = a0, a3 = a0, b0 = a0, b1 = a0, b2 = a0, b3 = a0;
    int i = 0;
    for (int bound = d - 4 * L; i <= bound; i += 4 * L) {
      FloatVector w = FloatVector.fromArray(F, p, po + i);
      a0 = FloatVector.fromArray(F, q, qa + i).fma(w, a0);
      b0 = FloatVector.fromArray(F, q, qb + i).fma(w, b0);
      w = FloatVector.fromArray(F, p, po + i + L);
      a1 = FloatVector.fromArray(F, q, qa + i + L).fma(w, a1);
      b1 = FloatVector.fromArray(F, q, qb + i + L).fma(w, b1);
      w = FloatVector.fromArray(F, p, po + i + 2 * L);
      a2 = FloatVector.fromArray(F, q, qa + i + 2 * L).fma(w, a2);
      b2 = FloatVector.fromArray(F, q, qb + i + 2 * L).fma(w, b2);
      w = FloatVector.fromArray(F, p, po + i + 3 * L);
      a3 = FloatVector.fromArray(F, q, qa + i + 3 * L).fma(w, a3);
      b3 = FloatVector.fromArray(F, q, qb + i + 3 * L).fma(w, b3);
    }
    for (int bound = F.loopBound(d); i < bound; i += L) {
      FloatVector w = FloatVector.fromArray(F, p, po + i);
      a0 = FloatVector.fromArray(F, q, qa + i).fma(w, a0);
      b0 = FloatVector.fromArray(F, q, qb + i).fma(w, b0);
    }
    a0.add(a1).add(a2.add(a3)).intoArray(lanes, 0);
    float ta = laneSum(lanes, L);
    b0.add(b1).add(b2.add(b3)).intoArray(lanes, 0);
    float tb = laneSum(lanes, L);
    for (; i < d; i++) {
      ta += q[qa + i] * p[po + i];
      tb += q[qb + i] * p[po + i];
    }
    out[oa] = ta;
    out[ob] = tb;
  }

  /** {@code out[o + j] = dot(q[qo..qo+d), p[p0 + j*d ..))} for j < 4. */
  private static void dot4(float[] q, int qo, float[] p, int p0, int d, float[] out, int o, float[] lanes) {
    int p1 = p0 + d, p2 = p1 + d, p3 = p2 + d;
    FloatVector s0 = FloatVector.zero(F), s1 = FloatVector.zero(F), s2 = FloatVector.zero(F),
        s3 = FloatVector.zero(F);
    int i = 0;
    for (int bound = F.loopBound(d); i < bound; i += L) {
      FloatVector v = FloatVector.fromArray(F, q, qo + i);
      s0 = v.fma(FloatVector.fromArray(F, p, p0 + i), s0);
      s1 = v.fma(FloatVector.fromArray(F, p, p1 + i), s1);
      s2 = v.fma(FloatVector.fromArray(F, p, p2 + i), s2);
      s3 = v.fma(FloatVector.fromArray(F, p, p3 + i), s3);
    }
    s0.intoArray(lanes, 0);
    float t0 = laneSum(lanes, L);
    s1.intoArray(lanes, 0);
    float t1 = laneSum(lanes, L);
    s2.intoArray(lanes, 0);
    float t2 = laneSum(lanes, L);
    s3.intoArray(lanes, 0);
    float t3 = laneSum(lanes, L);
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

  /** {@code out[o + j] = dot(q[qo..qo+d), p[p0 + j*d ..))} for j < 8. */
  private static void dot8(float[] q, int qo, float[] p, int p0, int d, float[] out, int o, float[] lanes) {
    int p1 = p0 + d, p2 = p1 + d, p3 = p2 + d, p4 = p3 + d, p5 = p4 + d, p6 = p5 + d, p7 = p6 + d;
    FloatVector s0 = FloatVector.zero(F), s1 = FloatVector.zero(F), s2 = FloatVector.zero(F),
        s3 = FloatVector.zero(F), s4 = FloatVector.zero(F), s5 = FloatVector.zero(F),
        s6 = FloatVector.zero(F), s7 = FloatVector.zero(F);
    int i = 0;
    for (int bound = F.loopBound(d); i < bound; i += L) {
      FloatVector v = FloatVector.fromArray(F, q, qo + i);
      s0 = v.fma(FloatVector.fromArray(F, p, p0 + i), s0);
      s1 = v.fma(FloatVector.fromArray(F, p, p1 + i), s1);
      s2 = v.fma(FloatVector.fromArray(F, p, p2 + i), s2);
      s3 = v.fma(FloatVector.fromArray(F, p, p3 + i), s3);
      s4 = v.fma(FloatVector.fromArray(F, p, p4 + i), s4);
      s5 = v.fma(FloatVector.fromArray(F, p, p5 + i), s5);
      s6 = v.fma(FloatVector.fromArray(F, p, p6 + i), s6);
      s7 = v.fma(FloatVector.fromArray(F, p, p7 + i), s7);
    }
    float[] t = new float[8];
    s0.intoArray(lanes, 0);
    t[0] = laneSum(lanes, L);
    s1.intoArray(lanes, 0);
    t[1] = laneSum(lanes, L);
    s2.intoArray(lanes, 0);
    t[2] = laneSum(lanes, L);
    s3.intoArray(lanes, 0);
    t[3] = laneSum(lanes, L);
    s4.intoArray(lanes, 0);
    t[4] = laneSum(lanes, L);
    s5.intoArray(lanes, 0);
    t[5] = laneSum(lanes, L);
    s6.intoArray(lanes, 0);
    t[6] = laneSum(lanes, L);
    s7.intoArray(lanes, 0);
    t[7] = laneSum(lanes, L);
    for (; i < d; i++) {
      float v = q[qo + i];
      for (int j = 0; j < 8; j++) {
        t[j] += v * p[p0 + j * d + i];
      }
    }
    System.arraycopy(t, 0, out, o, 8);
  }

  // ---------------------------------------------------------------- int8 codes

  @Override
  public void axpy(float alpha, byte[] x, int xOff, float[] y, int yOff, int len) {
    KernelArgs.range(x, xOff, len, "x");
    KernelArgs.range(y, yOff, len, "y");
    PanamaCodeKernels.axpy(alpha, x, xOff, y, yOff, len);
  }

  @Override
  public void dotScores(byte[] queries, int qOff, int nq, float[] protos, int s, int d, float[] scores) {
    KernelArgs.scores(queries, qOff, nq, protos, s, d, scores);
    if (Order512Kernels.ACTIVE) {
      Order512Kernels.dotScores(queries, qOff, nq, protos, s, d, scores);
      return;
    }
    PanamaCodeKernels.dotScores(queries, qOff, nq, protos, s, d, scores);
  }

  @Override
  public void dotScoresAt(byte[] queries, int[] offsets, int n, float[] protos, int s, int d, float[] scores) {
    KernelArgs.scoresAt(queries, offsets, n, protos, s, d, scores);
    if (Order512Kernels.ACTIVE) {
      Order512Kernels.dotScoresAt(queries, offsets, n, protos, s, d, scores);
      return;
    }
    PanamaCodeKernels.dotScoresAt(queries, offsets, n, protos, s, d, scores);
  }

  @Override
  public void dotScoresOfTwoAt(byte[] queries, int[] offsets, int n, float[] protos, int s, int d, int a, int b,
      float[] scores) {
    KernelArgs.scoresOfTwoAt(queries, offsets, n, protos, s, d, a, b, scores);
    if (Order512Kernels.ACTIVE) {
      Order512Kernels.dotScoresOfTwoAt(queries, offsets, n, protos, d, a, b, scores);
      return;
    }
    PanamaCodeKernels.dotScoresOfTwoAt(queries, offsets, n, protos, d, a, b, scores);
  }

  /**
   * Four with 512-bit vectors, where scoring four samples at a time took 234–245 µs of a Fashion-MNIST
   * ring hop's pass instead of 284–321 µs in pairs (600 int8 samples, 10 classes, D=2000, a 2-core
   * Zen 5 VM). One with 256-bit vectors, whose kernels ({@link Order512Kernels}) score one sample at a
   * time whatever the block, so a larger one would only rescore samples after a mistake for nothing
   * (and AVX2's sixteen registers hold no tile of several samples: a pair of samples by eight classes
   * is nineteen live vectors). Two elsewhere (NEON; not measured).
   */
  @Override
  public int codeScoringBlock() {
    if (L >= 16) {
      return 4;
    }
    return Order512Kernels.ACTIVE ? 1 : 2;
  }

  @Override
  public float dotScore(byte[] queries, int qOff, float[] protos, int s, int d, int c) {
    KernelArgs.scoreOf(queries, qOff, protos, s, d, c);
    return Order512Kernels.ACTIVE ? Order512Kernels.dotScore(queries, qOff, protos, d, c)
        : PanamaCodeKernels.dotScore(queries, qOff, protos, d, c);
  }

  @Override
  public int argmax(float[] x, int off, int len) {
    return ScalarVectorKernels.argmaxOf(x, off, len);
  }

  // ---------------------------------------------------------------- Gaussian fill

  @Override
  public void fillGaussian(float[] dst, int off, int len, double sigma, RandomGenerator rng) {
    KernelArgs.range(dst, off, len, "dst");
    double[] radius = new double[GAUSSIAN_BLOCK_PAIRS];
    double[] cos = new double[GAUSSIAN_BLOCK_PAIRS];
    double[] sin = new double[GAUSSIAN_BLOCK_PAIRS];
    for (int done = 0; done < len; ) {
      int outs = Math.min(len - done, 2 * GAUSSIAN_BLOCK_PAIRS);
      blockFactors((outs + 1) / 2, radius, cos, sin, 0, rng);
      layBlock(dst, off + done, outs, sigma, radius, cos, sin, 0, false);
      done += outs;
    }
  }

  @Override
  public int gaussianFactors(int len, double[] radius, double[] cos, double[] sin, int at, RandomGenerator rng) {
    int pairs = VectorKernels.gaussianPairs(len);
    KernelArgs.gaussianFactors(radius, cos, sin, at, pairs);
    int j = at;
    for (int done = 0; done < len; ) {
      int outs = Math.min(len - done, 2 * GAUSSIAN_BLOCK_PAIRS);
      int m = (outs + 1) / 2;
      blockFactors(m, radius, cos, sin, j, rng);
      j += m;
      done += outs;
    }
    return pairs;
  }

  @Override
  public void addGaussian(float[] dst, int off, int len, double sigma, double[] radius, double[] cos, double[] sin,
      int at) {
    KernelArgs.range(dst, off, len, "dst");
    KernelArgs.gaussianFactors(radius, cos, sin, at, VectorKernels.gaussianPairs(len));
    int j = at;
    for (int done = 0; done < len; ) {
      int outs = Math.min(len - done, 2 * GAUSSIAN_BLOCK_PAIRS);
      layBlock(dst, off + done, outs, sigma, radius, cos, sin, j, true);
      j += (outs + 1) / 2;
      done += outs;
    }
  }

  /**
   * One block's {@code m} pairs from {@code rng} as factors at {@code at}: the uniforms are drawn into
   * {@code radius} (u1) and {@code sin} (u2), then transformed in place, whole vectors first (the
   * blocks of {@link #fillGaussian} and {@link #gaussianFactors} split alike, so their lanes agree).
   */
  private static void blockFactors(int m, double[] radius, double[] cos, double[] sin, int at, RandomGenerator rng) {
    for (int p = at; p < at + m; p++) {
      radius[p] = BoxMuller.openUniform(rng.nextLong());
      sin[p] = BoxMuller.uniform(rng.nextLong());
    }
    int p = 0;
    for (int bound = DS.loopBound(m); p < bound; p += DS.length()) {
      DoubleVector theta = DoubleVector.fromArray(DS, sin, at + p).mul(BoxMuller.TWO_PI);
      DoubleVector.fromArray(DS, radius, at + p)
          .lanewise(VectorOperators.LOG)
          .mul(-2.0)
          .lanewise(VectorOperators.SQRT)
          .intoArray(radius, at + p);
      theta.lanewise(VectorOperators.COS).intoArray(cos, at + p);
      theta.lanewise(VectorOperators.SIN).intoArray(sin, at + p);
    }
    for (; p < m; p++) {
      double theta = BoxMuller.TWO_PI * sin[at + p];
      radius[at + p] = Math.sqrt(-2.0 * Math.log(radius[at + p]));
      cos[at + p] = Math.cos(theta);
      sin[at + p] = Math.sin(theta);
    }
  }

  /**
   * Writes (or adds, when {@code add}) one block of {@code outs} Gaussian values at {@code dst[base..]}
   * from the factors at {@code at}: {@code (float) (radius·σ·cos)} for the block's first {@code m =
   * ⌈outs/2⌉} positions, then the sine halves for the rest.
   */
  private static void layBlock(float[] dst, int base, int outs, double sigma, double[] radius, double[] cos,
      double[] sin, int at, boolean add) {
    int m = (outs + 1) / 2;
    laySegment(dst, base, m, sigma, radius, cos, at, add);
    laySegment(dst, base + m, outs - m, sigma, radius, sin, at, add);
  }

  private static void laySegment(float[] dst, int base, int n, double sigma, double[] radius, double[] trig, int at,
      boolean add) {
    int p = 0;
    for (int bound = F.loopBound(n), half = DS.length(); p < bound; p += L) {
      // (float) (radius·σ·trig) for a vector of DS in each half (written out, as no method here returns a
      // vector: see laneSum)
      int i = at + p + half;
      FloatVector upper = ((FloatVector) DoubleVector.fromArray(DS, radius, i).mul(sigma)
          .mul(DoubleVector.fromArray(DS, trig, i)).convertShape(VectorOperators.D2F, F, 0))
          .rearrange(LOWER_TO_UPPER_HALF);
      i = at + p;
      FloatVector v = ((FloatVector) DoubleVector.fromArray(DS, radius, i).mul(sigma)
          .mul(DoubleVector.fromArray(DS, trig, i)).convertShape(VectorOperators.D2F, F, 0))
          .blend(upper, UPPER_HALF);
      if (add) {
        v = FloatVector.fromArray(F, dst, base + p).add(v);
      }
      v.intoArray(dst, base + p);
    }
    for (; p < n; p++) {
      float v = (float) (radius[at + p] * sigma * trig[at + p]);
      dst[base + p] = add ? dst[base + p] + v : v;
    }
  }
}
