package io.hdfl.federation;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What one peer measured for one of its updates: time, CPU, energy (with its provenance), bytes, and
 * the noise decision. Published as JSON on {@code hdfl/F/metrics/<peer>}.
 */
public record RoundReport(
    String peer,
    int round,
    long step,
    double wallSeconds,
    double cpuSeconds,
    double energyJoules,
    String energySource,
    long bytesSent,
    long bytesReceived,
    long samplesNew,
    double required,
    double present,
    double added) {

  /** This report with the energy the device used for it. */
  public RoundReport withEnergy(double joules, String source) {
    return new RoundReport(peer, round, step, wallSeconds, cpuSeconds, joules, source, bytesSent, bytesReceived,
        samplesNew, required, present, added);
  }

  /** The JSON object (key order fixed). */
  public Map<String, Object> toJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("peer", peer);
    m.put("round", round);
    m.put("step", step);
    m.put("wall_s", wallSeconds);
    m.put("cpu_s", cpuSeconds);
    m.put("energy_j", Double.isFinite(energyJoules) ? energyJoules : null);
    m.put("energy_source", energySource);
    m.put("bytes_sent", bytesSent);
    m.put("bytes_received", bytesReceived);
    m.put("samples_new", samplesNew);
    m.put("variance_required", required);
    m.put("variance_present", present);
    m.put("variance_added", added);
    return m;
  }
}
