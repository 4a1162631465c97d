package io.hdfl.sensors.signal.mqtt;

/** A message that cannot become a sample; the message is one line naming what was wrong. */
final class MalformedPayloadException extends Exception {

  private static final long serialVersionUID = 1L;

  MalformedPayloadException(String message) {
    super(message, null, false, false);
  }
}
