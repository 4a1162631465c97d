package io.hdfl.federation;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
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

  /**
   * Reads a report as {@link #toJson} writes it, with Jackson's streaming parser (the recorder reads
   * one per hop): every double back to the bit, a null energy as NaN, unknown keys skipped, a missing
   * number as 0 and a missing text as null (as the data binding the recorder used before read them).
   *
   * @throws IOException if it is not a JSON object of these keys with values of their types
   */
  public static RoundReport fromJson(byte[] json) throws IOException {
    String peer = null;
    String energySource = null;
    int round = 0;
    long step = 0;
    long bytesSent = 0;
    long bytesReceived = 0;
    long samplesNew = 0;
    double wall = 0;
    double cpu = 0;
    double energy = Double.NaN;
    double required = 0;
    double present = 0;
    double added = 0;
    try (JsonParser p = JSON.createParser(json)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw new JsonParseException(p, "a round report is a JSON object");
      }
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String key = p.currentName();
        JsonToken v = p.nextToken();
        switch (key) {
          case "peer" -> peer = text(p, v);
          case "round" -> round = Math.toIntExact(integer(p, v));
          case "step" -> step = integer(p, v);
          case "wall_s" -> wall = number(p, v);
          case "cpu_s" -> cpu = number(p, v);
          case "energy_j" -> energy = v == JsonToken.VALUE_NULL ? Double.NaN : number(p, v);
          case "energy_source" -> energySource = text(p, v);
          case "bytes_sent" -> bytesSent = integer(p, v);
          case "bytes_received" -> bytesReceived = integer(p, v);
          case "samples_new" -> samplesNew = integer(p, v);
          case "variance_required" -> required = number(p, v);
          case "variance_present" -> present = number(p, v);
          case "variance_added" -> added = number(p, v);
          default -> p.skipChildren();
        }
      }
      if (p.currentToken() != JsonToken.END_OBJECT || p.nextToken() != null) {
        throw new JsonParseException(p, "a round report is one JSON object");
      }
    } catch (ArithmeticException e) {
      throw new IOException("a round number out of range", e);
    }
    return new RoundReport(peer, round, step, wall, cpu, energy, energySource, bytesSent, bytesReceived, samplesNew,
        required, present, added);
  }

  private static String text(JsonParser p, JsonToken v) throws IOException {
    if (v == JsonToken.VALUE_NULL) {
      return null;
    }
    if (v != JsonToken.VALUE_STRING) {
      throw new JsonParseException(p, "'" + p.currentName() + "' is not a string");
    }
    return p.getText();
  }

  private static long integer(JsonParser p, JsonToken v) throws IOException {
    if (v != JsonToken.VALUE_NUMBER_INT) {
      throw new JsonParseException(p, "'" + p.currentName() + "' is not an integer");
    }
    return p.getLongValue();
  }

  private static double number(JsonParser p, JsonToken v) throws IOException {
    if (v != JsonToken.VALUE_NUMBER_INT && v != JsonToken.VALUE_NUMBER_FLOAT) {
      throw new JsonParseException(p, "'" + p.currentName() + "' is not a number");
    }
    return p.getDoubleValue();
  }
}
