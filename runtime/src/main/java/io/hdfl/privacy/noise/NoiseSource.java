package io.hdfl.privacy.noise;

/**
 * Adds zero-mean Gaussian noise of a given variance to (part of) an HD model, S×D float32 values in
 * one array (DESIGN §4, "Noise sources"). Two implementations:
 *
 * <ul>
 *   <li>{@link SecureNoiseSource} ({@code secure}, the default for real devices): exact discrete
 *       Gaussian from a CSPRNG on a power-of-two grid, resisting the floating-point attacks on the
 *       Gaussian mechanism;
 *   <li>{@link SeededNoiseSource} ({@code seeded}, simulations): fast, reproducible from a seed, and
 *       therefore not private: its {@link #describe()} says NOT FOR DEPLOYMENT and every report must
 *       show that.
 * </ul>
 *
 * <p>Contract for {@link #add}: the variance must be finite and ≥ 0; variance 0 is a no-op (the model
 * is untouched, the returned draw has {@code draws == 0}). With variance > 0 every value in the range
 * must be finite (checked before anything is changed). Implementations are thread-safe (calls are
 * serialized); a noise source holds random state, so use one per peer.
 */
public interface NoiseSource {

  /** {@code "secure"} or {@code "seeded"}. */
  String name();

  /** True only for sources whose noise an observer cannot reproduce or subtract. */
  boolean forDeployment();

  /** A one-line human description for reports (the mechanism, the generator, caveats). */
  String describe();

  /**
   * Adds independent zero-mean Gaussian noise of variance {@code variance} to each of {@code
   * model[off..off+len)}.
   *
   * @return what was done, including the variance actually realised
   * @throws IllegalArgumentException for a negative, NaN or infinite variance, a non-finite model
   *     value, or a variance that cannot be applied to these values (see the implementation)
   * @throws IndexOutOfBoundsException if the range is outside the array
   */
  NoiseDraw add(float[] model, int off, int len, double variance);

  /**
   * Draws ahead what the next {@link #add} of {@code len} values needs, expected with variance {@code
   * variance}, so that the add itself only has to add it. A ring peer calls it after handing its model
   * on, while it waits for its next turn: the draws then cost the ring's critical path nothing. The
   * noise an add adds is distributed as without it, and {@link #position()} does not count what was
   * drawn ahead. A source whose draws depend on the variance uses them only for an add of exactly
   * that variance and length, and otherwise forgets them (never used, they reveal nothing). A no-op by
   * default, for a source that cannot draw ahead; NaN: the variance is not known.
   */
  default void prepare(int len, double variance) {}

  /**
   * How far this source's random stream has advanced, for a checkpoint from which a restarted peer
   * continues the same stream ({@link SeededNoiseSource}); -1 for a source whose stream cannot and
   * must not be resumed (a CSPRNG: a restarted peer draws fresh noise).
   */
  default long position() {
    return -1;
  }

  /** {@link #add(float[], int, int, double)} over the whole array. */
  default NoiseDraw add(float[] model, double variance) {
    if (model == null) {
      throw new NullPointerException("model");
    }
    return add(model, 0, model.length, variance);
  }
}
