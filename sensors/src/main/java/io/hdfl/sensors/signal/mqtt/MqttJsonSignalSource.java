package io.hdfl.sensors.signal.mqtt;

import io.hdfl.sensors.signal.Channel;
import io.hdfl.sensors.signal.Sample;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.eclipse.paho.client.mqttv3.MqttTopic;

/**
 * Samples from JSON messages on an MQTT topic filter: each message becomes one {@link Sample} through a
 * field mapping declared up front, so every sample has the same channels in the same order.
 *
 * <pre>{@code
 * // {"ts": 1714558530250, "spindle": {"load": 41.5, "rpm": 11980}, "x": {"current": 3.2}, "quality": "nominal"}
 * MqttJsonSignalSource source = MqttJsonSignalSource.builder(BrokerSettings.of("tcp://broker:1883"), "plant1/mill-3/telemetry")
 *     .channel("spindle.load", "%", "/spindle/load")
 *     .channel(JsonChannel.of("spindle.speed", "1/s", "/spindle/rpm").scaled(1 / 60.0, 0))
 *     .channel("x.current", "A", "/x/current")
 *     .timestamp("/ts", TimestampFormat.EPOCH_MILLIS)
 *     .label("/quality", "nominal", "under", "over")
 *     .sampleRateHz(50)
 *     .open();
 * }</pre>
 *
 * <ul>
 *   <li><b>Values</b>: a JSON number, a boolean (1/0) or a string holding a decimal number, then
 *       {@code × scale + offset}, as float. A field that is absent, null or not numeric has no value and
 *       the {@link MissingValuePolicy} decides (default {@link MissingValuePolicy#NAN}).
 *   <li><b>Timestamps</b>: from a field ({@link TimestampFormat}: epoch s/ms/µs/ns or ISO-8601), or by
 *       default the arrival time (monotonic clock anchored to the wall clock at open). A message whose
 *       timestamp field is missing or unreadable is malformed; a sample stamped before its predecessor
 *       is dropped (timestamps never go backwards); both are counted.
 *   <li><b>Labels</b> (optional): a field holding a class index ≥ 0, -1 or null for none, or one of the
 *       configured class names. A label that is none of these makes the message malformed.
 *   <li><b>Untrusted input</b>: messages over {@link Builder#maxPayloadBytes} (default 64 KiB) are skipped
 *       before parsing; the parser is bounded (nesting depth 64, 64-digit numbers, duplicate keys
 *       rejected); every skipped message is counted in {@link #stats()} and its reason logged (throttled).
 *       Note that Paho reads a whole MQTT packet into memory before this check: bound what reaches the
 *       client with the broker's own limit (Mosquitto {@code max_packet_size} / {@code message_size_limit}).
 *   <li><b>Backpressure</b>: a bounded queue ({@link Builder#queueCapacity}, default 4096 samples) between
 *       Paho's callback thread and {@link #next()}; when full, the <b>oldest</b> sample is dropped and
 *       counted in {@link IngestStats#overflowed()}, so a slow consumer sees the newest data and the MQTT
 *       connection never stalls.
 * </ul>
 * One source should listen to one machine: messages from several publishers on one filter interleave
 * into one stream.
 */
public final class MqttJsonSignalSource extends BrokerSignalSource {

  private final JsonSampleDecoder decoder;
  private final SampleAssembler assembler;

  private MqttJsonSignalSource(Builder b, List<Channel> channels, ArrivalClock clock) {
    super("mqtt-json " + b.topicFilter, channels, b.sampleRateHz, b.maxPayloadBytes, b.queueCapacity, clock);
    this.decoder = new JsonSampleDecoder(b.channels, b.timestampField, b.timestampFormat, b.labelField,
        new ClassLabels(b.labelNames), b.maxPayloadBytes);
    this.assembler = new SampleAssembler(channels.size(), b.missing, counters);
  }

  public static Builder builder(BrokerSettings broker, String topicFilter) {
    return new Builder(broker, topicFilter);
  }

  /** Counters since open: messages, samples, skipped and dropped. */
  public IngestStats stats() {
    return counters.ingest(queued());
  }

  @Override
  void onMessage(String topic, byte[] payload) {
    JsonSampleDecoder.Reading r;
    try {
      r = decoder.decode(payload, clock.nowNanos());
    } catch (MalformedPayloadException e) {
      counters.malformed.incrementAndGet();
      log.warn("skipped a message on " + ThrottledLog.printable(topic, 200) + ": " + e.getMessage());
      return;
    }
    if (r.problem() != null) {
      log.warn("message on " + ThrottledLog.printable(topic, 200) + ": " + r.problem()
          + "; handled as a missing value");
    }
    Sample s = assembler.assemble(r.timestampNanos(), r.values(), r.present(), r.label());
    if (s != null) {
      deliver(s);
    }
  }

  /** Options of an {@link MqttJsonSignalSource}; channels and the sample rate are required. */
  public static final class Builder {
    private final BrokerSettings broker;
    private final String topicFilter;
    private final List<JsonChannel> channels = new ArrayList<>();
    private String timestampField;
    private TimestampFormat timestampFormat = TimestampFormat.EPOCH_MILLIS;
    private String labelField;
    private List<String> labelNames = List.of();
    private double sampleRateHz = Double.NaN;
    private MissingValuePolicy missing = MissingValuePolicy.NAN;
    private int maxPayloadBytes = 64 * 1024;
    private int queueCapacity = 4096;
    ArrivalClock clock;

    private Builder(BrokerSettings broker, String topicFilter) {
      this.broker = Objects.requireNonNull(broker, "broker");
      Objects.requireNonNull(topicFilter, "topicFilter");
      try {
        MqttTopic.validate(topicFilter, true);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("bad MQTT topic filter " + ThrottledLog.printable(topicFilter, 80)
            + ": " + e.getMessage(), e);
      }
      this.topicFilter = topicFilter;
    }

    /** Adds channel {@code name[unit]} read from {@code pointer} (e.g. {@code /spindle/load}). */
    public Builder channel(String name, String unit, String pointer) {
      return channel(JsonChannel.of(name, unit, pointer));
    }

    /** Adds a channel mapping (with scale and offset); channels keep the order they are added in. */
    public Builder channel(JsonChannel mapping) {
      channels.add(Objects.requireNonNull(mapping, "mapping"));
      return this;
    }

    /** Timestamps from the field at {@code pointer} in {@code format} (default: arrival time). */
    public Builder timestamp(String pointer, TimestampFormat format) {
      JsonChannel.compile(Objects.requireNonNull(pointer, "pointer"));
      this.timestampField = pointer;
      this.timestampFormat = Objects.requireNonNull(format, "format");
      return this;
    }

    /** Timestamps are the arrival time (the default). */
    public Builder arrivalTime() {
      this.timestampField = null;
      return this;
    }

    /**
     * Labels from the field at {@code pointer}: an integer class ≥ 0, -1/null/absent for none, or one
     * of {@code classNames} (the label is its index).
     */
    public Builder label(String pointer, String... classNames) {
      JsonChannel.compile(Objects.requireNonNull(pointer, "pointer"));
      this.labelNames = new ClassLabels(List.of(classNames)).names();
      this.labelField = pointer;
      return this;
    }

    /** The nominal sample rate: how often the publisher sends (required; windowing detects gaps by it). */
    public Builder sampleRateHz(double hz) {
      if (!(hz > 0) || hz > 1e9) {
        throw new IllegalArgumentException("nominal sample rate must be > 0 and ≤ 1e9 Hz, got " + hz);
      }
      this.sampleRateHz = hz;
      return this;
    }

    /** What a channel without a value becomes (default {@link MissingValuePolicy#NAN}). */
    public Builder missingValues(MissingValuePolicy policy) {
      this.missing = Objects.requireNonNull(policy, "policy");
      return this;
    }

    /** Largest payload parsed, in bytes (default 65,536; 64 .. 256 MiB). */
    public Builder maxPayloadBytes(int max) {
      if (max < 64 || max > 256 * 1024 * 1024) {
        throw new IllegalArgumentException("payload limit must be 64 B .. 256 MiB, got " + max);
      }
      this.maxPayloadBytes = max;
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

    /** Checks the mapping without connecting (what {@link #open} does first). */
    MqttJsonSignalSource build() {
      if (channels.isEmpty()) {
        throw new IllegalStateException("no channels: add at least one with channel(...)");
      }
      if (Double.isNaN(sampleRateHz)) {
        throw new IllegalStateException("the nominal sample rate is required: sampleRateHz(...)");
      }
      List<Channel> list = new ArrayList<>();
      for (JsonChannel m : channels) {
        list.add(m.channel());
      }
      return new MqttJsonSignalSource(this, list, clock != null ? clock : new ArrivalClock());
    }

    /**
     * Connects, subscribes and returns the running source.
     *
     * @throws IOException with a one-line reason if the broker cannot be reached or refuses the subscription
     * @throws IllegalStateException if no channel or no sample rate was given
     */
    public MqttJsonSignalSource open() throws IOException {
      MqttJsonSignalSource s = build();
      try {
        s.start(broker, List.of(topicFilter));
      } catch (IOException | RuntimeException e) {
        s.close();
        throw e;
      }
      return s;
    }
  }
}
