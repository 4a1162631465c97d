package io.hdfl.hd;

import io.hdfl.kernels.PackedMatrix;
import io.hdfl.kernels.ParallelRows;
import io.hdfl.kernels.VectorKernels;

/**
 * The random projection basis B ∈ R^{f×D} (entries N(0,1)) and the phase vector b ∈ [0, 2π)^D,
 * derived from a 64-bit seed so that every peer computes the same values without shipping them.
 *
 * <h2>Algorithm (bit-identical on every JDK and CPU)</h2>
 *
 * <ul>
 *   <li>{@code mix(s, c)} is the SplitMix64 output for counter {@code c} on state {@code s}: {@code z =
 *       s + (c + 1) · 0x9E3779B97F4A7C15; z = (z ^ (z >>> 30)) · 0xBF58476D1CE4E5B9; z = (z ^ (z >>>
 *       27)) · 0x94D049BB133111EB; return z ^ (z >>> 31)} (64-bit wrapping arithmetic).
 *   <li>Entry {@code (k, j)} has linear index {@code i = k·D + j}. Pair {@code p = i >>> 1} draws {@code
 *       u1 = ((mix(s_B, 2p) >>> 11) + 1) · 2^-53} ∈ (0, 1] and {@code u2 = (mix(s_B, 2p + 1) >>> 11) ·
 *       2^-53} ∈ [0, 1), with {@code s_B = seed ^ 0x6864666C62617369} ("hdflbasi"). With {@code r =
 *       StrictMath.sqrt(-2 · StrictMath.log(u1))} and {@code θ = 2π · u2}, even {@code i} takes {@code
 *       r · StrictMath.cos(θ)}, odd {@code i} takes {@code r · StrictMath.sin(θ)} (Box–Muller), computed
 *       in double and rounded once to float.
 *   <li>Phase {@code b_j = (float) (2π · (mix(s_b, j) >>> 11) · 2^-53)} with {@code s_b = seed ^
 *       0x6864666C62696173} ("hdflbias").
 * </ul>
 *
 * {@link StrictMath} is specified to return the fdlibm results exactly, and only IEEE double
 * arithmetic is used otherwise, so the basis does not depend on JIT, vector width or CPU. Each entry
 * depends only on its index, so generation is parallel and its result independent of thread count.
 */
public final class Basis {
  static final long BASIS_DOMAIN = 0x6864666C62617369L;
  static final long BIAS_DOMAIN = 0x6864666C62696173L;
  private static final long GOLDEN = 0x9E3779B97F4A7C15L;
  private static final double TWO_PI = 2 * StrictMath.PI;

  private final long seed;
  private final int features;
  private final int dim;
  private final PackedMatrix packed;
  private final float[] phases;

  private Basis(long seed, int features, int dim, PackedMatrix packed, float[] phases) {
    this.seed = seed;
    this.features = features;
    this.dim = dim;
    this.packed = packed;
    this.phases = phases;
  }

  /**
   * Generates the basis for {@code kernels}, row by row straight into its packed layout (the f×D
   * entries are never also held row-major: at f=617, D=10000 that saves 25 MB of peak heap).
   */
  public static Basis generate(long seed, int features, int dim, VectorKernels kernels, int threads) {
    checkShape(features, dim);
    long s = seed ^ BASIS_DOMAIN;
    PackedMatrix packed = kernels.pack(features, dim, threads, (row, dst) -> fill(s, (long) row * dim, dim, dst));
    return new Basis(seed, features, dim, packed, phases(seed, dim));
  }

  /**
   * Columns {@code [from, to)} of the f×D basis of {@code seed} — the same values {@link #generate}
   * holds there — packed for {@code kernels} as an f×(to − from) matrix.
   */
  static PackedMatrix columns(long seed, int features, int dim, int from, int to, VectorKernels kernels, int threads) {
    checkShape(features, dim);
    if (from < 0 || to > dim || from >= to) {
      throw new IllegalArgumentException("columns [" + from + ", " + to + ") outside [0, " + dim + ")");
    }
    long s = seed ^ BASIS_DOMAIN;
    return kernels.pack(features, to - from, threads, (row, dst) -> fill(s, (long) row * dim + from, to - from, dst));
  }

  /** The phase vector b of {@code seed} ({@link #phases()}). */
  static float[] phases(long seed, int dim) {
    float[] phases = new float[dim];
    long sb = seed ^ BIAS_DOMAIN;
    for (int j = 0; j < dim; j++) {
      phases[j] = (float) (TWO_PI * ((mix(sb, j) >>> 11) * 0x1p-53));
    }
    return phases;
  }

  /** The row-major f×D entries, generated with up to {@code threads} threads. */
  static float[] entries(long seed, int features, int dim, int threads) {
    checkShape(features, dim);
    float[] out = new float[features * dim];
    long s = seed ^ BASIS_DOMAIN;
    ParallelRows.run(features, threads, 1, 8, (lo, hi) -> {
      float[] row = new float[dim];
      for (int r = lo; r < hi; r++) {
        fill(s, (long) r * dim, dim, row);
        System.arraycopy(row, 0, out, r * dim, dim);
      }
    });
    return out;
  }

  private static void checkShape(int features, int dim) {
    if (features < 1 || dim < 1) {
      throw new IllegalArgumentException("basis needs features >= 1 and dim >= 1, got " + features + "x" + dim);
    }
    long size = (long) features * dim;
    if (size > Integer.MAX_VALUE - 16) {
      throw new IllegalArgumentException("basis " + features + "x" + dim + " is too large (" + size + " entries)");
    }
  }

  /** Writes the entries with linear indices {@code [from, from + len)} into {@code dst[0 .. len)}. */
  private static void fill(long s, long from, int len, float[] dst) {
    long end = from + len;
    for (long i = from; i < end; ) {
      long p = i >>> 1;
      double u1 = ((mix(s, 2 * p) >>> 11) + 1) * 0x1p-53;
      double u2 = (mix(s, 2 * p + 1) >>> 11) * 0x1p-53;
      double r = StrictMath.sqrt(-2.0 * StrictMath.log(u1));
      double theta = TWO_PI * u2;
      if ((i & 1) == 0) {
        dst[(int) (i - from)] = (float) (r * StrictMath.cos(theta));
        i++;
        if (i < end) {
          dst[(int) (i - from)] = (float) (r * StrictMath.sin(theta));
          i++;
        }
      } else {
        dst[(int) (i - from)] = (float) (r * StrictMath.sin(theta));
        i++;
      }
    }
  }

  /** SplitMix64 output for counter {@code c} on state {@code s}. */
  static long mix(long s, long c) {
    long z = s + (c + 1) * GOLDEN;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  public long seed() {
    return seed;
  }

  public int features() {
    return features;
  }

  public int dim() {
    return dim;
  }

  /** B in the layout the projection kernel wants. */
  public PackedMatrix packed() {
    return packed;
  }

  /** The phases b (for the cos-bias encoder). Callers must not modify the array. */
  float[] phases() {
    return phases;
  }
}
