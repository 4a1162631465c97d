package io.hdfl.device;

import io.hdfl.sensors.signal.Channel;
import io.hdfl.sensors.signal.SignalSource;
import io.hdfl.sensors.signal.mqtt.BrokerSettings;
import io.hdfl.sensors.signal.mqtt.JsonChannel;
import io.hdfl.sensors.signal.mqtt.MqttJsonSignalSource;
import io.hdfl.sensors.signal.mqtt.SparkplugMetric;
import io.hdfl.sensors.signal.mqtt.SparkplugSignalSource;
import io.hdfl.sensors.signal.mqtt.TimestampFormat;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.Set;

/**
 * A device's MQTT ingest from its {@code ingest.*} keys ({@code data.source = mqtt-json} or {@code
 * sparkplug}). {@link #check} validates the keys without connecting; {@link #open} connects.
 *
 * <pre>
 * ingest.broker = tcp://gateway:1883        (default: the peer's broker)
 * ingest.username, ingest.password          (optional)
 * ingest.ca, ingest.cert, ingest.key        (ssl:// brokers: trusted CAs, optional client certificate)
 * ingest.rate = 50                          (nominal samples per second; required)
 * mqtt-json:  ingest.topic, ingest.channels = load[%] = /spindle/load, feed[mm/min] = /x/feed,
 *             ingest.timestamp = /ts, ingest.timestamp.format = epoch-millis (default: arrival time),
 *             ingest.label = /quality
 * sparkplug:  ingest.group, ingest.edge-node, ingest.metrics = load[%] = mill-3:Spindle/Load, t[C] = :Ambient,
 *             ingest.label.metric = mill-3:Quality  or  ingest.label.topic = plant1/labels/mill-3,
 *             ingest.rebirth = false
 * ingest.classes = nominal, under, over     (optional: label names, else integer labels)
 * </pre>
 */
final class IngestSource {
  static final Set<String> KEYS = Set.of("ingest.broker", "ingest.username", "ingest.password", "ingest.rate",
      "ingest.topic", "ingest.channels", "ingest.timestamp", "ingest.timestamp.format", "ingest.label",
      "ingest.group", "ingest.edge-node", "ingest.metrics", "ingest.label.metric", "ingest.label.topic",
      "ingest.rebirth", "ingest.classes", "ingest.ca", "ingest.cert", "ingest.key");

  private IngestSource() {}

  /** Validates the keys of {@code source} without connecting. */
  static void check(String source, Properties p) {
    for (String key : p.stringPropertyNames()) {
      if (!KEYS.contains(key)) {
        throw new IllegalArgumentException("unknown key '" + key + "' (known: " + new java.util.TreeSet<>(KEYS) + ")");
      }
    }
    rate(p);
    if (source.equals(SignalConfig.MQTT_JSON)) {
      required(p, "ingest.topic");
      jsonChannels(p);
      if (p.getProperty("ingest.timestamp") != null) {
        timestampFormat(p);
      }
    } else {
      required(p, "ingest.group");
      required(p, "ingest.edge-node");
      metrics(p);
      if (p.getProperty("ingest.label.metric") != null) {
        deviceMetric(p.getProperty("ingest.label.metric"), "ingest.label.metric");
      }
    }
  }

  /** Connects and subscribes. */
  static SignalSource open(String source, Properties p, String defaultBroker, String clientId) throws IOException {
    check(source, p);
    BrokerSettings.Builder b = BrokerSettings.builder(p.getProperty("ingest.broker", defaultBroker).trim())
        .clientId(clientId);
    if (p.getProperty("ingest.username") != null) {
      b.credentials(p.getProperty("ingest.username").trim(), p.getProperty("ingest.password", "").trim());
    }
    String uri = p.getProperty("ingest.broker", defaultBroker).trim();
    if (uri.startsWith("ssl://")) {
      io.hdfl.transport.MqttSettings.Builder tls = io.hdfl.transport.MqttSettings.builder(uri);
      if (p.getProperty("ingest.ca") != null) {
        tls.caFile(java.nio.file.Path.of(p.getProperty("ingest.ca").trim()));
      }
      if (p.getProperty("ingest.cert") != null) {
        tls.clientCertificate(java.nio.file.Path.of(p.getProperty("ingest.cert").trim()),
            p.getProperty("ingest.key") == null ? null : java.nio.file.Path.of(p.getProperty("ingest.key").trim()));
      }
      b.socketFactory(tls.build().tlsSocketFactory());
    }
    String[] classes = classes(p);
    if (source.equals(SignalConfig.MQTT_JSON)) {
      MqttJsonSignalSource.Builder j = MqttJsonSignalSource.builder(b.build(), required(p, "ingest.topic"))
          .sampleRateHz(rate(p));
      jsonChannels(p).forEach(j::channel);
      if (p.getProperty("ingest.timestamp") != null) {
        j.timestamp(p.getProperty("ingest.timestamp").trim(), timestampFormat(p));
      } else {
        j.arrivalTime();
      }
      if (p.getProperty("ingest.label") != null) {
        j.label(p.getProperty("ingest.label").trim(), classes);
      }
      return j.open();
    }
    SparkplugSignalSource.Builder s = SparkplugSignalSource.builder(b.build(), required(p, "ingest.group"),
        required(p, "ingest.edge-node")).sampleRateHz(rate(p))
        .requestRebirth(Boolean.parseBoolean(p.getProperty("ingest.rebirth", "false").trim()));
    metrics(p).forEach(s::metric);
    if (p.getProperty("ingest.label.metric") != null) {
      String[] dm = deviceMetric(p.getProperty("ingest.label.metric"), "ingest.label.metric");
      s.labelMetric(dm[0], dm[1], classes);
    } else if (p.getProperty("ingest.label.topic") != null) {
      s.labelTopic(p.getProperty("ingest.label.topic").trim(), classes);
    }
    return s.open();
  }

  private static double rate(Properties p) {
    String v = required(p, "ingest.rate");
    try {
      double r = Double.parseDouble(v);
      if (!(r > 0) || Double.isInfinite(r)) {
        throw new NumberFormatException();
      }
      return r;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("'ingest.rate' must be a positive number of samples per second, got '" + v + "'");
    }
  }

  private static TimestampFormat timestampFormat(Properties p) {
    String v = p.getProperty("ingest.timestamp.format", "epoch-millis").trim();
    try {
      return TimestampFormat.valueOf(v.toUpperCase(Locale.ROOT).replace('-', '_'));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("'ingest.timestamp.format' must be one of epoch-seconds, epoch-millis, "
          + "epoch-micros, epoch-nanos or iso-8601, got '" + v + "'");
    }
  }

  private static List<JsonChannel> jsonChannels(Properties p) {
    List<JsonChannel> out = new ArrayList<>();
    for (String[] nv : pairs(p, "ingest.channels")) {
      Channel c = channel(nv[0], "ingest.channels");
      out.add(JsonChannel.of(c.name(), c.unit(), nv[1]));
    }
    return out;
  }

  private static List<SparkplugMetric> metrics(Properties p) {
    List<SparkplugMetric> out = new ArrayList<>();
    for (String[] nv : pairs(p, "ingest.metrics")) {
      Channel c = channel(nv[0], "ingest.metrics");
      String[] dm = deviceMetric(nv[1], "ingest.metrics");
      out.add(dm[0] == null ? SparkplugMetric.ofNode(dm[1], c.name(), c.unit())
          : SparkplugMetric.ofDevice(dm[0], dm[1], c.name(), c.unit()));
    }
    return out;
  }

  /** {@code device:metric}, or {@code :metric} for a metric of the edge node itself. */
  private static String[] deviceMetric(String v, String key) {
    int colon = v.indexOf(':');
    if (colon < 0 || colon == v.length() - 1) {
      throw new IllegalArgumentException("'" + key + "' wants device:metric (or :metric for the edge node), got '" + v
          + "'");
    }
    String device = v.substring(0, colon).trim();
    return new String[] {device.isEmpty() ? null : device, v.substring(colon + 1).trim()};
  }

  private static Channel channel(String label, String key) {
    try {
      return Channel.parseLabel(label);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("'" + key + "': " + e.getMessage());
    }
  }

  /** {@code a = x, b = y}: name/value pairs. */
  private static List<String[]> pairs(Properties p, String key) {
    List<String[]> out = new ArrayList<>();
    for (String raw : required(p, key).split(",")) {
      String item = raw.trim();
      int eq = item.indexOf('=');
      String name = eq < 0 ? "" : item.substring(0, eq).trim();
      String source = eq < 0 ? "" : item.substring(eq + 1).trim();
      if (name.isEmpty() || source.isEmpty()) { // an empty JSON pointer would take the whole payload
        throw new IllegalArgumentException("'" + key + "' wants name[unit] = source, ... ; got '" + item + "'");
      }
      out.add(new String[] {name, source});
    }
    return out;
  }

  private static String[] classes(Properties p) {
    String v = p.getProperty("ingest.classes");
    return v == null || v.isBlank() ? new String[0]
        : java.util.Arrays.stream(v.split(",")).map(String::trim).toArray(String[]::new);
  }

  private static String required(Properties p, String key) {
    String v = p.getProperty(key);
    if (v == null || v.isBlank()) {
      throw new IllegalArgumentException("'" + key + "' is required");
    }
    return v.trim();
  }
}
