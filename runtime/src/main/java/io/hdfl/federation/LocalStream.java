package io.hdfl.federation;

import io.hdfl.hd.EncodedSet;

/**
 * A star client's local data as it arrives: each round takes the next L labelled samples (continuous
 * learning, FedHDPrivacy). From a stored shard ({@link SampleStream}) or from a live signal source
 * through windowing and the encoder ({@link LiveStream}).
 */
public interface LocalStream {
  /**
   * The next {@code count} samples, balanced across classes where the data allow; blocks until a
   * live source has produced them.
   *
   * @throws java.io.UncheckedIOException if a live source fails
   * @throws IllegalStateException if a stored shard has fewer than {@code count} samples left (each is
   *     given once)
   */
  EncodedSet next(long count) throws InterruptedException;

  /**
   * Positions a restarted client's stream after the {@code taken} samples its previous run already
   * learned (from its checkpoint), so that a stored shard is not learned from its start again. A live
   * source has nothing to skip: what passed while the device was down is gone (the default).
   */
  default void resumeAfter(long taken) {}

  /**
   * Whether the data have ended for good (a replayed recording read to its end): no later round can
   * be answered. A stored shard tells its shortfall by {@link #next}; a sensor or a broker never ends.
   */
  default boolean ended() {
    return false;
  }
}
