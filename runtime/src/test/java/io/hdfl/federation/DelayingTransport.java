package io.hdfl.federation;

import io.hdfl.transport.Transport;

/** Fault injection: a slow peer, whose inbox deliveries arrive {@code delayMillis} late. */
final class DelayingTransport extends FaultyTransport {
  DelayingTransport(Transport inner, long delayMillis) {
    super(inner, DeliveryFaults.seeded(0).on(FaultyTransport.RING_INBOXES)
        .delaying(1.0, Math.toIntExact(delayMillis), Math.toIntExact(delayMillis)));
  }
}
