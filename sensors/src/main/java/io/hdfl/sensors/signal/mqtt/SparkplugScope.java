package io.hdfl.sensors.signal.mqtt;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.eclipse.tahu.message.model.Metric;
import org.eclipse.tahu.message.model.MetricDataType;
import org.eclipse.tahu.model.MetricDataTypeMap;

/**
 * The edge node itself or one configured device, as a {@link SparkplugSession} tracks it: which
 * channels its metrics feed (fixed by the configuration) and what its last birth defined (aliases and
 * datatypes, which data messages may rely on). Only configured publishers get a scope, so the state
 * kept is bounded by the configuration and {@code maxBirthMetrics}.
 */
final class SparkplugScope {

  /** The channel index that stands for "the label metric". */
  static final int LABEL = -1;

  /** The device id, or null for the node. */
  final String device;
  /** Configured metric name → channel index (or {@link #LABEL}). */
  final Map<String, Integer> byName = new LinkedHashMap<>();
  /** The channel indices of this scope's metrics. */
  final List<Integer> channels = new ArrayList<>();
  boolean born;
  /** From the last birth: alias → channel index, for the configured metrics that have an alias. */
  Map<Long, Integer> byAlias = Map.of();
  /** From the last birth: every alias it defined. */
  Set<Long> aliases = Set.of();
  /** From the last birth: datatypes by name and alias, for data messages that leave them out. */
  MetricDataTypeMap types;

  SparkplugScope(String device) {
    this.device = device;
  }

  String describe(String group, String edge) {
    return device == null ? "edge node " + group + "/" + edge : "device " + group + "/" + edge + "/" + device;
  }

  /**
   * Takes the aliases and datatypes of a birth certificate. Metrics the decoder could not type are
   * skipped (counted as unknown); the birth is rejected (nothing changes) if it has more than
   * {@code maxMetrics} metrics, a metric without a name, or an alias used twice.
   */
  void define(List<Metric> metrics, int maxMetrics, IngestCounters counters) throws MalformedPayloadException {
    if (metrics.size() > maxMetrics) {
      throw new MalformedPayloadException(metrics.size() + " metrics, more than the limit of " + maxMetrics
          + " (maxBirthMetrics)");
    }
    Map<Long, Integer> newByAlias = new HashMap<>();
    Set<Long> newAliases = new HashSet<>();
    MetricDataTypeMap newTypes = new MetricDataTypeMap();
    for (Metric m : metrics) {
      if (m == null || m.getDataType() == null || m.getDataType() == MetricDataType.Unknown) {
        counters.unknownMetrics.incrementAndGet();
        continue;   // unusable, but the rest of the birth is fine
      }
      if (!m.hasName()) {
        throw new MalformedPayloadException("a birth metric without a name (alias " + m.getAlias() + ")");
      }
      newTypes.addMetricDataType(m.getName(), m.getDataType());
      if (m.hasAlias()) {
        Long alias = m.getAlias();
        if (!newAliases.add(alias)) {
          throw new MalformedPayloadException("alias " + alias + " is used by two metrics");
        }
        newTypes.addMetricDataType(alias, m.getDataType());
        Integer c = byName.get(m.getName());
        if (c != null) {
          newByAlias.put(alias, c);
        }
      }
    }
    byAlias = newByAlias;
    aliases = newAliases;
    types = newTypes;
  }

  /** The configured metric names the last birth did not define. */
  List<String> undefined() {
    List<String> missing = new ArrayList<>();
    for (String name : byName.keySet()) {
      if (types == null || types.getMetricDataType(name) == null) {
        missing.add(name);
      }
    }
    return missing;
  }
}
