package io.hdfl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TrainCommandTest {
  @TempDir Path dir;
  Path train;
  Path test;

  @BeforeEach
  void data() throws Exception {
    train = SyntheticData.write(SyntheticData.blobs(300, 12, 4, 1), dir.resolve("train.choir_dat"));
    test = SyntheticData.write(SyntheticData.blobs(120, 12, 4, 2), dir.resolve("test.choir_dat.gz"));
  }

  @Test
  void jsonHasTheDocumentedKeysAndRealFigures() throws Exception {
    CliRun r = CliRun.of("train", "--train", train.toString(), "--test", test.toString(), "--dim", "500",
        "--epochs", "3", "--json", "--threads", "2");
    assertEquals(0, r.code(), r.err());
    JsonNode j = new ObjectMapper().readTree(r.out());
    for (String key : new String[] {"accuracy", "macro_f1", "encode_s", "train_s", "infer_us", "dim", "classes",
        "kernel_provider"}) {
      assertTrue(j.has(key), "missing " + key + " in " + r.out());
    }
    assertTrue(j.get("accuracy").asDouble() > 0.9, r.out());
    assertTrue(j.get("accuracy").asDouble() <= 1.0);
    assertEquals(500, j.get("dim").asInt());
    assertEquals(4, j.get("classes").asInt());
    assertTrue(j.get("infer_us").asDouble() > 0);
    assertTrue(j.get("kernel_provider").asText().matches("panama|scalar"));
    assertEquals(1, r.out().strip().lines().count(), "exactly one JSON line");
  }

  @Test
  void int8EncodingsTrainAsWellAsFloat32Ones() throws Exception {
    double[] accuracy = new double[2];
    String[] modes = {"float32", "int8"};
    for (int m = 0; m < 2; m++) {
      CliRun r = CliRun.of("train", "--train", train.toString(), "--test", test.toString(), "--dim", "500",
          "--epochs", "3", "--json", "--threads", "2", "--encodings", modes[m]);
      assertEquals(0, r.code(), r.err());
      JsonNode j = new ObjectMapper().readTree(r.out());
      assertEquals(modes[m], j.get("encodings").asText());
      accuracy[m] = j.get("accuracy").asDouble();
    }
    assertTrue(accuracy[1] > 0.9, "int8: " + accuracy[1]);
    assertEquals(accuracy[0], accuracy[1], 0.03);
  }

  @Test
  void savedModelEvaluatesToTheSameAccuracy() throws Exception {
    Path model = dir.resolve("m.hdfl");
    CliRun t = CliRun.of("train", "--train", train.toString(), "--test", test.toString(), "--dim", "400",
        "--encoder", "sign", "--similarity", "dot", "--epochs", "2", "--model", model.toString(), "--json");
    assertEquals(0, t.code(), t.err());
    assertTrue(Files.size(model) > 400 * 4 * 4);
    CliRun e = CliRun.of("eval", "--model", model.toString(), "--test", test.toString(), "--json");
    assertEquals(0, e.code(), e.err());
    ObjectMapper om = new ObjectMapper();
    assertEquals(om.readTree(t.out()).get("accuracy").asDouble(), om.readTree(e.out()).get("accuracy").asDouble(), 1e-12);
    assertEquals("sign", om.readTree(e.out()).get("encoder").asText());
    CliRun human = CliRun.of("eval", "--model", model.toString(), "--test", test.toString());
    assertEquals(0, human.code());
    assertTrue(human.out().contains("per-class recall"), human.out());
  }

  @Test
  void evalEncodesTheTestSetAsAskedAndAModelTrainedOnInt8CodesScoresTheSameOnThem() throws Exception {
    Path model = dir.resolve("int8.hdfl");
    CliRun t = CliRun.of("train", "--train", train.toString(), "--test", test.toString(), "--dim", "400",
        "--epochs", "2", "--encodings", "int8", "--model", model.toString(), "--json");
    assertEquals(0, t.code(), t.err());
    ObjectMapper om = new ObjectMapper();
    JsonNode trained = om.readTree(t.out());
    double[] margin = new double[2];
    String[] modes = {"int8", "float32"};
    for (int m = 0; m < 2; m++) {
      CliRun e = CliRun.of("eval", "--model", model.toString(), "--test", test.toString(), "--encodings", modes[m],
          "--json");
      assertEquals(0, e.code(), e.err());
      JsonNode j = om.readTree(e.out());
      assertEquals(modes[m], j.get("encodings").asText());
      assertEquals(trained.get("accuracy").asDouble(), j.get("accuracy").asDouble(), m == 0 ? 0.0 : 0.03, modes[m]);
      margin[m] = j.get("mean_margin").asDouble();
    }
    assertEquals(trained.get("mean_margin").asDouble(), margin[0], 0.0, "int8 codes score exactly as in training");
    assertNotEquals(margin[0], margin[1], "float32 codes score apart");
    CliRun human = CliRun.of("eval", "--model", model.toString(), "--test", test.toString(), "--encodings", "int8");
    assertEquals(0, human.code(), human.err());
    assertTrue(human.out().contains("int8 codes"), human.out());
    CliRun bad = CliRun.of("eval", "--model", model.toString(), "--test", test.toString(), "--encodings", "int4");
    assertEquals(2, bad.code());
    assertTrue(bad.err().contains("float32 or int8"), bad.err());
  }

  @Test
  void humanReportNamesEncoderTimingsAndAccuracy() {
    CliRun r = CliRun.of("train", "--train", train.toString(), "--test", test.toString(), "--dim", "300",
        "--epochs", "0");
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().contains("accuracy"), r.out());
    assertTrue(r.out().contains("D=300"), r.out());
    assertTrue(r.out().contains("1 pass + 0 epochs"), r.out());
  }

  @Test
  void badInputGivesOneLineAndExitCodeTwo() throws Exception {
    Path junk = dir.resolve("junk.choir_dat");
    Files.write(junk, new byte[] {1, 2, 3});
    CliRun r = CliRun.of("train", "--train", junk.toString(), "--test", test.toString());
    assertEquals(2, r.code());
    assertTrue(r.err().startsWith("hdfl: error: "), r.err());
    assertEquals(1, r.err().strip().lines().count(), "one line, no stack trace: " + r.err());
    assertFalse(r.err().contains("at io.hdfl"));

    CliRun missing = CliRun.of("eval", "--model", dir.resolve("none.hdfl").toString(), "--test", test.toString());
    assertEquals(2, missing.code());
    assertTrue(missing.err().contains("no such file"), missing.err());

    CliRun badDim = CliRun.of("train", "--train", train.toString(), "--test", test.toString(), "--dim", "0");
    assertEquals(2, badDim.code());
    assertTrue(badDim.err().contains("--dim"), badDim.err());

    CliRun badEncoder = CliRun.of("train", "--train", train.toString(), "--test", test.toString(), "--encoder", "tanh");
    assertEquals(2, badEncoder.code());
    assertTrue(badEncoder.err().contains("tanh"), badEncoder.err());

    Path otherFeatures = SyntheticData.write(SyntheticData.blobs(10, 5, 2, 3), dir.resolve("f5.choir_dat"));
    CliRun mismatch = CliRun.of("train", "--train", train.toString(), "--test", otherFeatures.toString());
    assertEquals(2, mismatch.code());
    assertTrue(mismatch.err().contains("features"), mismatch.err());
  }

  @Test
  void corruptModelIsRejectedWithExitTwo() throws Exception {
    Path model = dir.resolve("m.hdfl");
    assertEquals(0, CliRun.of("train", "--train", train.toString(), "--test", test.toString(), "--dim", "64",
        "--epochs", "0", "--model", model.toString()).code());
    byte[] b = Files.readAllBytes(model);
    b[b.length / 2] ^= 0x40;
    Files.write(model, b);
    CliRun r = CliRun.of("eval", "--model", model.toString(), "--test", test.toString());
    assertEquals(2, r.code());
    assertTrue(r.err().contains("checksum"), r.err());
  }
}
