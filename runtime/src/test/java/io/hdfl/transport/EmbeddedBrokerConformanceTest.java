package io.hdfl.transport;

/** The conformance suite over MQTT against the embedded Moquette broker (always runs). */
class EmbeddedBrokerConformanceTest extends MqttConformanceTest {
  @Override
  String brokerUri() {
    return SharedEmbeddedBroker.uri();
  }

  /**
   * Moquette 0.17 sends retained messages to a new QoS 1 subscription without the RETAIN flag
   * (Session.sendPublishQos1 builds them with createNotRetainedPublishMessage); QoS 0 is right.
   */
  @Override
  boolean flagsRetainedAtQos1() {
    return false;
  }
}
