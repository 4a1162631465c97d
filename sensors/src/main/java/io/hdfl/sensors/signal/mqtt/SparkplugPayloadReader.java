package io.hdfl.sensors.signal.mqtt;

import org.eclipse.tahu.message.SparkplugBPayloadDecoder;
import org.eclipse.tahu.message.model.Metric;
import org.eclipse.tahu.message.model.SparkplugBPayload;
import org.eclipse.tahu.model.MetricDataTypeMap;

/**
 * Untrusted bytes → a Tahu {@link SparkplugBPayload}, with every decoder failure (protobuf errors,
 * Tahu's own exceptions, a metric it cannot type) turned into a one-line
 * {@link MalformedPayloadException}; and the two fields the host state machine needs, {@code seq} and
 * the {@code bdSeq} metric.
 */
final class SparkplugPayloadReader {

  /** The metric pairing an NBIRTH with its NDEATH. */
  static final String BD_SEQ = "bdSeq";

  private final SparkplugBPayloadDecoder decoder = new SparkplugBPayloadDecoder();

  /**
   * Decodes {@code payload}; {@code types} (from the publisher's birth, or null) types metrics that
   * carry no datatype.
   */
  SparkplugBPayload decode(byte[] payload, MetricDataTypeMap types) throws MalformedPayloadException {
    try {
      SparkplugBPayload p = decoder.buildFromByteArray(payload, types);
      if (p == null || p.getMetrics() == null) {
        throw new MalformedPayloadException("not a Sparkplug B payload");
      }
      return p;
    } catch (MalformedPayloadException e) {
      throw e;
    } catch (Exception | StackOverflowError e) {
      throw new MalformedPayloadException("not a Sparkplug B payload (" + e.getClass().getSimpleName() + ": "
          + ThrottledLog.printable(String.valueOf(e.getMessage()), 160) + ")");
    }
  }

  /** The payload's {@code seq}, checked to be 0..255. */
  static int seq(SparkplugBPayload p, String what) throws MalformedPayloadException {
    Long seq = p.getSeq();
    if (seq == null || seq < 0 || seq > 255) {
      throw new MalformedPayloadException(what + " without a sequence number 0..255 (seq " + seq + ")");
    }
    return seq.intValue();
  }

  /** The value of the {@code bdSeq} metric, or null if there is none. */
  static Long bdSeq(SparkplugBPayload p) {
    for (Metric m : p.getMetrics()) {
      if (m != null && BD_SEQ.equals(m.getName()) && m.getValue() instanceof Number n) {
        return n.longValue();
      }
    }
    return null;
  }
}
