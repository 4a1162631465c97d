package io.hdfl.federation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RoundReportTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static RoundReport report(double energy) {
    return new RoundReport("peer-007", 3, 207, 0.0123456789, 1e-3 / 3, energy, "MEASURED rapl:package-0",
        81_920L, 1L << 40, 600, 72531.99468600233, 0.1 + 0.2, Double.MIN_VALUE);
  }

  @Test
  void theJsonHasEveryKeyInOrderWithExactValues() throws Exception {
    JsonNode n = JSON.readTree(report(12.5).toJson());
    List<String> keys = new ArrayList<>();
    n.fieldNames().forEachRemaining(keys::add);
    assertEquals(List.of("peer", "round", "step", "wall_s", "cpu_s", "energy_j", "energy_source", "bytes_sent",
        "bytes_received", "samples_new", "variance_required", "variance_present", "variance_added"), keys);
    assertEquals("peer-007", n.get("peer").asText());
    assertEquals(207, n.get("step").asLong());
    assertEquals(1e-3 / 3, n.get("cpu_s").asDouble());
    assertEquals(12.5, n.get("energy_j").asDouble());
    assertEquals(1L << 40, n.get("bytes_received").asLong());
    assertEquals(0.1 + 0.2, n.get("variance_present").asDouble());
    assertEquals(Double.MIN_VALUE, n.get("variance_added").asDouble());
  }

  @Test
  void anUnmeasuredEnergyIsNullAndReadsBackAsNaN() throws Exception {
    RoundReport r = report(Double.NaN);
    assertTrue(JSON.readTree(r.toJson()).get("energy_j").isNull());
    RoundReport back = JSON.readValue(r.toJson(), Simulation.RoundReportJson.class).toReport();
    assertEquals(r, back); // records compare doubles with Double.compare: NaN equals NaN
  }

  @Test
  void theRecorderReadsBackExactlyWhatThePeerPublished() throws Exception {
    RoundReport r = report(0.30000000000000004);
    assertEquals(r, JSON.readValue(r.toJson(), Simulation.RoundReportJson.class).toReport());
  }
}
