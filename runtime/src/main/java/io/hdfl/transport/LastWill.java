package io.hdfl.transport;

import java.util.Arrays;

/**
 * The message a broker publishes on a client's behalf when the client's connection is lost without a
 * clean disconnect (crash, power loss, network cut, keep-alive timeout) — not on {@link
 * Transport#close()}.
 */
public record LastWill(String topic, byte[] payload, int qos, boolean retained) {
  public LastWill {
    TopicFilter.checkTopic(topic);
    QosLevel.check(qos);
    payload = payload.clone();
  }

  @Override
  public byte[] payload() {
    return payload.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof LastWill w && topic.equals(w.topic) && Arrays.equals(payload, w.payload)
        && qos == w.qos && retained == w.retained;
  }

  @Override
  public int hashCode() {
    return (topic.hashCode() * 31 + Arrays.hashCode(payload)) * 31 + qos * 2 + (retained ? 1 : 0);
  }

  @Override
  public String toString() {
    return "LastWill[topic=" + topic + ", " + payload.length + " bytes, qos=" + qos
        + ", retained=" + retained + "]";
  }
}
