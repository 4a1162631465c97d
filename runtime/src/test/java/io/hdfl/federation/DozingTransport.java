package io.hdfl.federation;

import io.hdfl.transport.Transport;

/**
 * Fault injection: a peer that misses the first {@code n} models handed to it (asleep, rebooting, out
 * of Wi-Fi range), then receives everything again.
 */
final class DozingTransport extends FaultyTransport {
  DozingTransport(Transport inner, int n) {
    super(inner, DeliveryFaults.seeded(0).on(FaultyTransport.RING_INBOXES).droppingFirst(n));
  }
}
