package io.hdfl.sensors.signal.mqtt;

import io.hdfl.sensors.signal.Channel;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Objects;
import org.eclipse.paho.client.mqttv3.MqttTopic;
import org.eclipse.tahu.message.SparkplugBPayloadEncoder;
import org.eclipse.tahu.message.model.MessageType;
import org.eclipse.tahu.message.model.Metric;
import org.eclipse.tahu.message.model.MetricDataType;
import org.eclipse.tahu.message.model.SparkplugBPayload;

/**
 * Samples from a Sparkplug B edge node (a machine gateway) and its devices, as a passive host
 * application. Subscribes to {@code spBv1.0/<group>/NBIRTH|NDEATH|NDATA/<edge node>} and
 * {@code spBv1.0/<group>/DBIRTH|DDEATH|DDATA/<edge node>/+}; payloads are decoded with Eclipse Tahu's
 * {@code SparkplugBPayloadDecoder}.
 *
 * <pre>{@code
 * SparkplugSignalSource source = SparkplugSignalSource.builder(BrokerSettings.of("tcp://broker:1883"), "plant1", "cnc-gw-7")
 *     .metric(SparkplugMetric.ofDevice("mill-3", "Spindle/Load", "spindle.load", "%"))
 *     .metric(SparkplugMetric.ofDevice("mill-3", "Spindle/Speed", "spindle.speed", "1/s").scaled(1 / 60.0, 0))
 *     .metric(SparkplugMetric.ofNode("Supply/Voltage", "supply.voltage", "V"))
 *     .labelMetric("mill-3", "Quality/Class", "nominal", "under", "over")
 *     .sampleRateHz(10)
 *     .requestRebirth(true)
 *     .open();
 * }</pre>
 *
 * <ul>
 *   <li><b>Births</b>: NBIRTH and DBIRTH define each metric's name, alias and datatype; data messages
 *       may then name metrics by alias. Channels are the configured metrics, in the order added, whatever
 *       a birth contains; a configured metric missing from a birth is logged and its channel stays empty.
 *   <li><b>Samples</b>: each NDATA/DDATA of the node or a configured device that carries at least one
 *       configured metric yields one sample stamped with the payload timestamp (ms; or the arrival time,
 *       {@link Builder#arrivalTime()}). Channels not in that message (edge nodes report by exception)
 *       follow the {@link MissingValuePolicy}, by default {@link MissingValuePolicy#CARRY_FORWARD}; an
 *       explicit null value forgets the channel's value. Births only seed the carried values.
 *       Historical metrics ({@code is_historical}) are ignored. If a metric appears twice in one message,
 *       the last value counts.
 *   <li><b>Sequence</b>: every message of the node but NDEATH carries {@code seq} 0..255, +1 per message
 *       (wrapping). A gap (or an undecodable message, whose number is then missing) means data was lost:
 *       it is logged and counted, and everything from the node is discarded until its next NBIRTH. So is
 *       everything after this client loses its connection, and before the first NBIRTH. With
 *       {@link Builder#requestRebirth} on, the source then publishes an NCMD {@code Node Control/Rebirth}
 *       (at most once per {@link Builder#rebirthInterval}, default 10 s, and once at start, since births are
 *       not retained); off by default, as it needs publish rights on {@code spBv1.0/<group>/NCMD/<edge node>}.
 *   <li><b>Deaths</b>: an NDEATH whose {@code bdSeq} matches the current NBIRTH's (others are late wills
 *       of earlier sessions: counted and ignored) makes the node and all its devices stale; a DDEATH makes
 *       its device stale. Stale channels' last values are forgotten (nothing stale is carried forward)
 *       until the next birth; {@link #isStale()} tells.
 *   <li><b>Labels</b> (optional): from a metric of the node or a device ({@link Builder#labelMetric}),
 *       sticky until the next value and reset by that publisher's death; or from a plain MQTT topic
 *       ({@link Builder#labelTopic}) whose payload is the class as text. Integer ≥ 0, -1/null/empty for
 *       none, or a configured class name; anything else is counted and means no label.
 *   <li><b>Untrusted input</b>: payloads over {@link Builder#maxPayloadBytes} (default 1 MiB) are skipped
 *       before decoding, births with more than {@link Builder#maxBirthMetrics} metrics are rejected, only
 *       configured devices keep state; every problem is counted in {@link #stats()} and logged (throttled).
 *       Protobuf decoding allocates in proportion to the payload: array metrics expand to boxed values,
 *       about 16 bytes per byte.
 *   <li>One source follows one edge node; its devices not configured are only sequence-checked.
 * </ul>
 */
public final class SparkplugSignalSource extends BrokerSignalSource {

  /** The metric of the rebirth request (Sparkplug B 3.0, NCMD). */
  public static final String REBIRTH_METRIC = "Node Control/Rebirth";

  private final SparkplugSession session;
  private final String labelTopic;
  private final String commandTopic;

  private SparkplugSignalSource(Builder b, List<Channel> channels, ArrivalClock clock) {
    super("sparkplug " + b.group + "/" + b.edgeNode, channels, b.sampleRateHz, b.maxPayloadBytes, b.queueCapacity,
        clock);
    this.labelTopic = b.labelTopic;
    this.commandTopic = new SparkplugTopic(b.group, MessageType.NCMD, b.edgeNode, null).topic();
    this.session = new SparkplugSession(b.group, b.edgeNode, b.metrics, b.labelMetric,
        new ClassLabels(b.labelNames), b.missing, b.arrivalTime, b.maxBirthMetrics, counters, log, clock,
        this::deliver, b.requestRebirth ? this::sendRebirthRequest : null, b.rebirthInterval.toNanos());
  }

  public static Builder builder(BrokerSettings broker, String groupId, String edgeNodeId) {
    return new Builder(broker, groupId, edgeNodeId);
  }

  /** Counters since open. */
  public SparkplugStats stats() {
    return counters.sparkplug(queued());
  }

  /**
   * Whether the data is stale: the edge node or a configured device is not alive now (no birth yet,
   * dead, or a sequence gap or lost connection since its birth).
   */
  public boolean isStale() {
    return session.isStale();
  }

  /** One line on the node's and devices' state, e.g. for a status page. */
  public String state() {
    return session.stateText();
  }

  /** The NCMD payload asking an edge node to publish its births again (Tahu-encoded). */
  public static byte[] rebirthRequestPayload() {
    try {
      Metric m = new Metric.MetricBuilder(REBIRTH_METRIC, MetricDataType.Boolean, true).createMetric();
      SparkplugBPayload p = new SparkplugBPayload.SparkplugBPayloadBuilder().setTimestamp(new Date())
          .addMetric(m).createPayload();
      return new SparkplugBPayloadEncoder().getBytes(p, false);
    } catch (Exception e) {
      throw new IllegalStateException("encoding a rebirth request failed: " + e.getMessage(), e);
    }
  }

  private void sendRebirthRequest() {
    MqttSubscriber s = subscriber();
    if (s != null) {
      s.publish(commandTopic, rebirthRequestPayload());
    }
  }

  @Override
  void onMessage(String topic, byte[] payload) {
    if (topic.equals(labelTopic)) {
      session.onLabelText(payload);
    } else {
      session.onMessage(topic, payload);
    }
  }

  @Override
  void onConnectionLost() {
    session.onConnectionLost();
  }

  @Override
  void onReconnected() {
    session.onReconnected();
  }

  /** Test hook: the session without a broker. */
  SparkplugSession session() {
    return session;
  }

  /** Options of a {@link SparkplugSignalSource}; metrics and the sample rate are required. */
  public static final class Builder {
    private final BrokerSettings broker;
    private final String group;
    private final String edgeNode;
    private final List<SparkplugMetric> metrics = new ArrayList<>();
    private SparkplugMetric labelMetric;
    private String labelTopic;
    private List<String> labelNames = List.of();
    private double sampleRateHz = Double.NaN;
    private MissingValuePolicy missing = MissingValuePolicy.CARRY_FORWARD;
    private boolean arrivalTime;
    private boolean requestRebirth;
    private Duration rebirthInterval = Duration.ofSeconds(10);
    private int maxPayloadBytes = 1 << 20;
    private int maxBirthMetrics = 10_000;
    private int queueCapacity = 4096;
    ArrivalClock clock;

    private Builder(BrokerSettings broker, String group, String edgeNode) {
      this.broker = Objects.requireNonNull(broker, "broker");
      this.group = SparkplugTopic.checkId("group id", group);
      this.edgeNode = SparkplugTopic.checkId("edge node id", edgeNode);
    }

    /** Adds a channel; channels keep the order they are added in. */
    public Builder metric(SparkplugMetric m) {
      metrics.add(Objects.requireNonNull(m, "metric"));
      return this;
    }

    /**
     * Labels from metric {@code metric} of device {@code device} (null: of the edge node): an integer
     * class ≥ 0, -1 or null for none, or one of {@code classNames}. Replaces a label topic.
     */
    public Builder labelMetric(String device, String metric, String... classNames) {
      this.labelMetric = new SparkplugMetric(Channel.of("label"), device, metric, 1, 0);
      this.labelNames = new ClassLabels(List.of(classNames)).names();
      this.labelTopic = null;
      return this;
    }

    /**
     * Labels from the plain MQTT topic {@code topic} (no wildcards, outside {@code spBv1.0/}): each
     * message's payload is UTF-8 text, a class index ≥ 0, -1 or empty for none, or one of
     * {@code classNames}; it labels the samples after it. Replaces a label metric.
     */
    public Builder labelTopic(String topic, String... classNames) {
      Objects.requireNonNull(topic, "topic");
      try {
        MqttTopic.validate(topic, false);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("bad label topic " + ThrottledLog.printable(topic, 80) + ": "
            + e.getMessage(), e);
      }
      if (topic.startsWith(SparkplugTopic.NAMESPACE + "/")) {
        throw new IllegalArgumentException("the label topic must be outside the Sparkplug namespace: " + topic);
      }
      this.labelTopic = topic;
      this.labelNames = new ClassLabels(List.of(classNames)).names();
      this.labelMetric = null;
      return this;
    }

    /** The nominal sample rate: how often the gateway publishes data (required). */
    public Builder sampleRateHz(double hz) {
      if (!(hz > 0) || hz > 1e9) {
        throw new IllegalArgumentException("nominal sample rate must be > 0 and ≤ 1e9 Hz, got " + hz);
      }
      this.sampleRateHz = hz;
      return this;
    }

    /** What a channel without a value in a message becomes (default {@link MissingValuePolicy#CARRY_FORWARD}). */
    public Builder missingValues(MissingValuePolicy policy) {
      this.missing = Objects.requireNonNull(policy, "policy");
      return this;
    }

    /** Stamp samples with their arrival time instead of the payload timestamp. */
    public Builder arrivalTime() {
      this.arrivalTime = true;
      return this;
    }

    /** Publish NCMD {@code Node Control/Rebirth} when the node's state is unknown (default off). */
    public Builder requestRebirth(boolean on) {
      this.requestRebirth = on;
      return this;
    }

    /** Least time between two rebirth requests (default 10 s). */
    public Builder rebirthInterval(Duration d) {
      Objects.requireNonNull(d, "interval");
      if (d.isNegative() || d.isZero() || d.toHours() > 24) {
        throw new IllegalArgumentException("rebirth interval must be > 0 and ≤ 24 h, got " + d);
      }
      this.rebirthInterval = d;
      return this;
    }

    /** Largest payload decoded, in bytes (default 1 MiB; 64 .. 256 MiB). */
    public Builder maxPayloadBytes(int max) {
      if (max < 64 || max > 256 * 1024 * 1024) {
        throw new IllegalArgumentException("payload limit must be 64 B .. 256 MiB, got " + max);
      }
      this.maxPayloadBytes = max;
      return this;
    }

    /** Most metrics a birth may define (default 10,000; 1 .. 1,000,000). */
    public Builder maxBirthMetrics(int max) {
      if (max < 1 || max > 1_000_000) {
        throw new IllegalArgumentException("birth metric limit must be 1 .. 1,000,000, got " + max);
      }
      this.maxBirthMetrics = max;
      return this;
    }

    /** Samples buffered for {@code next()} before the oldest is dropped (default 4096; 1 .. 1,000,000). */
    public Builder queueCapacity(int capacity) {
      if (capacity < 1 || capacity > 1_000_000) {
        throw new IllegalArgumentException("queue capacity must be 1 .. 1,000,000, got " + capacity);
      }
      this.queueCapacity = capacity;
      return this;
    }

    /** The topic filters the source subscribes to. */
    List<String> filters() {
      String base = SparkplugTopic.NAMESPACE + "/" + group + "/";
      List<String> f = new ArrayList<>(List.of(base + "NBIRTH/" + edgeNode, base + "NDEATH/" + edgeNode,
          base + "NDATA/" + edgeNode, base + "DBIRTH/" + edgeNode + "/+", base + "DDEATH/" + edgeNode + "/+",
          base + "DDATA/" + edgeNode + "/+"));
      if (labelTopic != null) {
        f.add(labelTopic);
      }
      return f;
    }

    /** Checks the configuration without connecting. */
    SparkplugSignalSource build() {
      if (metrics.isEmpty()) {
        throw new IllegalStateException("no channels: add at least one with metric(...)");
      }
      if (Double.isNaN(sampleRateHz)) {
        throw new IllegalStateException("the nominal sample rate is required: sampleRateHz(...)");
      }
      List<Channel> channels = new ArrayList<>();
      for (SparkplugMetric m : metrics) {
        channels.add(m.channel());
      }
      return new SparkplugSignalSource(this, channels, clock != null ? clock : new ArrivalClock());
    }

    /**
     * Connects, subscribes, requests a rebirth if configured, and returns the running source.
     *
     * @throws IOException with a one-line reason if the broker cannot be reached or refuses a subscription
     * @throws IllegalStateException if no metric or no sample rate was given
     */
    public SparkplugSignalSource open() throws IOException {
      SparkplugSignalSource s = build();
      try {
        s.start(broker, filters());
        s.session.start();
      } catch (IOException | RuntimeException e) {
        s.close();
        throw e;
      }
      return s;
    }
  }
}
