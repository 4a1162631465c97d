package io.hdfl.federation;

import io.hdfl.transport.Transport;

/** Fault injection: a peer whose subscriptions never deliver anything (it is connected but dead). */
final class DeafTransport extends FaultyTransport {
  DeafTransport(Transport inner) {
    super(inner, DeliveryFaults.seeded(0).dropping(1.0));
  }
}
