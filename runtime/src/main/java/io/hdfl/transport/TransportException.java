package io.hdfl.transport;

/** A transport operation failed (not connected, broker refused, timed out, ...). */
public final class TransportException extends Exception {
  private static final long serialVersionUID = 1L;

  public TransportException(String message) {
    super(message);
  }

  public TransportException(String message, Throwable cause) {
    super(message, cause);
  }
}
