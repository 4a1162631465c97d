package io.hdfl.federation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
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
    RoundReport back = RoundReport.fromJson(r.toJson());
    assertEquals(r, back); // records compare doubles with Double.compare: NaN equals NaN
  }

  @Test
  void theRecorderReadsBackExactlyWhatThePeerPublished() throws Exception {
    RoundReport r = report(0.30000000000000004);
    assertEquals(r, RoundReport.fromJson(r.toJson()));
  }

  @Test
  void everyDoubleComesBackToTheBit() throws Exception {
    java.util.SplittableRandom rng = new java.util.SplittableRandom(7);
    for (int i = 0; i < 2000; i++) {
      double[] d = new double[6];
      for (int k = 0; k < d.length; k++) {
        d[k] = switch (rng.nextInt(4)) {
          case 0 -> Double.longBitsToDouble(rng.nextLong() & Long.MAX_VALUE); // any finite or not
          case 1 -> rng.nextDouble() * Math.pow(10, rng.nextInt(-300, 300));
          case 2 -> rng.nextInt(1_000_000);
          default -> Double.MIN_VALUE * rng.nextInt(1, 1000);
        };
        if (!Double.isFinite(d[k])) {
          d[k] = Double.MAX_VALUE;
        }
      }
      RoundReport r = new RoundReport("client-" + i, i, rng.nextLong(Long.MAX_VALUE), d[0], d[1], d[2], "ESTIMATED pi4",
          rng.nextLong(Long.MAX_VALUE), rng.nextLong(Long.MAX_VALUE), rng.nextInt(100_000), d[3], d[4], d[5]);
      assertEquals(r, RoundReport.fromJson(r.toJson()));
    }
  }

  @Test
  void unknownKeysAreSkippedAndMissingOnesDefault() throws Exception {
    RoundReport r = RoundReport.fromJson(utf8(
        "{\"extra\":{\"a\":[1,2,{\"b\":null}]},\"peer\":\"p\",\"round\":2,\"energy_j\":null,\"more\":\"x\"}"));
    assertEquals("p", r.peer());
    assertEquals(2, r.round());
    assertEquals(0, r.step());
    assertTrue(Double.isNaN(r.energyJoules()));
    assertNull(r.energySource());
  }

  @Test
  void malformedReportsAreRefused() {
    for (String bad : new String[] {"", "[]", "42", "{", "{\"round\":\"2\"}", "{\"round\":2.5}",
        "{\"step\":true}", "{\"peer\":3}", "{\"wall_s\":\"fast\"}", "{\"round\":99999999999}",
        "{\"peer\":\"p\"} {}", "{\"peer\":\"p\"}x", "{\"peer\":\"p\",}"}) {
      assertThrows(IOException.class, () -> RoundReport.fromJson(utf8(bad)), bad);
    }
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
