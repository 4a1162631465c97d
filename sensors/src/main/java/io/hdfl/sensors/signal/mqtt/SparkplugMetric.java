package io.hdfl.sensors.signal.mqtt;

import io.hdfl.sensors.signal.Channel;
import java.util.Objects;

/**
 * One channel of a {@link SparkplugSignalSource}: a metric of the edge node itself or of one of its
 * devices, by its Sparkplug metric name (as in the birth certificate, e.g. {@code Spindle/Load}; data
 * messages may refer to it by the alias the birth gave it). Value = {@code raw × scale + offset}, as
 * float; booleans are 1/0; integers of every width and unsigned types are converted exactly where a
 * float can hold them.
 *
 * @param channel the channel the metric becomes
 * @param device the device id, or null for a metric of the edge node (NBIRTH/NDATA)
 * @param metric the metric name
 * @param scale factor, finite and not 0
 * @param offset added after scaling, finite
 */
public record SparkplugMetric(Channel channel, String device, String metric, double scale, double offset) {

  public SparkplugMetric {
    Objects.requireNonNull(channel, "channel");
    if (device != null) {
      SparkplugTopic.checkId("device id", device);
    }
    Objects.requireNonNull(metric, "metric");
    if (metric.isEmpty() || metric.length() > 1024) {
      throw new IllegalArgumentException("metric name must be 1..1024 characters");
    }
    if (!Double.isFinite(scale) || scale == 0) {
      throw new IllegalArgumentException("scale of channel " + channel.name() + " must be finite and not 0, got " + scale);
    }
    if (!Double.isFinite(offset)) {
      throw new IllegalArgumentException("offset of channel " + channel.name() + " must be finite, got " + offset);
    }
  }

  /** Metric {@code metric} of device {@code device} as channel {@code name[unit]}. */
  public static SparkplugMetric ofDevice(String device, String metric, String name, String unit) {
    return new SparkplugMetric(new Channel(name, unit), Objects.requireNonNull(device, "device"), metric, 1, 0);
  }

  /** Metric {@code metric} of the edge node itself as channel {@code name[unit]}. */
  public static SparkplugMetric ofNode(String metric, String name, String unit) {
    return new SparkplugMetric(new Channel(name, unit), null, metric, 1, 0);
  }

  /** This mapping with {@code raw × scale + offset}. */
  public SparkplugMetric scaled(double newScale, double newOffset) {
    return new SparkplugMetric(channel, device, metric, newScale, newOffset);
  }

  /** Whether this is a metric of the edge node rather than of a device. */
  public boolean isNodeMetric() {
    return device == null;
  }
}
