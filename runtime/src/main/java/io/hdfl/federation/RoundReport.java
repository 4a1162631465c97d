package io.hdfl.federation;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

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
  /** Doubles by Schubfach (shortest round-trip text), not JDK 17's slower Double.toString. */
  private static final JsonFactory JSON =
      JsonFactory.builder().enable(com.fasterxml.jackson.core.StreamWriteFeature.USE_FAST_DOUBLE_WRITER).build();

  /** This report with the energy the device used for it. */
  public RoundReport withEnergy(double joules, String source) {
    return new RoundReport(peer, round, step, wallSeconds, cpuSeconds, joules, source, bytesSent, bytesReceived,
        samplesNew, required, present, added);
  }

  /**
   * The JSON object (key order fixed; a non-finite energy is {@code null}). Written field by field with
   * Jackson's streaming generator: one report per hop, and the data-binding path (a map, boxed
   * numbers, its serializers) cost each hop more and the JIT more to compile.
   */
  public byte[] toJson() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(512);
    try (JsonGenerator g = JSON.createGenerator(bytes)) {
      g.writeStartObject();
      g.writeStringField("peer", peer);
      g.writeNumberField("round", round);
      g.writeNumberField("step", step);
      g.writeNumberField("wall_s", wallSeconds);
      g.writeNumberField("cpu_s", cpuSeconds);
      if (Double.isFinite(energyJoules)) {
        g.writeNumberField("energy_j", energyJoules);
      } else {
        g.writeNullField("energy_j");
      }
      g.writeStringField("energy_source", energySource);
      g.writeNumberField("bytes_sent", bytesSent);
      g.writeNumberField("bytes_received", bytesReceived);
      g.writeNumberField("samples_new", samplesNew);
      g.writeNumberField("variance_required", required);
      g.writeNumberField("variance_present", present);
      g.writeNumberField("variance_added", added);
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e); // cannot happen: the generator writes to memory
    }
    return bytes.toByteArray();
  }
}
