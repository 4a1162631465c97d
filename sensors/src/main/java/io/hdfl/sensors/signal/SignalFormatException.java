package io.hdfl.sensors.signal;

import java.io.IOException;

/**
 * Input that is not a valid signal file (recording, CSV, normalization statistics): truncated,
 * corrupt, or out of bounds. The message names the file and the position (line, record or byte
 * offset) and what was wrong, in one line.
 */
public final class SignalFormatException extends IOException {

  private static final long serialVersionUID = 1L;

  public SignalFormatException(String message) {
    super(message);
  }

  public SignalFormatException(String message, Throwable cause) {
    super(message, cause);
  }
}
