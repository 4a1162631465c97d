package io.hdfl.federation;

import io.hdfl.transport.MessageHandler;
import io.hdfl.transport.Transport;
import io.hdfl.transport.TransportException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Fault injection: a peer that misses the first {@code n} models handed to it (asleep, rebooting, out
 * of Wi-Fi range), then receives everything again.
 */
final class DozingTransport extends ForwardingTransport {
  private final AtomicInteger toMiss;

  DozingTransport(Transport inner, int n) {
    super(inner);
    this.toMiss = new AtomicInteger(n);
  }

  @Override
  public void subscribe(String topicFilter, int qos, MessageHandler handler) throws TransportException {
    inner.subscribe(topicFilter, qos, (topic, payload, retained) -> {
      if (topic.contains("/in/") && toMiss.getAndUpdate(m -> Math.max(0, m - 1)) > 0) {
        return; // missed
      }
      handler.onMessage(topic, payload, retained);
    });
  }
}
