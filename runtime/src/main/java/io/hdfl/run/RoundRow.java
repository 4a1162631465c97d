package io.hdfl.run;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One line of {@code rounds.jsonl}: the model after round {@code round} evaluated on the test set,
 * and what the round cost across all peers.
 *
 * @param energySource e.g. {@code MEASURED rapl:package-0} or {@code ESTIMATED cpu-time x86-server-core}
 */
public record RoundRow(
    int round,
    double accuracy,
    double macroF1,
    double wallSeconds,
    double cpuSeconds,
    double energyJoules,
    String energySource,
    long bytesSent,
    long bytesReceived,
    double varianceRequired,
    double variancePresent,
    double varianceAdded) {

  public Map<String, Object> toJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("round", round);
    m.put("accuracy", finite(accuracy));
    m.put("macro_f1", finite(macroF1));
    m.put("wall_s", wallSeconds);
    m.put("cpu_s", cpuSeconds);
    m.put("energy_j", finite(energyJoules));
    m.put("energy_source", energySource);
    m.put("bytes_sent", bytesSent);
    m.put("bytes_received", bytesReceived);
    m.put("variance_required", varianceRequired);
    m.put("variance_present", variancePresent);
    m.put("variance_added", varianceAdded);
    return m;
  }

  private static Double finite(double v) {
    return Double.isFinite(v) ? v : null;
  }
}
