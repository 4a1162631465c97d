package io.hdfl.sensors.window;

/**
 * A sample broke a {@link Windowing} rule whose policy is FAIL (a timing gap, an irregular interval, a
 * non-finite value), or normalization could not be restored. The message names the timestamps or
 * channel.
 */
public final class WindowingException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public WindowingException(String message) {
    super(message);
  }
}
