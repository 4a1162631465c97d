package io.hdfl.federation;

import io.hdfl.transport.Transport;

/** Fault injection: every model and ack handed to this peer arrives twice. */
final class DuplicatingTransport extends FaultyTransport {
  DuplicatingTransport(Transport inner) {
    super(inner, DeliveryFaults.seeded(0).on("hdfl/+/ring/#").duplicating(1.0));
  }
}
