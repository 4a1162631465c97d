package io.hdfl.transport;

/** Receives messages of a subscription. */
@FunctionalInterface
public interface MessageHandler {
  /**
   * @param topic the topic the message was published to
   * @param payload the payload (owned by the handler)
   * @param retained whether the broker delivered it as a retained message
   */
  void onMessage(String topic, byte[] payload, boolean retained);
}
