package io.hdfl.kernels;

import java.util.random.RandomGenerator;

/**
 * The hot loops of hyperdimensional learning. Two implementations: {@link ScalarVectorKernels} (the
 * reference, always available) and a Panama Vector API one; {@link VectorKernelsProvider} picks one
 * at run time. All arrays are row-major float32; offsets and lengths are in elements.
 *
 * <p>Implementations are stateless and thread-safe.
 */
public interface VectorKernels {

  /** {@code "scalar"} or {@code "panama"}. */
  String name();

  /** A one-line description of the configuration (vector width, cos variant, ...). */
  String describe();

  /**
   * Bits one vector operation works on: the float species' size for the Panama kernels (128 on a
   * NEON device, 256 with AVX2, 512 with AVX-512), 32 (one float) for the scalar loops.
   */
  int vectorBits();

  /**
   * Packs a row-major {@code rows × cols} matrix into the layout {@link #project} wants. The result
   * is immutable and may be reused across calls and threads; it works with every implementation, but
   * fastest with the one that packed it.
   */
  PackedMatrix pack(float[] rowMajor, int rows, int cols);

  /** Builds a matrix in this implementation's layout row by row ({@link PackedMatrix#build}). */
  PackedMatrix pack(int rows, int cols, int threads, PackedMatrix.RowSource source);

  /**
   * Projection GEMM: {@code out[n×d] = x[n×f] · b[f×d]} where {@code b} is packed ({@code b.rows() ==
   * f}, {@code b.cols() == d}). Uses up to {@code threads} threads for large batches.
   */
  default void project(float[] x, int n, int f, PackedMatrix b, float[] out, int threads) {
    project(x, 0, n, f, b, out, 0, threads);
  }

  /**
   * Projection GEMM on sub-arrays: rows start at {@code x[xOff]} (stride f) and {@code out[outOff]}
   * (stride d).
   */
  void project(float[] x, int xOff, int n, int f, PackedMatrix b, float[] out, int outOff, int threads);

  /** {@code dst[i] = cos(src[i])}. Max abs error 1e-6 against {@link Math#cos}. */
  void cos(float[] src, int srcOff, float[] dst, int dstOff, int len);

  /** {@code dst[i] = src[i] < 0 ? -1 : +1}: zero (either sign) and NaN map to +1, so every value is ±1. */
  void sign(float[] src, int srcOff, float[] dst, int dstOff, int len);

  /** Dot product of {@code a[aOff..aOff+len)} and {@code b[bOff..bOff+len)}. */
  float dot(float[] a, int aOff, float[] b, int bOff, int len);

  /** {@code y[i] += alpha * x[i]}. */
  void axpy(float alpha, float[] x, int xOff, float[] y, int yOff, int len);

  /** {@code x[i] *= alpha}. */
  void scale(float alpha, float[] x, int off, int len);

  /** Sum of squares of {@code x[off..off+len)} (the squared L2 norm), accumulated in float lanes. */
  float sumOfSquares(float[] x, int off, int len);

  /**
   * Batched similarity: {@code scores[q*s + c] = dot(queries[q*d..], protos[c*d..])} for {@code q <
   * nq}, {@code c < s}.
   */
  default void dotScores(float[] queries, int nq, float[] protos, int s, int d, float[] scores) {
    dotScores(queries, 0, nq, protos, s, d, scores);
  }

  /**
   * As {@link #dotScores(float[], int, float[], int, int, float[])} for the {@code nq} queries stored
   * row-major from {@code queries[qOff]} (e.g. one sample of an encoded set, without copying it).
   */
  void dotScores(float[] queries, int qOff, int nq, float[] protos, int s, int d, float[] scores);

  /**
   * The {@code n} queries at {@code offsets[0..n)}, anywhere in {@code queries}: {@code scores[k*s + c]}
   * for the one at {@code offsets[k]}, each bit for bit what {@link #dotScores(float[], int, int,
   * float[], int, int, float[])} gives for that query alone (a perceptron pass scores a block of its
   * shuffled samples at once; the Panama kernels share each prototype read between two float32
   * queries or four int8 ones).
   */
  void dotScoresAt(float[] queries, int[] offsets, int n, float[] protos, int s, int d, float[] scores);

  /**
   * Class {@code c}'s score of the query at {@code qOff}, bit for bit what {@link #dotScores(float[],
   * int, int, float[], int, int, float[])} puts at {@code scores[c]} for it (to rescore a query after
   * a class changed).
   */
  float dotScore(float[] queries, int qOff, float[] protos, int s, int d, int c);

  // Int8 codes: quantized hypervectors, each component a code in [-127, 127] times a scale that the
  // caller applies (codes are exact in float, so these are the float kernels on integer-valued queries).

  /** {@code y[i] += alpha * x[i]} for int8 codes {@code x}. */
  void axpy(float alpha, byte[] x, int xOff, float[] y, int yOff, int len);

  /**
   * {@link #dotScores(float[], int, int, float[], int, int, float[])} for {@code nq} queries of int8
   * codes stored row-major from {@code queries[qOff]}: {@code scores[q*s + c] = Σ code · prototype}.
   */
  void dotScores(byte[] queries, int qOff, int nq, float[] protos, int s, int d, float[] scores);

  /**
   * {@link #dotScoresAt(float[], int[], int, float[], int, int, float[])} for int8 code queries, each
   * score bit for bit what {@link #dotScores(byte[], int, int, float[], int, int, float[])} gives for
   * that query alone.
   */
  void dotScoresAt(byte[] queries, int[] offsets, int n, float[] protos, int s, int d, float[] scores);

  /**
   * Class {@code c}'s score of the code query at {@code qOff}, bit for bit what {@link
   * #dotScores(byte[], int, int, float[], int, int, float[])} puts at {@code scores[c]} for it.
   */
  float dotScore(byte[] queries, int qOff, float[] protos, int s, int d, int c);

  /**
   * Classes {@code a} and {@code b}'s scores of the {@code n} int8 code queries at {@code
   * offsets[0..n)}: {@code scores[2k]} and {@code scores[2k + 1]} for the one at {@code offsets[k]},
   * each bit for bit what {@link #dotScore(byte[], int, float[], int, int, int)} gives (a perceptron
   * pass rescoring the rest of a block after a mistake changed two classes; the Panama kernels score
   * two queries at a time, four independent chains, where one at a time waits on each multiply-add).
   */
  default void dotScoresOfTwoAt(byte[] queries, int[] offsets, int n, float[] protos, int s, int d, int a, int b,
      float[] scores) {
    KernelArgs.scoresOfTwoAt(queries, offsets, n, protos, s, d, a, b, scores);
    for (int k = 0; k < n; k++) {
      scores[2 * k] = dotScore(queries, offsets[k], protos, s, d, a);
      scores[2 * k + 1] = dotScore(queries, offsets[k], protos, s, d, b);
    }
  }

  /** {@link #dotScoresOfTwoAt(byte[], int[], int, float[], int, int, int, int, float[])} for float32 queries. */
  default void dotScoresOfTwoAt(float[] queries, int[] offsets, int n, float[] protos, int s, int d, int a, int b,
      float[] scores) {
    KernelArgs.scoresOfTwoAt(queries, offsets, n, protos, s, d, a, b, scores);
    for (int k = 0; k < n; k++) {
      scores[2 * k] = dotScore(queries, offsets[k], protos, s, d, a);
      scores[2 * k + 1] = dotScore(queries, offsets[k], protos, s, d, b);
    }
  }

  /**
   * How many int8 code samples a perceptron pass scores at a time with {@link #dotScoresAt(byte[],
   * int[], int, float[], int, int, float[])}: where these kernels read each prototype once for four
   * queries and that pays for the rescoring after a mistake, four; where the tiles of several queries
   * outgrow the vector registers, one; else two. Any block gives the same scores and the same pass;
   * only the time differs.
   */
  default int codeScoringBlock() {
    return 2;
  }

  /** Index of the largest value (first one on ties); NaN never wins. {@code len >= 1}. */
  int argmax(float[] x, int off, int len);

  /**
   * Fills {@code dst[off..off+len)} with N(0, sigma²) draws made by the Box–Muller transform from
   * {@code rng.nextLong()}. The layout is fixed so that every implementation consumes the generator
   * identically: outputs come in blocks of {@link #GAUSSIAN_BLOCK_PAIRS} pairs; for pair p of a block
   * with m pairs, two longs are drawn (u1 then u2, each {@code ((l >>> 11) + 1) * 2^-53} resp. {@code
   * (l >>> 11) * 2^-53}), and {@code r·cos(2πu2)} goes to block position p, {@code r·sin(2πu2)} to
   * position m + p (when it is inside the block), {@code r = sqrt(-2 ln u1)}.
   */
  void fillGaussian(float[] dst, int off, int len, double sigma, RandomGenerator rng);

  /**
   * The σ-free part of {@link #fillGaussian}{@code (·, ·, len, σ, rng)}, drawn ahead of knowing σ: the
   * same {@link #gaussianPairs}{@code (len)} pairs from {@code rng}, each stored as {@code radius[at + j]
   * = sqrt(-2 ln u1)}, {@code cos[at + j] = cos(2πu2)}, {@code sin[at + j] = sin(2πu2)}, computed as
   * {@code fillGaussian} computes them. {@link #addGaussian} then adds what {@code fillGaussian} would
   * have written.
   *
   * @return the number of pairs stored, {@code gaussianPairs(len)}
   */
  int gaussianFactors(int len, double[] radius, double[] cos, double[] sin, int at, RandomGenerator rng);

  /**
   * Adds to {@code dst[off..off+len)} the values {@link #fillGaussian} with {@code len} and {@code
   * sigma} writes, from the factors {@link #gaussianFactors}{@code (len, …, at, …)} stored: bit for bit
   * the result of that fill into a scratch array followed by {@code axpy(1, scratch, dst)} (each value
   * {@code (float) (radius·σ·trig)}, in that order, then one float addition).
   */
  void addGaussian(float[] dst, int off, int len, double sigma, double[] radius, double[] cos, double[] sin, int at);

  /** The Box–Muller pairs {@link #fillGaussian} draws for {@code len} values (two longs each). */
  static int gaussianPairs(int len) {
    if (len < 0) {
      throw new IllegalArgumentException("len must be >= 0, got " + len);
    }
    int block = 2 * GAUSSIAN_BLOCK_PAIRS;
    return len / block * GAUSSIAN_BLOCK_PAIRS + (len % block + 1) / 2;
  }

  /** Pairs per block in {@link #fillGaussian}. */
  int GAUSSIAN_BLOCK_PAIRS = 64;
}
