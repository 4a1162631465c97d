package io.hdfl.transport;

/**
 * The QoS levels hdfl uses: 0 (at most once) and 1 (at least once). QoS 2 is rejected: the federation
 * protocols deduplicate by step id, so exactly-once delivery would only add a round trip.
 */
final class QosLevel {
  private QosLevel() {}

  static void check(int qos) {
    if (qos != 0 && qos != 1) {
      throw new IllegalArgumentException("qos must be 0 or 1, got " + qos);
    }
  }
}
