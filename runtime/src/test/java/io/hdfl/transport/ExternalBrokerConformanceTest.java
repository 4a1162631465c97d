package io.hdfl.transport;

import static org.junit.jupiter.api.Assumptions.assumeTrue;


/**
 * The conformance suite over MQTT against the broker in the environment variable {@code
 * HDFL_TEST_BROKER} (e.g. {@code tcp://127.0.0.1:1883}; .ci/run sets it when a local Mosquitto
 * answers); skipped when it is unset.
 */
class ExternalBrokerConformanceTest extends MqttConformanceTest {
  static String externalBroker() {
    String uri = System.getenv("HDFL_TEST_BROKER");
    return uri == null || uri.isBlank() ? null : uri.trim();
  }

  @Override
  void assumeAvailable() {
    assumeTrue(externalBroker() != null, "HDFL_TEST_BROKER is not set");
  }

  @Override
  String brokerUri() {
    return externalBroker();
  }
}
