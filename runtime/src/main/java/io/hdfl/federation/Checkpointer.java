package io.hdfl.federation;

import java.io.IOException;

/**
 * Commits a star peer's state ({@link ClientCheckpoint}, {@link AggregatorCheckpoint}) durably before
 * the model it describes leaves the peer (README "Crash safety").
 */
@FunctionalInterface
public interface Checkpointer<T> {
  void commit(T state) throws IOException;

  /** Keeps nothing (a simulation). */
  static <T> Checkpointer<T> none() {
    return state -> { };
  }
}
