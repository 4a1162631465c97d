package io.hdfl.hd;

/** A model file that cannot be read; the message is one line naming the file and the problem. */
public final class ModelFormatException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public ModelFormatException(String message) {
    super(message);
  }

  public ModelFormatException(String message, Throwable cause) {
    super(message, cause);
  }
}
