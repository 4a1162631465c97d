package io.hdfl.cli;

import io.hdfl.local.TrainingProgress;
import java.io.PrintWriter;

/** Draws progress on stderr, on one line, only when attached to a terminal. */
final class TerminalProgress implements TrainingProgress {
  private final PrintWriter err;
  private final boolean active;
  private final long start = System.nanoTime();

  private TerminalProgress(PrintWriter err, boolean active) {
    this.err = err;
    this.active = active;
  }

  /** Active only when a console is attached and {@code quiet} is false. */
  static TrainingProgress forTerminal(PrintWriter err, boolean quiet) {
    return quiet || System.console() == null ? TrainingProgress.NONE : new TerminalProgress(err, true);
  }

  @Override
  public void stage(String name) {
    draw(name + " ...");
  }

  @Override
  public void epoch(int epoch, int epochs, int mistakes) {
    draw(String.format("retraining epoch %d/%d, %d updates", epoch, epochs, mistakes));
    if (epoch == epochs) {
      finish();
    }
  }

  private void draw(String text) {
    if (active) {
      err.printf("\r\033[K[%6.1fs] %s", (System.nanoTime() - start) / 1e9, text);
      err.flush();
    }
  }

  void finish() {
    if (active) {
      err.print("\r\033[K");
      err.flush();
    }
  }
}
