package io.hdfl.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.PrintWriter;
import java.util.Map;

/** Prints one JSON object per command for scripts and benchmarks. */
final class JsonOutput {
  private static final ObjectMapper MAPPER = new ObjectMapper().disable(SerializationFeature.FAIL_ON_EMPTY_BEANS);

  private JsonOutput() {}

  static void print(PrintWriter out, Map<String, ?> object) {
    try {
      out.println(MAPPER.writeValueAsString(object));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot serialise output", e);
    }
  }

  /** NaN and infinities are not JSON: they become null. */
  static Double number(double v) {
    return Double.isFinite(v) ? v : null;
  }
}
