package io.hdfl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BenchCommandTest {
  @TempDir Path dir;

  @Test
  void measuresWritesJsonAndComparesWithAnEarlierResult() throws Exception {
    Path first = dir.resolve("first.json");
    CliRun r = CliRun.of("bench", "--quick", "--dim", "256", "--classes", "4", "--features", "16", "--out",
        first.toString());
    assertEquals(0, r.code(), r.err());
    JsonNode j = new ObjectMapper().readTree(Files.readString(first));
    for (String key : new String[] {"gemm_vector_gflops", "gemm_scalar_gflops", "gemm_speedup", "encode_us",
        "encode_batch_us_per_sample", "infer_us", "secure_noise_ms", "secure_noise_drawn_ahead_ms",
        "round_s", "round_energy_j", "heap_peak_mb"}) {
      assertTrue(j.get(key).isNumber() && j.get(key).asDouble() > 0, key + " in " + j);
    }
    assertTrue(j.get("energy_source").asText().matches("(MEASURED|ESTIMATED) .*"), j.toString());
    assertTrue(r.out().contains("gemm_vector_gflops") && r.out().contains("written to " + first), r.out());

    Path second = dir.resolve("second.json");
    CliRun c = CliRun.of("bench", "--quick", "--dim", "256", "--classes", "4", "--features", "16", "--out",
        second.toString(), "--compare", first.toString());
    assertEquals(0, c.code(), c.err());
    assertTrue(c.out().matches("(?s).*infer_us\\s+\\S+\\s+was \\S+\\s+[+-]\\d+\\.\\d %.*"), c.out());

    Files.writeString(dir.resolve("junk.json"), "{not json");
    assertEquals(2, CliRun.of("bench", "--quick", "--compare", dir.resolve("junk.json").toString()).code());
    assertEquals(2, CliRun.of("bench", "--dim", "8").code());
  }
}
