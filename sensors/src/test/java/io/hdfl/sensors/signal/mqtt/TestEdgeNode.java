package io.hdfl.sensors.signal.mqtt;

import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import org.eclipse.tahu.message.SparkplugBPayloadEncoder;
import org.eclipse.tahu.message.model.MessageType;
import org.eclipse.tahu.message.model.Metric;
import org.eclipse.tahu.message.model.MetricDataType;
import org.eclipse.tahu.message.model.SparkplugBPayload;

/**
 * A Sparkplug B edge node for tests: real Tahu-encoded payloads (SparkplugBPayloadEncoder) with the
 * node's sequence numbers and bdSeq, as a gateway would publish them.
 */
final class TestEdgeNode {

  final String group;
  final String edge;
  long bdSeq;
  int seq = -1;
  /** Leave datatypes out of data messages (allowed by the spec: the birth defined them). */
  boolean stripDataTypes = true;

  TestEdgeNode(String group, String edge, long bdSeq) {
    this.group = group;
    this.edge = edge;
    this.bdSeq = bdSeq;
  }

  String topic(MessageType type) {
    return new SparkplugTopic(group, type, edge, null).topic();
  }

  String topic(MessageType type, String device) {
    return new SparkplugTopic(group, type, edge, device).topic();
  }

  /** NBIRTH: seq restarts at 0, with the bdSeq metric and {@code metrics}. */
  byte[] nbirth(Metric... metrics) {
    seq = 0;
    List<Metric> all = new ArrayList<>(List.of(metrics));
    all.add(0, named("bdSeq", MetricDataType.Int64, bdSeq));
    return encode(payload(0, 1_000, all), false);
  }

  /** NDEATH (the node's will): bdSeq only, no seq. */
  byte[] ndeath() {
    return ndeath(bdSeq);
  }

  byte[] ndeath(long bd) {
    SparkplugBPayload p = new SparkplugBPayload.SparkplugBPayloadBuilder().setTimestamp(new Date(1_000))
        .addMetric(named("bdSeq", MetricDataType.Int64, bd)).createPayload();
    return encode(p, false);
  }

  /** DBIRTH with the next seq; datatypes always included. */
  byte[] dbirth(long timeMs, Metric... metrics) {
    return encode(payload(nextSeq(), timeMs, List.of(metrics)), false);
  }

  /** NDATA/DDATA/DDEATH with the next seq. */
  byte[] data(long timeMs, Metric... metrics) {
    return encode(payload(nextSeq(), timeMs, List.of(metrics)), stripDataTypes);
  }

  /** A data message without a timestamp. */
  byte[] dataWithoutTimestamp(Metric... metrics) {
    SparkplugBPayload p = new SparkplugBPayload.SparkplugBPayloadBuilder().setSeq((long) nextSeq())
        .addMetrics(List.of(metrics)).createPayload();
    return encode(p, stripDataTypes);
  }

  /** Consumes a sequence number without a message: the next message shows a gap. */
  void lose() {
    nextSeq();
  }

  private int nextSeq() {
    seq = (seq + 1) & 0xFF;
    return seq;
  }

  private static SparkplugBPayload payload(int seq, long timeMs, List<Metric> metrics) {
    return new SparkplugBPayload.SparkplugBPayloadBuilder().setTimestamp(new Date(timeMs)).setSeq((long) seq)
        .addMetrics(metrics).createPayload();
  }

  static byte[] encode(SparkplugBPayload p, boolean strip) {
    try {
      return new SparkplugBPayloadEncoder().getBytes(p, strip);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /** A birth metric: name, alias, type, value. */
  static Metric birth(String name, long alias, MetricDataType type, Object value) {
    try {
      return new Metric.MetricBuilder(name, type, value).alias(alias).createMetric();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /** A data metric by alias only. */
  static Metric alias(long alias, MetricDataType type, Object value) {
    try {
      return new Metric.MetricBuilder(alias, type, value).createMetric();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /** A metric by name only. */
  static Metric named(String name, MetricDataType type, Object value) {
    try {
      return new Metric.MetricBuilder(name, type, value).createMetric();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
