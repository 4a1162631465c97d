package io.hdfl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hdfl.data.Dataset;
import io.hdfl.data.Datasets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DataCommandTest {
  @TempDir Path dir;

  @Test
  void inspectReportsShapeRangeAndHistogram() throws Exception {
    Path f = SyntheticData.write(SyntheticData.blobs(30, 4, 3, 1), dir.resolve("d.choir_dat"));
    CliRun r = CliRun.of("data", "inspect", f.toString(), "--json");
    assertEquals(0, r.code(), r.err());
    JsonNode j = new ObjectMapper().readTree(r.out());
    assertEquals(30, j.get("samples").asInt());
    assertEquals(4, j.get("features").asInt());
    assertEquals(3, j.get("classes").asInt());
    assertEquals(10, j.get("labels").get("2").asInt());
    assertTrue(j.get("min").asDouble() < j.get("max").asDouble());
    CliRun human = CliRun.of("data", "inspect", f.toString());
    assertEquals(0, human.code());
    assertTrue(human.out().contains("samples   30"), human.out());
  }

  @Test
  void inspectOfCsvWithNamedLabelColumn() throws Exception {
    Path csv = dir.resolve("d.csv");
    Files.writeString(csv, "kind,a,b\nok,1,2\nbad,3,4\nok,5,6\n");
    CliRun r = CliRun.of("data", "inspect", csv.toString(), "--label-column", "kind", "--json");
    assertEquals(0, r.code(), r.err());
    JsonNode j = new ObjectMapper().readTree(r.out());
    assertEquals(2, j.get("features").asInt());
    assertEquals(2, j.get("labels").get("ok").asInt());
  }

  @Test
  void splitIsStratifiedAndReproducible() throws Exception {
    Path f = SyntheticData.write(SyntheticData.blobs(100, 3, 4, 1), dir.resolve("d.choir_dat"));
    Path a = dir.resolve("a.choir_dat.gz");
    Path b = dir.resolve("b.choir_dat.gz");
    CliRun r = CliRun.of("data", "split", f.toString(), "--test-fraction", "0.2", "--seed", "7",
        "--train-out", a.toString(), "--test-out", b.toString());
    assertEquals(0, r.code(), r.err());
    Dataset train = Datasets.load(a);
    Dataset test = Datasets.load(b);
    assertEquals(80, train.size());
    assertEquals(20, test.size());
    for (int c = 0; c < 4; c++) {
      assertEquals(5, test.labelHistogram()[c]);
    }
    byte[] first = Files.readAllBytes(b);
    assertEquals(0, CliRun.of("data", "split", f.toString(), "--seed", "7", "--train-out", a.toString(),
        "--test-out", b.toString()).code());
    assertEquals(Datasets.load(b).size(), Dataset.class.cast(test).size());
    assertTrue(java.util.Arrays.equals(Datasets.load(b).labels(), test.labels()), "same seed, same split");
    assertTrue(first.length > 0);
  }

  @Test
  void unknownCommandAndHelp() {
    CliRun bad = CliRun.of("frobnicate");
    assertEquals(2, bad.code());
    CliRun help = CliRun.of("--help");
    assertEquals(0, help.code());
    assertTrue(help.out().contains("train") && help.out().contains("eval") && help.out().contains("data"));
    CliRun version = CliRun.of("--version");
    assertEquals(0, version.code());
    assertTrue(version.out().contains("kernels"), version.out());
  }
}
