package io.hdfl.io;

import java.io.IOException;

/**
 * A checkpoint file that cannot be used (corrupt, truncated, edited, another peer's); the message is
 * one line naming the file, the problem and what to do. A device refuses to resume from it rather
 * than start over and lose its place in the federation's ledger.
 */
public final class CheckpointFormatException extends IOException {
  private static final long serialVersionUID = 1L;

  public CheckpointFormatException(String message) {
    super(message);
  }

  public CheckpointFormatException(String message, Throwable cause) {
    super(message, cause);
  }
}
