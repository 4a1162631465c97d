package io.hdfl.privacy.noise;

import io.hdfl.kernels.VectorKernels;
import java.util.SplittableRandom;

/**
 * Reproducible simulation noise — NOT FOR DEPLOYMENT. Anyone who knows the seed can regenerate the
 * noise and subtract it, and the noise is continuous Box–Muller output added in floating point, which
 * the floating-point attacks on the Gaussian mechanism exploit. Use it to make simulations and
 * experiments repeatable; use {@link SecureNoiseSource} on devices.
 *
 * <p>Noise comes from {@link VectorKernels#fillGaussian} driven by a {@link SplittableRandom} seeded
 * with {@code seed}, written into a scratch buffer of {@value #CHUNK} floats and added with {@link
 * VectorKernels#axpy} (alpha 1, so each sum is the correctly rounded float sum). The stream is
 * consumed in whole {@code fillGaussian} blocks per chunk, so the noise for a range does not depend on
 * the chunking. Same seed, same kernels, same sequence of calls → bit-identical results on the same
 * JDK and CPU (the kernels use {@link Math#log}/{@code cos}, whose last bit the Java specification
 * lets vary across platforms). The scalar and Panama kernels consume the generator identically.
 *
 * <p>{@link #prepare} draws the next add's Box–Muller factors ahead ({@link
 * VectorKernels#gaussianFactors}: the logarithms, square roots and sines, about nine tenths of the
 * work), so that add only multiplies by σ and adds ({@link VectorKernels#addGaussian}), with the same
 * bits as without it.
 */
public final class SeededNoiseSource implements NoiseSource {
  /** {@link #name()}. */
  public static final String NAME = "seeded";
  /** Scratch size, a multiple of one {@code fillGaussian} block (2 · {@link VectorKernels#GAUSSIAN_BLOCK_PAIRS}). */
  static final int CHUNK = 64 * 2 * VectorKernels.GAUSSIAN_BLOCK_PAIRS;

  /**
   * The largest add {@link #prepare} draws ahead for: 2^15 values, whose factors take 384 KB (three
   * doubles per pair, 12 bytes a value; 240 KB for a 10 × 2000 model), held by every peer of a
   * simulation between its turns. A larger model's add draws as it goes.
   */
  static final int MAX_AHEAD = 1 << 15;

  private final long seed;
  private final VectorKernels kernels;
  private CountingGenerator rng;
  private final float[] scratch = new float[CHUNK];
  /** Factors drawn ahead for an add of {@link #aheadLength} values (-1: none). */
  private double[] radius;
  private double[] cos;
  private double[] sin;
  private int aheadLength = -1;

  /** A source whose noise is determined by {@code seed}, generated with {@code kernels}. */
  public SeededNoiseSource(long seed, VectorKernels kernels) {
    this(seed, kernels, 0);
  }

  /**
   * The source of {@code seed} after it has consumed {@code position} values of its stream (a {@link
   * #position()} from a checkpoint): its next draws are exactly those the original source would have
   * made next. Skipping costs about a nanosecond per value.
   *
   * @throws IllegalArgumentException if {@code position} is negative
   */
  public SeededNoiseSource(long seed, VectorKernels kernels, long position) {
    if (kernels == null) {
      throw new NullPointerException("kernels");
    }
    if (position < 0) {
      throw new IllegalArgumentException("a seeded noise position must be >= 0, got " + position);
    }
    this.seed = seed;
    this.kernels = kernels;
    this.rng = CountingGenerator.at(seed, position);
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public boolean forDeployment() {
    return false;
  }

  @Override
  public String describe() {
    return "seeded: NOT FOR DEPLOYMENT (reproducible simulation noise): Box-Muller N(0, σ²) from "
        + "SplittableRandom(seed " + seed + ") via " + kernels.name() + " kernels, added in float32";
  }

  /** The seed this source was created with. */
  public long seed() {
    return seed;
  }

  /** The number of 64-bit values of the seeded stream used so far (not those drawn ahead). */
  @Override
  public synchronized long position() {
    return aheadLength < 0 ? rng.count : rng.count - 2L * VectorKernels.gaussianPairs(aheadLength);
  }

  /**
   * Draws the factors of an add of {@code len} values ahead, unless some are drawn already or {@code
   * len} is over {@link #MAX_AHEAD}. They do not depend on {@code variance}: any add of {@code len}
   * values uses them, with the same bits as without them.
   */
  @Override
  public synchronized void prepare(int len, double variance) {
    if (len <= 0 || len > MAX_AHEAD || aheadLength >= 0) {
      return;
    }
    int pairs = VectorKernels.gaussianPairs(len);
    if (radius == null || radius.length < pairs) {
      radius = new double[pairs];
      cos = new double[pairs];
      sin = new double[pairs];
    }
    kernels.gaussianFactors(len, radius, cos, sin, 0, rng);
    aheadLength = len;
  }

  @Override
  public synchronized NoiseDraw add(float[] model, int off, int len, double variance) {
    NoiseArgs.check(model, off, len, variance);
    if (variance == 0) {
      return NoiseDraw.none(NAME);
    }
    NoiseArgs.requireFinite(model, off, len);
    double sigma = Math.sqrt(variance);
    if (aheadLength == len) {
      kernels.addGaussian(model, off, len, sigma, radius, cos, sin, 0);
      aheadLength = -1;
    } else {
      if (aheadLength >= 0) {
        // drawn ahead for another length, whose blocks split the pairs differently: restart the stream
        // where this add begins (about a nanosecond per value used so far; prepare and add normally agree)
        rng = CountingGenerator.at(seed, position());
        aheadLength = -1;
      }
      for (int done = 0; done < len; done += CHUNK) {
        int n = Math.min(CHUNK, len - done);
        kernels.fillGaussian(scratch, 0, n, sigma, rng);
        kernels.axpy(1f, scratch, 0, model, off + done, n);
      }
    }
    // Box–Muller in double rounded once to float: the variance is σ² up to a relative 2^-48 or so.
    return new NoiseDraw(NAME, variance, variance, variance, 0, len, 0);
  }

  /** The seeded stream, counting what it hands out ({@code fillGaussian} draws only {@code nextLong}). */
  private static final class CountingGenerator implements java.util.random.RandomGenerator {
    private final SplittableRandom inner;
    long count;

    CountingGenerator(SplittableRandom inner) {
      this.inner = inner;
    }

    /** The stream of {@code seed} after {@code position} values. */
    static CountingGenerator at(long seed, long position) {
      CountingGenerator g = new CountingGenerator(new SplittableRandom(seed));
      for (long i = 0; i < position; i++) {
        g.nextLong();
      }
      return g;
    }

    @Override
    public long nextLong() {
      count++;
      return inner.nextLong();
    }
  }
}
