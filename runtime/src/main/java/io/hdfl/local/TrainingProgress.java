package io.hdfl.local;

/** Receives progress of long work; the CLI draws it on a terminal. */
public interface TrainingProgress {
  TrainingProgress NONE = new TrainingProgress() {};

  /** A named stage started ("encoding training set", ...). */
  default void stage(String name) {}

  /** A retraining epoch finished. */
  default void epoch(int epoch, int epochs, int mistakes) {}
}
