package io.hdfl.transport;

import java.time.Duration;

/** The conformance suite over MQTT; subclasses name the broker. */
abstract class MqttConformanceTest extends TransportConformanceTest {
  abstract String brokerUri();

  @Override
  Transport connect(String clientId, LastWill will) throws TransportException {
    return MqttTransport.connect(MqttSettings.builder(brokerUri())
        .clientId(clientId)
        .will(will)
        .connectTimeout(Duration.ofSeconds(5))
        .operationTimeout(Duration.ofSeconds(10))
        .build());
  }

  @Override
  void crash(Transport t) {
    ((MqttTransport) t).crash();
  }
}
