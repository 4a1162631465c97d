package io.hdfl.run;

/** Receives the progress of a federated run (the CLI draws it). */
public interface RunProgress {
  RunProgress NONE = new RunProgress() {};

  default void stage(String what) {}

  /** The model after {@code round} was evaluated. */
  default void roundDone(int round, int rounds, double accuracy, double elapsedSeconds) {}
}
