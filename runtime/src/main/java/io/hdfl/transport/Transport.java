package io.hdfl.transport;

/**
 * Publish/subscribe messaging between peers, with MQTT semantics: topics with {@code +}/{@code #}
 * wildcards, QoS 0 or 1, retained messages, and a last will published by the broker when the
 * connection is lost. Implementations: an in-process loopback (fast unit tests) and MQTT over Eclipse
 * Paho (the real one); both pass one conformance suite.
 *
 * <p>Blocking API: {@link #publish} returns when the message is handed to the broker (for QoS 1: when
 * the broker acknowledged it). Handlers run on a transport thread, one message at a time per transport,
 * in arrival order; a handler must not block for long and must not throw (exceptions are logged).
 */
public interface Transport extends AutoCloseable {
  /** The client id this transport connected with. */
  String clientId();

  /** Subscribes {@code handler} to a topic filter; retained messages matching it are delivered. */
  void subscribe(String topicFilter, int qos, MessageHandler handler) throws TransportException;

  void unsubscribe(String topicFilter) throws TransportException;

  /** Publishes a message; see the class comment for when this returns. */
  void publish(String topic, byte[] payload, int qos, boolean retained) throws TransportException;

  /** Bytes and messages sent and received so far (payloads plus topic names). */
  TransportStats stats();

  /** Whether the transport is connected now. */
  boolean isConnected();

  /**
   * How many times the connection was lost since this transport was created (0 for a transport
   * that cannot lose it). A protocol compares two readings to tell "the other side did not answer"
   * from "my own connection dropped meanwhile".
   */
  default long connectionLosses() {
    return 0;
  }

  /**
   * Calls {@code listener} each time the connection comes back after a loss, once the subscriptions
   * are in place again, so that whatever others send on hearing from this client reaches it. It runs
   * on a thread of its own and may publish. A transport that cannot lose its connection never calls
   * it. (The broker published this client's last will when the connection was lost: a client that
   * announced itself with a retained message announces itself again here.)
   */
  default void onReconnected(Runnable listener) {}

  /** Disconnects cleanly (no last will); idempotent. */
  @Override
  void close();
}
