package io.hdfl.privacy.noise;

import java.nio.charset.StandardCharsets;
import java.security.DrbgParameters;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntToLongFunction;

/**
 * The noise source for real devices ({@code secure}, the default for {@code peer}): exact discrete
 * Gaussian noise from a CSPRNG, added to the model on a power-of-two grid in integer arithmetic, so
 * that no floating-point operation ever combines a private value with the noise.
 *
 * <h2>Sampler, and why</h2>
 *
 * Gaussian samplers computed in floating point (Box–Muller, the polar method, Ziggurat, inverse CDF)
 * do not output a Gaussian: their outputs form an irregular set of floats, and {@code x + noise}
 * rounded to float has low-order bits that depend on x. Mironov (CCS 2012, "On significance of the
 * least significant bits for differential privacy") recovered inputs exactly this way from the
 * Laplace mechanism of deployed libraries; Jin, McMurtry, Rubinstein and Ohrimenko (IEEE S&amp;P 2022,
 * "Are we there yet? Timing and floating-point attacks on differential privacy systems") did the same
 * to floating-point Gaussian samplers including Box–Muller and the polar method, and Haney et al.
 * (2022, "Precision-based attacks and interval refining") generalised the precision attacks. So this
 * source follows Canonne, Kamath and Steinke ("The discrete Gaussian for differential privacy",
 * NeurIPS 2020): an integer Z ~ N_Z(0, σ_Z²) is sampled exactly by their Algorithms 1–3 — discrete
 * Laplace proposals, rejection with exact Bernoulli(exp(−γ)) coins for rational γ — using only long
 * arithmetic on random bits ({@link DiscreteGaussianSampler}), and added to integers.
 *
 * <h2>Grid</h2>
 *
 * For a call with noise σ = √variance:
 *
 * <ol>
 *   <li>the grid step is g = 2^k with k = ⌊log2 σ⌋ − 20, so σ_Z = σ/g ∈ [2^20, 2^21). It depends on σ
 *       only: g can be read off the outputs' low bits, so it must not depend on the data (choosing
 *       it from max |v| would publish that magnitude outside the privacy accounting);
 *   <li>each value is snapped, m = rint(v/g) (exact double arithmetic; moves v by at most g/2);
 *   <li>n = m + Z in long arithmetic, with Z ~ N_Z(0, σ²/g²) rounded up to the sampler's rational
 *       (less than 2^-19 relative);
 *   <li>the value stored is the float32 nearest to g·n: exactly g·(m + Z) whenever |n| ≤ 2^24, i.e.
 *       for results up to at least 8σ in magnitude; larger results are rounded to float32, which is
 *       a function of n alone (post-processing of the exact mechanism's output) and is counted in
 *       {@link NoiseDraw#roundedResults()}.
 * </ol>
 *
 * Values must stay below 2^52 grid steps (|v| &lt; 2^31·σ or more); larger ones are rejected, as the
 * noise would be far below their float32 resolution.
 *
 * <h2>What the returned draw says</h2>
 *
 * {@link NoiseDraw#mechanismVariance()} = g²·σ_Z'² ≥ the requested variance, where σ_Z'² is the exact
 * rational the sampler ran; {@link NoiseDraw#realisedVariance()} = g²·Var[N_Z(0, σ_Z'²)], equal to it in
 * double at these σ_Z; {@link NoiseDraw#gridStep()} = g. Snapping is a deterministic change of the
 * input and can raise the L2 sensitivity by at most g·√c when neighbouring models differ in c
 * coordinates ({@link NoiseDraw#snapSensitivity}): for D = 10000, ε = 1 (σ ≈ 611, g = 2^-11) that is
 * 0.049 against Δ = √D = 100, i.e. 0.05 %. Whoever calibrates the noise should add it to Δ.
 *
 * <p>Privacy: for integer-valued inputs CKS prove the discrete Gaussian gives the same
 * ½(Δ/σ)²-concentrated DP as the continuous one and an (ε, δ) curve that is essentially the same. The
 * classical calibration σ² ≥ 2Δ²·ln(1.25/δ)/ε² (used by {@code PrivacyParameters}) is a proof for the
 * continuous Gaussian; for this mechanism the zCDP route is the proven one. The incremental noise
 * schedules add several independent draws to one model; a sum of discrete Gaussians is not exactly a
 * discrete Gaussian (at σ_Z ≥ 2^20 the difference is far below anything measurable, but it is an
 * approximation in the accounting, not an identity).
 *
 * <h2>CSPRNG</h2>
 *
 * {@link #defaultCsprng()}: the JDK's NIST SP 800-90A DRBG at 256-bit security strength, which with
 * the default {@code securerandom.drbg.config} is Hash_DRBG/SHA-256, seeded from the JDK's entropy
 * source ({@code securerandom.source}, {@code /dev/random} on Linux), without prediction resistance but
 * reseeded from the entropy source at the start of every {@link #add} (about 50 µs), so a leak of the
 * generator's state does not reveal the noise of later updates. For each update it keys a ChaCha20
 * keystream (a fresh 256-bit key and 96-bit nonce, the JDK's cipher), whose bits the sampler uses:
 * the arc4random / getrandom construction, because the DRBG itself allocated about 15 MB of garbage
 * per update (the largest allocation of a federation round) and is no faster (Hash_DRBG/SHA-256 180
 * MB/s on a Xeon VM; with prediction resistance 100 MB/s; CTR_DRBG/AES-256 90 MB/s; HMAC_DRBG and
 * Hash_DRBG/SHA-512 about 55 MB/s; NativePRNGNonBlocking 65 MB/s). Bits are fetched 8 KB at a time,
 * each word is zeroed once used, and leftover bits and the key are wiped after every update. On Linux
 * 5.6 and later /dev/random never blocks once the kernel's generator is initialised at boot; on older
 * kernels the first instantiation or a reseed could wait for entropy on a freshly booted idle device.
 * A generator passed to {@link #SecureNoiseSource(SecureRandom)} is used directly, without ChaCha20.
 *
 * <h2>Cost</h2>
 *
 * A draw at σ_Z ≈ 2^20 uses about 110 random bits. A 26×10000 model update (260,000 draws), warm, on
 * a 2-core AMD EPYC VM with AVX-512 ({@code hdfl bench}, {@code secure_noise_ms}): 27.7 ms with JDK 17,
 * 26.0 ms with JDK 25 (whose ChaCha20 is an intrinsic). The same VM took 40 ms before the
 * coins' first digits were tested against a table instead of Math.exp and the uniform proposal used
 * Lemire's method (both leave the distribution exactly as it was; the table leaves every coin and
 * every digit it draws as it was), and 45 ms before the coins were {@link ExpCoin} tests. The first update
 * in a fresh JVM takes a few hundred ms (JIT warm-up and DRBG instantiation). For comparison the
 * {@code seeded} source adds the same 260,000 values in 6 ms (scalar kernels) or 1.3 ms (Panama).
 *
 * <h2>Protected against, and not</h2>
 *
 * Protected: the floating-point attacks above (the noise distribution is exact, and the only
 * floating-point steps are snapping the input, a function of the data alone, and rounding the exact
 * result); prediction or replay of the noise (CSPRNG, reseeded per update, no seed to leak).
 *
 * <p>Not protected: timing — the sampler's running time depends on the draws (rejections, the size of
 * |Z|), and Jin et al. show such timing leaks; draws are batched per model update, so a remote peer
 * sees only the total time of 260,000 draws (and none of it when they were drawn ahead, {@link
 * #prepare}, before the update), but nothing here is constant-time. Also not: an attacker
 * who can read the process memory or the generator state; side channels of the device (power,
 * cache); floating-point rounding inside training, which makes the computed model's true sensitivity
 * differ slightly from the ideal √D the accountant uses; and choosing the variance, which is the
 * schedule's and the ledger's job.
 */
public final class SecureNoiseSource implements NoiseSource {
  /** {@link #name()}. */
  public static final String NAME = "secure";
  /** σ/g ∈ [2^20, 2^21): the grid step is g = 2^(⌊log2 σ⌋ − 20). */
  static final int STEPS_PER_SIGMA_LOG2 = 20;
  /** Snapped values must satisfy |v/g| < 2^52, so that v/g + Z and g·(v/g + Z) are exact in long and double. */
  static final int MAX_GRID_BITS = 52;

  private static final System.Logger LOG = System.getLogger("io.hdfl.privacy.noise");
  private static final AtomicBoolean FALLBACK_LOGGED = new AtomicBoolean();
  private static final byte[] PERSONALIZATION = "hdfl secure noise source v1".getBytes(StandardCharsets.US_ASCII);

  /**
   * The largest add {@link #prepare} draws ahead for: 2^19 values, whose draws take 4 MB (2 MB for a
   * 26 × 10000 model).
   */
  static final int MAX_AHEAD = 1 << 19;

  private final CsprngBits bits;
  /**
   * Draws made ahead for an add of {@link #aheadLength} values ({@code -1}: none), on the grid 2^{@link
   * #aheadGrid}, by {@link #aheadSampler}.
   */
  private long[] ahead;
  private int aheadLength = -1;
  private int aheadGrid;
  private DiscreteGaussianSampler aheadSampler;

  /** A source drawing from {@link #defaultCsprng()}, reseeded from the entropy source every update. */
  public SecureNoiseSource() {
    this(defaultBits());
  }

  /**
   * A source drawing from {@code rng}, which must be a cryptographically strong generator (for
   * example one backed by a hardware module); the privacy of the noise is only as good as it is. It
   * is used as given (not reseeded by this class).
   */
  public SecureNoiseSource(SecureRandom rng) {
    this(new CsprngBits(requireNonNull(rng), false, false));
  }

  SecureNoiseSource(CsprngBits bits) {
    this.bits = bits;
  }

  private static CsprngBits defaultBits() {
    SecureRandom rng = defaultCsprng();
    return new CsprngBits(rng, rng.getAlgorithm().equals("DRBG"), true);
  }

  private static SecureRandom requireNonNull(SecureRandom rng) {
    if (rng == null) {
      throw new NullPointerException("rng");
    }
    return rng;
  }

  /**
   * The CSPRNG used by default: the JDK's NIST SP 800-90A DRBG instantiated at 256-bit security
   * strength without prediction resistance ({@code SecureRandom.getInstance("DRBG",
   * DrbgParameters.instantiation(256, RESEED_ONLY, personalization))}; with the default {@code
   * securerandom.drbg.config} that is Hash_DRBG with SHA-256). If that is not available, {@code
   * NativePRNGNonBlocking}, and last the platform default {@code new SecureRandom()}; a fallback is
   * logged once.
   */
  public static SecureRandom defaultCsprng() {
    try {
      return SecureRandom.getInstance("DRBG",
          DrbgParameters.instantiation(256, DrbgParameters.Capability.RESEED_ONLY, PERSONALIZATION));
    } catch (NoSuchAlgorithmException | IllegalArgumentException drbgProblem) {
      try {
        SecureRandom r = SecureRandom.getInstance("NativePRNGNonBlocking");
        logFallback("DRBG at 256-bit strength unavailable (" + drbgProblem + "); using NativePRNGNonBlocking");
        return r;
      } catch (NoSuchAlgorithmException nativeProblem) {
        SecureRandom r = new SecureRandom();
        logFallback("DRBG at 256-bit strength unavailable (" + drbgProblem + ") and no NativePRNGNonBlocking ("
            + nativeProblem.getMessage() + "); using the platform default " + r.getAlgorithm());
        return r;
      }
    }
  }

  private static void logFallback(String message) {
    if (FALLBACK_LOGGED.compareAndSet(false, true)) {
      LOG.log(System.Logger.Level.WARNING, "hdfl secure noise: " + message);
    }
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public boolean forDeployment() {
    return true;
  }

  @Override
  public String describe() {
    return "secure: exact discrete Gaussian (Canonne-Kamath-Steinke 2020) on a power-of-two grid, integer "
        + "arithmetic, CSPRNG " + bits.describe();
  }

  /**
   * Draws the {@code len} values of Z of an add of {@code variance} ahead (see {@link
   * NoiseSource#prepare}). An add of that length whose variance gives the same grid and the same
   * discrete Gaussian (the same t, q and d) then only snaps and adds them, and its time no longer
   * depends on the draws. The sampler rounds σ² up to its rational t·q/d (by less than 2^-19
   * relative), so a variance foreseen up to floating-point rounding (the accountant's sums in another
   * order) almost always samples exactly the same distribution. Draws made ahead and not used
   * are forgotten, never added: they are independent of any model, so forgetting them reveals
   * nothing. A no-op for a length over {@link #MAX_AHEAD} or a variance that {@link #add} would refuse
   * or that is not known.
   */
  @Override
  public synchronized void prepare(int len, double variance) {
    aheadLength = -1;
    if (len <= 0 || len > MAX_AHEAD || !(variance >= Double.MIN_NORMAL && variance < Double.POSITIVE_INFINITY)) {
      return;
    }
    int k = gridExponent(Math.sqrt(variance));
    if (ahead == null || ahead.length < len) {
      ahead = new long[len];
    }
    try {
      bits.startUpdate();
      DiscreteGaussianSampler sampler = new DiscreteGaussianSampler(Math.scalb(variance, -2 * k), bits);
      for (int i = 0; i < len; i++) {
        ahead[i] = sampler.sample();
      }
      aheadSampler = sampler;
      aheadGrid = k;
      aheadLength = len;
    } catch (IllegalArgumentException e) {
      return; // a σ the sampler cannot take: the add itself reports it
    } finally {
      bits.discard();
    }
  }

  /**
   * Adds g·Z with Z ~ N_Z(0, σ²/g²) to each value after snapping it to the grid g = 2^(⌊log2 σ⌋ − 20)
   * (see the class comment), with the values of Z drawn ahead by {@link #prepare} for this length and
   * distribution, or drawn now.
   *
   * @throws IllegalArgumentException besides the {@link NoiseSource#add} cases, for a variance below
   *     2^-1022 (other than 0), or a value beyond 2^52 grid steps (more than 2^31·σ in magnitude)
   */
  @Override
  public synchronized NoiseDraw add(float[] model, int off, int len, double variance) {
    NoiseArgs.check(model, off, len, variance);
    if (variance == 0) {
      return NoiseDraw.none(NAME);
    }
    if (variance < Double.MIN_NORMAL) {
      throw new IllegalArgumentException("noise variance " + variance + " is below 2^-1022 (use 0 for no noise)");
    }
    double sigma = Math.sqrt(variance);
    int k = gridExponent(sigma);
    float maxAbs = NoiseArgs.maxAbsFinite(model, off, len);
    if (Math.scalb((double) maxAbs, -k) >= Math.scalb(1.0, MAX_GRID_BITS)) {
      throw new IllegalArgumentException("model value " + maxAbs + " is too large for noise σ = " + sigma
          + ": the noise grid (step 2^" + k + ") covers values below 2^52 steps, about "
          + (float) Math.scalb(1.0, MAX_GRID_BITS + k) + "; the noise would be far below float32 resolution anyway");
    }
    DiscreteGaussianSampler sampler = new DiscreteGaussianSampler(Math.scalb(variance, -2 * k), bits);
    if (aheadLength == len && aheadGrid == k && aheadSampler.sameDistribution(sampler)) {
      aheadLength = -1;
      long[] draws = ahead;
      return draw(variance, k, sampler, len, addOnGrid(model, off, len, k, i -> draws[i]));
    }
    aheadLength = -1; // drawn for another add: forgotten
    try {
      bits.startUpdate();
      return draw(variance, k, sampler, len, addOnGrid(model, off, len, k, sampler));
    } finally {
      bits.discard();
    }
  }

  /** What an add of {@code variance} on the grid 2^k by {@code sampler} did. */
  private static NoiseDraw draw(double variance, int k, DiscreteGaussianSampler sampler, int len, long rounded) {
    return new NoiseDraw(NAME, variance, Math.scalb(sampler.sigmaSquared(), 2 * k),
        Math.scalb(sampler.variance(), 2 * k), Math.scalb(1.0, k), len, rounded);
  }

  /**
   * The grid an add of {@code variance} snaps the model to before adding its noise: 2^(⌊log2 σ⌋ − 20),
   * at most σ/2^20; 0 for no noise (nothing is snapped). The privacy report adds the steps' grids,
   * times the root of the coordinates a record can make differ, to its sensitivity ({@code
   * RingExposure}, {@code StarExposure}).
   */
  public static double gridStep(double variance) {
    return variance > 0 && variance < Double.POSITIVE_INFINITY ? Math.scalb(1.0, gridExponent(Math.sqrt(variance))) : 0;
  }

  /**
   * The exponent k of the grid step g = 2^k for noise σ: σ/g ∈ [2^20, 2^21). It depends on σ only
   * (never on the model), since the grid can be read off the outputs.
   */
  static int gridExponent(double sigma) {
    return Math.getExponent(sigma) - STEPS_PER_SIGMA_LOG2;
  }

  /**
   * Snaps each value to the grid 2^k (m = rint(v/2^k), round half even), adds one draw Z of {@code
   * sampler} in long arithmetic, and stores the float32 nearest to 2^k·(m + Z) — which is that value
   * exactly when |m + Z| ≤ 2^24. Values must satisfy |v| < 2^(52+k). Returns how many results were
   * not exactly representable and so were rounded.
   */
  static long addOnGrid(float[] model, int off, int len, int k, DiscreteGaussianSampler sampler) {
    return addOnGrid(model, off, len, k, i -> sampler.sample());
  }

  /** As above, with the i-th draw (i from 0) given by {@code draw}. */
  private static long addOnGrid(float[] model, int off, int len, int k, IntToLongFunction draw) {
    double toGrid = Math.scalb(1.0, -k);
    double fromGrid = Math.scalb(1.0, k);
    long rounded = 0;
    for (int i = 0; i < len; i++) {
      long n = (long) Math.rint(model[off + i] * toGrid) + draw.applyAsLong(i);
      double exact = n * fromGrid; // |n| < 2^53 and g a power of two in the normal range: exact
      float f = (float) exact;
      if (f != exact) {
        rounded++;
      }
      model[off + i] = f;
    }
    return rounded;
  }
}
