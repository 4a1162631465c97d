package io.hdfl.sensors.signal.mqtt;

import java.nio.charset.StandardCharsets;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import org.eclipse.paho.client.mqttv3.MqttClient;
import org.eclipse.paho.client.mqttv3.MqttConnectOptions;
import org.eclipse.paho.client.mqttv3.MqttException;
import org.eclipse.paho.client.mqttv3.persist.MemoryPersistence;

/** A plain Paho client for tests: publishes (QoS 1, waits for the ack), optionally with a last will. */
final class TestPublisher implements AutoCloseable {

  /** A received message. */
  record Received(String topic, byte[] payload) {}

  private final MqttClient client;
  final BlockingQueue<Received> received = new LinkedBlockingQueue<>();

  private TestPublisher(MqttClient client) {
    this.client = client;
  }

  static TestPublisher connect(String uri) throws MqttException {
    return connect(uri, null, null);
  }

  /** Connects with a last will ({@code willTopic} null for none), published QoS 1 when the connection drops. */
  static TestPublisher connect(String uri, String willTopic, byte[] willPayload) throws MqttException {
    MqttClient c = new MqttClient(uri, "hdfl-tp-" + UUID.randomUUID().toString().substring(0, 12),
        new MemoryPersistence());
    MqttConnectOptions o = new MqttConnectOptions();
    o.setCleanSession(true);
    o.setMqttVersion(MqttConnectOptions.MQTT_VERSION_3_1_1);
    o.setConnectionTimeout(10);
    if (willTopic != null) {
      o.setWill(willTopic, willPayload, 1, false);
    }
    c.connect(o);
    return new TestPublisher(c);
  }

  void publish(String topic, byte[] payload) throws MqttException {
    client.publish(topic, payload, 1, false);
  }

  void publish(String topic, String payload) throws MqttException {
    publish(topic, payload.getBytes(StandardCharsets.UTF_8));
  }

  /** Subscribes; messages land in {@link #received}. */
  void subscribe(String filter) throws MqttException {
    client.subscribe(filter, 1, (t, m) -> received.add(new Received(t, m.getPayload())));
  }

  /** Drops the connection without DISCONNECT, so the broker publishes the last will. */
  void crash() throws MqttException {
    client.disconnectForcibly(0, 0, false);
    client.close(true);
  }

  @Override
  public void close() throws MqttException {
    if (client.isConnected()) {
      client.disconnect(0);
    }
    client.close(true);
  }
}
