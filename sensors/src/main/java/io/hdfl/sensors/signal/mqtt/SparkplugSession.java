package io.hdfl.sensors.signal.mqtt;

import io.hdfl.sensors.signal.Sample;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.eclipse.tahu.message.model.Metric;
import org.eclipse.tahu.message.model.SparkplugBPayload;

/**
 * The host-side state of one Sparkplug B edge node and its configured devices, fed message by message
 * (no MQTT here, so it is tested without a broker). All methods run under the session's lock: Paho
 * calls them from its threads.
 *
 * <p>States of the node: UNKNOWN (no birth yet, or after a sequence gap or a lost connection: data is
 * discarded until an NBIRTH), ALIVE (born; data in sequence), DEAD (an NDEATH with the birth's bdSeq:
 * stale until the next NBIRTH). A device is born by its DBIRTH while the node is ALIVE and dies by its
 * DDEATH or with the node. Whenever the node or a device stops being alive, the last values of its
 * channels are forgotten, so {@link MissingValuePolicy#CARRY_FORWARD} never carries stale values.
 */
final class SparkplugSession {

  /** Publishes an NCMD {@code Node Control/Rebirth} to the edge node. */
  interface RebirthRequest {
    void send();
  }

  private enum NodeState { UNKNOWN, ALIVE, DEAD }

  static {
    // Tahu logs every metric it cannot type at ERROR, with the whole untrusted metric in the line; this
    // session counts and reports those itself (unknownMetrics, malformed), so Tahu stays quiet unless
    // the user configured its logger (slf4j-simple reads this property per logger).
    System.getProperties().putIfAbsent("org.slf4j.simpleLogger.log.org.eclipse.tahu", "off");
  }

  private static final int LABEL = SparkplugScope.LABEL;

  private final String group;
  private final String edge;
  private final SparkplugScope node = new SparkplugScope(null);
  private final Map<String, SparkplugScope> devices = new HashMap<>();
  private final double[] scale;
  private final double[] offset;
  private final String[] channelNames;
  private final SparkplugScope labelScope;
  private final ClassLabels labels;
  private final SampleAssembler assembler;
  private final boolean arrivalTime;
  private final int maxBirthMetrics;
  private final IngestCounters counters;
  private final ThrottledLog log;
  private final ArrivalClock clock;
  private final Consumer<Sample> out;
  private final RebirthRequest rebirth;
  private final long rebirthIntervalNanos;
  private final SparkplugPayloadReader reader = new SparkplugPayloadReader();

  private NodeState state = NodeState.UNKNOWN;
  private long bdSeq = -1;
  private int lastSeq;
  private int label = Sample.NO_LABEL;
  private boolean rebirthRequested;
  private long lastRebirthNanos;
  private boolean waitingLogged;
  private volatile boolean stale = true;
  private volatile String stateText = "waiting for the first NBIRTH";

  /**
   * @param labelMetric the label metric (its channel is ignored), or null when labels come from a topic or not at all
   * @param rebirth how to request a rebirth, or null to only wait for one
   */
  SparkplugSession(String group, String edge, List<SparkplugMetric> metrics, SparkplugMetric labelMetric,
      ClassLabels labels, MissingValuePolicy policy, boolean arrivalTime, int maxBirthMetrics,
      IngestCounters counters, ThrottledLog log, ArrivalClock clock, Consumer<Sample> out, RebirthRequest rebirth,
      long rebirthIntervalNanos) {
    this.group = group;
    this.edge = edge;
    this.scale = new double[metrics.size()];
    this.offset = new double[metrics.size()];
    this.channelNames = new String[metrics.size()];
    for (int c = 0; c < metrics.size(); c++) {
      SparkplugMetric m = metrics.get(c);
      SparkplugScope s = scope(m.device());
      if (s.byName.putIfAbsent(m.metric(), c) != null) {
        throw new IllegalArgumentException("metric '" + m.metric() + "' of "
            + (m.device() == null ? "the edge node" : "device " + m.device()) + " is mapped twice");
      }
      s.channels.add(c);
      scale[c] = m.scale();
      offset[c] = m.offset();
      channelNames[c] = m.channel().name();
    }
    if (labelMetric != null) {
      labelScope = scope(labelMetric.device());
      if (labelScope.byName.putIfAbsent(labelMetric.metric(), LABEL) != null) {
        throw new IllegalArgumentException("label metric '" + labelMetric.metric() + "' is also a channel");
      }
    } else {
      labelScope = null;
    }
    this.labels = labels;
    this.assembler = new SampleAssembler(metrics.size(), policy, counters);
    this.arrivalTime = arrivalTime;
    this.maxBirthMetrics = maxBirthMetrics;
    this.counters = counters;
    this.log = log;
    this.clock = clock;
    this.out = out;
    this.rebirth = rebirth;
    this.rebirthIntervalNanos = rebirthIntervalNanos;
  }

  private SparkplugScope scope(String device) {
    return device == null ? node : devices.computeIfAbsent(device, SparkplugScope::new);
  }

  /** The configured devices (those with a channel or the label metric). */
  Set<String> devices() {
    return devices.keySet();
  }

  /** True unless the node and every configured device are alive (born and not dead, no gap since). */
  boolean isStale() {
    return stale;
  }

  /** One line: the node's state and which devices are born. */
  String stateText() {
    return stateText;
  }

  /** At start: asks for a rebirth (if requests are on), since births are not retained by brokers. */
  synchronized void start() {
    needRebirth("starting (births are not retained, so the current metric definitions are unknown)");
  }

  /** Handles one message of the edge node (any topic under its namespace). */
  synchronized void onMessage(String topic, byte[] payload) {
    SparkplugTopic t;
    try {
      t = SparkplugTopic.parse(topic);
    } catch (MalformedPayloadException e) {
      counters.malformed.incrementAndGet();
      log.warn("skipped a message: " + e.getMessage());
      return;
    }
    if (!t.group().equals(group) || !t.edgeNode().equals(edge)) {
      return;
    }
    try {
      switch (t.type()) {
        case NBIRTH -> nodeBirth(t, payload);
        case NDEATH -> nodeDeath(t, payload);
        case NDATA, DBIRTH, DDATA, DDEATH -> sequenced(t, payload);
        default -> {
          // commands, records and STATE are not for a consumer of data
        }
      }
    } catch (MalformedPayloadException e) {
      counters.malformed.incrementAndGet();
      log.warn("skipped " + t.type() + " on " + ThrottledLog.printable(topic, 200) + ": " + e.getMessage());
    } finally {
      updateState();
    }
  }

  /** A message on the label topic: UTF-8 text, a class index, -1 or empty for none, or a class name. */
  synchronized void onLabelText(byte[] payload) {
    String text;
    try {
      text = payload.length > ClassLabels.MAX_TEXT ? null : StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(payload)).toString();
    } catch (CharacterCodingException e) {
      text = null;
    }
    int l = text == null ? ClassLabels.INVALID : labels.fromText(text);
    if (l == ClassLabels.INVALID) {
      badLabel(text == null ? "on the label topic (" + payload.length + " bytes) is not short UTF-8 text, so it"
          : ThrottledLog.printable(text, 40));
    } else {
      label = l;
    }
  }

  /** The connection to the broker dropped: whatever the node published meanwhile is lost. */
  synchronized void onConnectionLost() {
    if (state == NodeState.ALIVE) {
      log.info("edge node " + group + "/" + edge + " is stale until its next NBIRTH: messages may be missed"
          + " while reconnecting");
      state = NodeState.UNKNOWN;
    }
    unbornAll();
    updateState();
  }

  synchronized void onReconnected() {
    needRebirth("reconnected to the broker");
  }

  private void nodeBirth(SparkplugTopic t, byte[] payload) throws MalformedPayloadException {
    SparkplugBPayload p = reader.decode(payload, null);
    int seq = SparkplugPayloadReader.seq(p, "NBIRTH");
    Long bd = SparkplugPayloadReader.bdSeq(p);
    if (bd == null) {
      throw new MalformedPayloadException("no bdSeq metric (an NBIRTH must carry one to pair it with its NDEATH)");
    }
    if (state == NodeState.ALIVE) {
      log.info("edge node " + group + "/" + edge + " was born again (NBIRTH bdSeq " + bd + ")");
    }
    state = NodeState.UNKNOWN;
    unbornAll();
    node.define(p.getMetrics(), maxBirthMetrics, counters);
    state = NodeState.ALIVE;
    bdSeq = bd;
    lastSeq = seq;
    node.born = true;
    waitingLogged = false;
    counters.births.incrementAndGet();
    seed(node, p);
    log.info("edge node " + group + "/" + edge + " born (NBIRTH bdSeq " + bd + ", seq " + seq + ", "
        + p.getMetrics().size() + " metrics)" + missingNote(node));
  }

  private void nodeDeath(SparkplugTopic t, byte[] payload) throws MalformedPayloadException {
    SparkplugBPayload p = reader.decode(payload, null);
    Long bd = SparkplugPayloadReader.bdSeq(p);
    if (bd == null) {
      throw new MalformedPayloadException("no bdSeq metric, so it cannot be matched to a birth");
    }
    if (state == NodeState.DEAD || bdSeq < 0 || bd != bdSeq) {
      counters.staleDeaths.incrementAndGet();
      log.warn("ignored NDEATH with bdSeq " + bd + ": the current birth's bdSeq is "
          + (bdSeq < 0 ? "unknown" : bdSeq) + (state == NodeState.DEAD ? " and the node is already dead" : "")
          + " (a late will of an earlier session)");
      return;
    }
    state = NodeState.DEAD;
    unbornAll();
    counters.deaths.incrementAndGet();
    log.info("edge node " + group + "/" + edge + " died (NDEATH bdSeq " + bd
        + "); its channels are stale until the next NBIRTH");
  }

  private void sequenced(SparkplugTopic t, byte[] payload) throws MalformedPayloadException {
    if (state != NodeState.ALIVE) {
      counters.awaitingBirth.incrementAndGet();
      needRebirth(t.type() + " while the edge node is " + (state == NodeState.DEAD ? "dead" : "not born"));
      return;
    }
    SparkplugScope scope = t.device() == null ? node : devices.get(t.device());
    SparkplugBPayload p = reader.decode(payload, scope == null ? null : scope.types);
    int seq = SparkplugPayloadReader.seq(p, t.type().name());
    int expected = (lastSeq + 1) & 0xFF;
    if (seq != expected) {
      counters.sequenceGaps.incrementAndGet();
      log.warn("sequence gap: " + t.type() + (t.device() == null ? "" : " of " + ThrottledLog.printable(t.device(), 60))
          + " has seq " + seq + ", expected " + expected + " (messages were lost); discarding the edge node's"
          + " data until its next NBIRTH");
      state = NodeState.UNKNOWN;
      unbornAll();
      needRebirth("sequence gap (seq " + seq + ", expected " + expected + ")");
      return;
    }
    lastSeq = seq;
    if (scope == null) {
      return;   // a device this source does not read; its messages still count for the sequence
    }
    switch (t.type()) {
      case DBIRTH -> {
        unborn(scope);
        scope.define(p.getMetrics(), maxBirthMetrics, counters);
        scope.born = true;
        counters.births.incrementAndGet();
        seed(scope, p);
        log.info(scope.describe(group, edge) + " born (DBIRTH, " + p.getMetrics().size() + " metrics)"
            + missingNote(scope));
      }
      case DDEATH -> {
        if (scope.born) {
          unborn(scope);
          counters.deaths.incrementAndGet();
          log.info(scope.describe(group, edge) + " died (DDEATH); its channels are stale until its next DBIRTH");
        }
      }
      default -> data(scope, p, t);
    }
  }

  private void data(SparkplugScope scope, SparkplugBPayload p, SparkplugTopic t) throws MalformedPayloadException {
    if (!scope.born) {
      counters.awaitingBirth.incrementAndGet();
      needRebirth(t.type() + " of " + scope.describe(group, edge) + " before its DBIRTH");
      return;
    }
    float[] values = new float[scale.length];
    boolean[] present = new boolean[scale.length];
    if (collect(scope, p.getMetrics(), values, present) == 0) {
      return;   // nothing this source reads (or only the label)
    }
    long ts;
    if (arrivalTime) {
      ts = clock.nowNanos();
    } else {
      Date d = p.getTimestamp();
      if (d == null) {
        assembler.remember(values, present);
        throw new MalformedPayloadException("no payload timestamp (required in Sparkplug data messages), so no"
            + " sample; its values are kept for carrying forward");
      }
      try {
        ts = Math.multiplyExact(d.getTime(), 1_000_000L);
      } catch (ArithmeticException e) {
        throw new MalformedPayloadException("payload timestamp " + d.getTime() + " ms is outside 1677..2262");
      }
    }
    Sample s = assembler.assemble(ts, values, present, label);
    if (s != null) {
      out.accept(s);
    }
  }

  /** Takes a birth's current values as the channels' last values (no sample: births define, data samples). */
  private void seed(SparkplugScope scope, SparkplugBPayload p) {
    float[] values = new float[scale.length];
    boolean[] present = new boolean[scale.length];
    collect(scope, p.getMetrics(), values, present);
    assembler.remember(values, present);
  }

  /** Puts the values of the scope's mapped metrics into {@code values}; returns how many channels got one. */
  private int collect(SparkplugScope scope, Collection<Metric> metrics, float[] values, boolean[] present) {
    int found = 0;
    for (Metric m : metrics) {
      if (m == null) {
        counters.unknownMetrics.incrementAndGet();
        continue;
      }
      if (Boolean.TRUE.equals(m.getIsHistorical())) {
        continue;   // a stored past value, for historians: not the machine's current state
      }
      Integer c;
      if (m.hasName()) {
        c = scope.byName.get(m.getName());
      } else if (m.hasAlias()) {
        if (!scope.aliases.contains(m.getAlias())) {
          counters.unknownMetrics.incrementAndGet();
          log.warn("alias " + m.getAlias() + " in a message of " + scope.describe(group, edge)
              + " was not defined by its birth; ignored");
          continue;
        }
        c = scope.byAlias.get(m.getAlias());
      } else {
        counters.unknownMetrics.incrementAndGet();
        continue;
      }
      if (c == null) {
        continue;
      }
      if (c == LABEL) {
        metricLabel(m);
        continue;
      }
      Object v = m.getValue();
      if (v == null) {
        assembler.forget(c);   // an explicit null: the value is unknown now, so nothing is carried
        present[c] = false;
        continue;
      }
      double raw;
      if (v instanceof Boolean b) {
        raw = b ? 1 : 0;
      } else if (v instanceof Number n) {
        raw = n.doubleValue();
      } else {
        log.warn("metric '" + ThrottledLog.printable(m.getName(), 100) + "' (channel " + channelNames[c] + ") of "
            + scope.describe(group, edge) + " has a " + m.getDataType() + " value, not a number; handled as missing");
        continue;
      }
      values[c] = (float) (raw * scale[c] + offset[c]);
      if (!present[c]) {
        present[c] = true;
        found++;
      }
    }
    return found;
  }

  private void metricLabel(Metric m) {
    Object v = m.getValue();
    int l;
    if (v == null) {
      l = Sample.NO_LABEL;
    } else if (v instanceof Number n) {
      l = labels.fromNumber(n.doubleValue());
    } else if (v instanceof String s) {
      l = labels.fromText(s);
    } else {
      l = ClassLabels.INVALID;
    }
    if (l == ClassLabels.INVALID) {
      badLabel(v instanceof String s ? ThrottledLog.printable(s, 40) : String.valueOf(m.getDataType()) + " " + v);
    } else {
      label = l;
    }
  }

  private void badLabel(String what) {
    counters.badLabels.incrementAndGet();
    label = Sample.NO_LABEL;
    log.warn("label " + what + " is not a class index ≥ 0, -1" + (labels.names().isEmpty() ? "" : " or one of "
        + labels.names()) + "; samples are unlabelled until the next valid label");
  }

  private void unbornAll() {
    unborn(node);
    for (SparkplugScope s : devices.values()) {
      unborn(s);
    }
  }

  private void unborn(SparkplugScope s) {
    s.born = false;
    for (int c : s.channels) {
      assembler.forget(c);
    }
    if (s == labelScope) {
      label = Sample.NO_LABEL;
    }
  }

  private void needRebirth(String reason) {
    updateState();   // before anything leaves this process: whoever sees the request also sees the state
    if (rebirth == null) {
      if (!waitingLogged) {
        waitingLogged = true;
        log.info("waiting for the next NBIRTH of edge node " + group + "/" + edge + " (" + reason
            + "); rebirth requests are off");
      }
      return;
    }
    long now = clock.monotonicNanos();
    if (rebirthRequested && now - lastRebirthNanos < rebirthIntervalNanos) {
      return;
    }
    rebirthRequested = true;
    lastRebirthNanos = now;
    counters.rebirthRequests.incrementAndGet();
    log.info("requesting a rebirth of edge node " + group + "/" + edge + " (NCMD Node Control/Rebirth): " + reason);
    rebirth.send();
  }

  private void updateState() {
    boolean allBorn = state == NodeState.ALIVE;
    StringBuilder b = new StringBuilder("edge node ").append(group).append('/').append(edge).append(' ')
        .append(state == NodeState.ALIVE ? "alive" : state == NodeState.DEAD ? "dead" : "not born");
    for (SparkplugScope s : devices.values()) {
      allBorn &= s.born;
      b.append(", device ").append(s.device).append(s.born ? " alive" : " not born");
    }
    stale = !allBorn;
    stateText = b.toString();
  }

  private String missingNote(SparkplugScope scope) {
    List<String> missing = scope.undefined();
    if (missing.isEmpty()) {
      return "";
    }
    log.warn(scope.describe(group, edge) + "'s birth does not define the configured metrics " + missing
        + "; their channels stay without values");
    return "; " + missing.size() + " configured metrics missing";
  }
}
