package io.hdfl.federation;

import io.hdfl.transport.Transport;
import io.hdfl.transport.TransportException;

/** Fault injection: every model and ack this transport publishes is published twice. */
final class DuplicatingTransport extends ForwardingTransport {
  DuplicatingTransport(Transport inner) {
    super(inner);
  }

  @Override
  public void publish(String topic, byte[] payload, int qos, boolean retained) throws TransportException {
    inner.publish(topic, payload, qos, retained);
    if (!topic.contains("/metrics/") && !topic.contains("/ledger/")) {
      inner.publish(topic, payload, qos, retained);
    }
  }
}
