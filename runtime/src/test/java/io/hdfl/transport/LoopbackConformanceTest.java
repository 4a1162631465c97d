package io.hdfl.transport;

/** The conformance suite against the in-process loopback broker. */
class LoopbackConformanceTest extends TransportConformanceTest {
  private final LoopbackBroker broker = new LoopbackBroker();

  @Override
  Transport connect(String clientId, LastWill will) {
    return broker.connect(clientId, will);
  }

  @Override
  void crash(Transport t) {
    ((LoopbackTransport) t).crash();
  }
}
