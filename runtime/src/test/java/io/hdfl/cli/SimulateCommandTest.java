package io.hdfl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SimulateCommandTest {
  @TempDir Path dir;

  private Path[] data() throws Exception {
    Path train = SyntheticData.write(SyntheticData.blobs(240, 12, 4, 1), dir.resolve("train.choir_dat"));
    Path test = SyntheticData.write(SyntheticData.blobs(80, 12, 4, 2), dir.resolve("test.choir_dat"));
    return new Path[] {train, test};
  }

  @Test
  void ringOverTheEmbeddedBrokerWritesAVerifiableRunFolder() throws Exception {
    Path[] d = data();
    Path out = dir.resolve("run");
    CliRun r = CliRun.of("simulate", "--train", d[0].toString(), "--test", d[1].toString(), "--peers", "4",
        "--rounds", "3", "--dim", "500", "--epsilon", "4", "--out", out.toString(), "--json");
    assertEquals(0, r.code(), r.err());
    JsonNode j = new ObjectMapper().readTree(r.out());
    for (String key : new String[] {"final_accuracy", "macro_f1", "wall_s", "rounds", "out"}) {
      assertTrue(j.has(key), "missing " + key + ": " + r.out());
    }
    assertEquals(3, j.get("rounds").asInt());
    assertEquals(12, j.get("ledger_entries").asInt());
    assertTrue(r.err().contains("round 3/3"), "progress per round: " + r.err());
    for (String f : new String[] {"rounds.jsonl", "ledger.jsonl", "summary.md", "accuracy.png", "noise.png",
        "energy.png", "keys/peer-001.pub", "final-model.hdfl"}) {
      assertTrue(Files.size(out.resolve(f)) > 0, f);
    }
    assertEquals(out.resolve("final-model.hdfl").toString(), j.get("final_model").asText());
    List<String> rounds = Files.readAllLines(out.resolve("rounds.jsonl"));
    assertEquals(3, rounds.size());
    JsonNode last = new ObjectMapper().readTree(rounds.get(2));
    for (String key : new String[] {"round", "accuracy", "macro_f1", "wall_s", "cpu_s", "energy_j", "energy_source",
        "bytes_sent", "bytes_received", "variance_required", "variance_present", "variance_added"}) {
      assertTrue(last.has(key), "rounds.jsonl lacks " + key);
    }
    assertTrue(last.get("energy_source").asText().matches("(MEASURED|ESTIMATED).*"), last.toString());
    assertTrue(last.get("bytes_received").asLong() > 500 * 4 * 4, "the received model is counted");
    assertEquals(j.get("final_accuracy").asDouble(), last.get("accuracy").asDouble(), 1e-12);
    String summary = Files.readString(out.resolve("summary.md"));
    assertTrue(summary.contains("NOT FOR DEPLOYMENT") && summary.contains("final-model user"), summary);
    assertTrue(summary.contains("| cached encodings | int8 codes"), summary);
    // The ledger verifies with no other argument: the keys are in the run folder.
    CliRun v = CliRun.of("ledger", "verify", out.resolve("ledger.jsonl").toString());
    assertEquals(0, v.code(), v.out() + v.err());
    assertTrue(v.out().contains("ledger OK: 12 entries"), v.out());
    // The saved final model is the one evaluated: scored on int8 codes, as the peers kept theirs, it gives
    // the run's final evaluation to the last digit (the mean top-2 margin tells models and codes apart
    // where the accuracy, on such easy data, would not).
    Path model = out.resolve("final-model.hdfl");
    String command = "hdfl eval --model " + model + " --test " + d[1] + " --encodings int8";
    assertTrue(summary.contains("`" + command + "` scores it as this run did"), summary);
    CliRun e = CliRun.of((command.substring("hdfl ".length()) + " --json").split(" "));
    assertEquals(0, e.code(), e.err());
    JsonNode ej = new ObjectMapper().readTree(e.out());
    assertEquals("int8", ej.get("encodings").asText());
    assertEquals(500, ej.get("dim").asInt());
    for (String key : new String[] {"accuracy", "macro_f1", "mean_margin"}) {
      String runKey = key.equals("accuracy") ? "final_accuracy" : key;
      assertEquals(j.get(runKey).asDouble(), ej.get(key).asDouble(), 0.0, key + ": " + ej);
    }
    JsonNode floats = evalJson(model, d[1], "float32");
    assertNotEquals(ej.get("mean_margin").asDouble(), floats.get("mean_margin").asDouble(), "float codes score apart");
  }

  private static JsonNode evalJson(Path model, Path test, String encodings) throws Exception {
    CliRun e = CliRun.of("eval", "--model", model.toString(), "--test", test.toString(), "--encodings", encodings,
        "--json");
    assertEquals(0, e.code(), e.err());
    return new ObjectMapper().readTree(e.out());
  }

  @Test
  void starOverTheLoopbackWithoutPrivacyLearns() throws Exception {
    Path[] d = data();
    CliRun r = CliRun.of("simulate", "--train", d[0].toString(), "--test", d[1].toString(), "--topology", "star",
        "--transport", "loopback", "--privacy", "none", "--peers", "3", "--rounds", "2", "--per-round", "20",
        "--dim", "500", "--out", dir.resolve("star").toString(), "--json");
    assertEquals(0, r.code(), r.err());
    JsonNode j = new ObjectMapper().readTree(r.out());
    assertTrue(j.get("final_accuracy").asDouble() > 0.9, r.out());
    assertEquals("star", j.get("topology").asText());
  }

  /**
   * A star client learns each stored sample in one round only (its privacy report assumes so): an L
   * the shards cannot give every round is refused, and the default L fits the smallest shard.
   */
  @Test
  void aStarLearnsEachStoredSampleOnceAndItsDefaultLFitsTheShards() throws Exception {
    Path[] d = data(); // 240 training samples: 80 a client
    String[] common = {"simulate", "--train", d[0].toString(), "--test", d[1].toString(), "--topology", "star",
        "--transport", "loopback", "--privacy", "none", "--peers", "3", "--rounds", "2", "--dim", "500"};
    List<String> tooMany = new java.util.ArrayList<>(List.of(common));
    tooMany.addAll(List.of("--per-round", "50", "--out", dir.resolve("big").toString()));
    CliRun big = CliRun.of(tooMany.toArray(new String[0]));
    assertEquals(2, big.code(), big.err());
    assertTrue(big.err().contains("client-001 holds 80 samples, fewer than the 2 x 50 new samples of 2 rounds"),
        big.err());
    List<String> byDefault = new java.util.ArrayList<>(List.of(common));
    byDefault.addAll(List.of("--out", dir.resolve("fit").toString()));
    CliRun fit = CliRun.of(byDefault.toArray(new String[0]));
    assertEquals(0, fit.code(), fit.err());
    assertTrue(fit.err().contains("L = 40 new samples per client per round: the smallest client shard holds 80"),
        fit.err());
    List<String> asJson = new java.util.ArrayList<>(List.of(common));
    asJson.addAll(List.of("--json", "--out", dir.resolve("fit-json").toString()));
    CliRun json = CliRun.of(asJson.toArray(new String[0]));
    assertEquals(0, json.code(), json.err());
    assertEquals(40, new ObjectMapper().readTree(json.out()).get("per_round").asInt(), json.out());
    String summary = java.nio.file.Files.readString(dir.resolve("fit").resolve("summary.md"));
    assertTrue(summary.contains("| samples per client per round (L) | 40 |"), summary);
  }

  @Test
  void peersKeepInt8EncodingsUnlessAskedForFloat32() throws Exception {
    Path[] d = data();
    double[] accuracy = new double[2];
    String[] modes = {null, "float32"};
    for (int m = 0; m < 2; m++) {
      List<String> args = new java.util.ArrayList<>(List.of("simulate", "--train", d[0].toString(), "--test",
          d[1].toString(), "--transport", "loopback", "--privacy", "none", "--peers", "3", "--rounds", "2", "--dim",
          "500", "--out", dir.resolve("enc" + m).toString(), "--json"));
      if (modes[m] != null) {
        args.addAll(List.of("--encodings", modes[m]));
      }
      CliRun r = CliRun.of(args.toArray(new String[0]));
      assertEquals(0, r.code(), r.err());
      JsonNode j = new ObjectMapper().readTree(r.out());
      assertEquals(m == 0 ? "int8" : "float32", j.get("encodings").asText(), r.out());
      accuracy[m] = j.get("final_accuracy").asDouble();
      assertTrue(accuracy[m] > 0.9, r.out());
    }
    assertEquals(accuracy[1], accuracy[0], 0.05, "int8 codes learn what float32 learns");
    CliRun bad = CliRun.of("simulate", "--encodings", "int4", "--train", d[0].toString(), "--test", d[1].toString());
    assertEquals(2, bad.code());
    assertTrue(bad.err().contains("float32 or int8"), bad.err());
  }

  @Test
  void badOptionsAreOneLineErrors() throws Exception {
    Path[] d = data();
    CliRun r = CliRun.of("simulate", "--train", d[0].toString(), "--test", d[1].toString(), "--topology", "star",
        "--privacy", "privatedfl", "--out", dir.resolve("x").toString());
    assertEquals(2, r.code());
    assertTrue(r.err().contains("star uses fedhdp"), r.err());
    CliRun t = CliRun.of("simulate", "--transport", "carrier-pigeon", "--train", d[0].toString(), "--test",
        d[1].toString());
    assertEquals(2, t.code());
    assertTrue(t.err().contains("--transport"), t.err());
    // checked before anything is loaded or connected, each as one line of its own
    String[][] early = {
        {"--max-packet", "10", "--max-packet must be 0 (no limit) or at least 256 bytes, got 10"},
        {"--timeout", "0", "--timeout must be >= 1 s, got 0 s"},
        {"--threads", "0", "--threads must be >= 1, got 0"},
        {"--broker", "http://x", "bad broker URL 'http://x': unsupported scheme http; expected tcp://host:port or "
            + "ssl://host:port"},
        {"--out", d[0].toString(), "cannot write the run folder " + d[0] + ": " + d[0] + " is not a directory"},
        {"--out", d[0].resolve("run").toString(),
            "cannot write the run folder " + d[0].resolve("run") + ": " + d[0] + " is not a directory"}};
    for (String[] c : early) {
      CliRun e = CliRun.of("simulate", "--train", d[0].toString(), "--test", d[1].toString(), c[0], c[1]);
      assertEquals(2, e.code(), e.err());
      assertEquals("hdfl: error: " + c[2], e.err().strip(), e.err());
    }
  }

  @Test
  void anUnreachableBrokerOrAMistypedFileIsAnErrorNotABug() throws Exception {
    Path[] d = data();
    int port;
    try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
      port = s.getLocalPort(); // closed again: nothing listens there
    }
    CliRun r = CliRun.of("simulate", "--train", d[0].toString(), "--test", d[1].toString(), "--peers", "2",
        "--rounds", "1", "--broker", "tcp://127.0.0.1:" + port, "--out", dir.resolve("unreachable").toString());
    assertEquals(1, r.code(), r.err());
    assertTrue(r.err().contains("hdfl: error: cannot connect to MQTT broker tcp://127.0.0.1:" + port
        + ": connection refused"), r.err());
    assertFalse(r.err().contains("internal error"), r.err());
    Path typo = dir.resolve("train-images-idx3-ubyte.gz");
    CliRun t = CliRun.of("simulate", "--train", typo.toString(), "--test", d[1].toString());
    assertEquals(2, t.code(), t.err());
    assertTrue(t.err().contains(typo + ": file not found"), t.err());
  }

  @Test
  void aStarLearnsFromLiveSyntheticMachinesEndToEnd() throws Exception {
    Path out = dir.resolve("machining");
    CliRun r = CliRun.of("simulate", "--source", "synthetic-machining", "--peers", "3", "--topology", "star",
        "--rounds", "3", "--per-round", "30", "--dim", "500", "--transport", "loopback", "--encryption", "auto",
        "--out", out.toString(), "--json");
    assertEquals(0, r.code(), r.err());
    JsonNode j = new ObjectMapper().readTree(r.out());
    assertEquals(3, j.get("rounds").asInt());
    assertEquals(3 * (3 + 1), j.get("ledger_entries").asInt(), "3 rounds x (3 client updates + 1 aggregate)");
    List<String> rounds = Files.readAllLines(out.resolve("rounds.jsonl"));
    assertEquals(3, rounds.size());
    String summary = Files.readString(out.resolve("summary.md"));
    assertTrue(summary.contains("synthetic-machining") && summary.contains("live windows"), summary);
    assertTrue(summary.contains("end-to-end encrypted"), summary);
    CliRun v = CliRun.of("ledger", "verify", out.resolve("ledger.jsonl").toString());
    assertEquals(0, v.code(), v.out() + v.err());
    // each client took 30 new windows per round: the ledger's samples_new says so
    String ledger = Files.readString(out.resolve("ledger.jsonl"));
    assertTrue(ledger.contains("\"samples_new\":30,"), ledger.substring(0, Math.min(400, ledger.length())));
    CliRun both = CliRun.of("simulate", "--source", "synthetic-machining", "--train", "x.csv");
    assertEquals(2, both.code());
    assertTrue(both.err().contains("--source replaces --train/--test"), both.err());
  }

  /**
   * A machine's CSV export (a time stamp first, the label column named and not last) simulates as the
   * same data without those columns does, to the last digit; the run's eval command reads it the same
   * way. Before, simulate took no column options.
   */
  @Test
  void aCsvExportWithATimeStampSimulatesAsItsFeaturesDo() throws Exception {
    io.hdfl.data.Dataset train = SyntheticData.blobs(240, 12, 4, 1);
    io.hdfl.data.Dataset test = SyntheticData.blobs(80, 12, 4, 2);
    Path[] plain = {SyntheticData.write(train, dir.resolve("train.choir_dat")),
        SyntheticData.write(test, dir.resolve("test.choir_dat"))};
    Path[] csv = {exported(train, dir.resolve("train.csv")), exported(test, dir.resolve("test.csv"))};
    List<String> run = List.of("--peers", "4", "--rounds", "2", "--dim", "500", "--transport", "loopback", "--json");
    JsonNode[] result = new JsonNode[2];
    for (int i = 0; i < 2; i++) {
      Path[] d = i == 0 ? plain : csv;
      List<String> args = new java.util.ArrayList<>(List.of("simulate", "--train", d[0].toString(), "--test",
          d[1].toString(), "--out", dir.resolve("run-" + i).toString()));
      args.addAll(run);
      if (i == 1) {
        args.addAll(List.of("--label-column", "quality", "--ignore-columns", "timestamp"));
      }
      CliRun r = CliRun.of(args.toArray(String[]::new));
      assertEquals(0, r.code(), r.err());
      result[i] = new ObjectMapper().readTree(r.out());
    }
    assertEquals(result[0].get("final_accuracy").asDouble(), result[1].get("final_accuracy").asDouble(), 0.0);
    assertEquals(result[0].get("macro_f1").asDouble(), result[1].get("macro_f1").asDouble(), 0.0);
    String summary = Files.readString(dir.resolve("run-1/summary.md"));
    String command = "hdfl eval --model " + dir.resolve("run-1/final-model.hdfl") + " --test " + csv[1]
        + " --label-column quality --ignore-columns timestamp --encodings int8";
    assertTrue(summary.contains("`" + command + "`"), summary);
    // the command as the run folder names it scores the final model as the run did
    CliRun e = CliRun.of((command.substring("hdfl ".length()) + " --json").split(" "));
    assertEquals(0, e.code(), e.err());
    JsonNode ej = new ObjectMapper().readTree(e.out());
    assertEquals(result[1].get("final_accuracy").asDouble(), ej.get("accuracy").asDouble(), 0.0);
    assertEquals(result[1].get("mean_margin").asDouble(), ej.get("mean_margin").asDouble(), 0.0);
    CliRun without = CliRun.of("simulate", "--train", csv[0].toString(), "--test", csv[1].toString(), "--label-column",
        "quality", "--transport", "loopback", "--out", dir.resolve("run-2").toString());
    assertEquals(2, without.code(), without.err());
    assertTrue(without.err().contains("column 'timestamp' (sample 0, feature 0): '2026-11-28T10:00:00Z' is not a number "
        + "(a column that holds no feature, a time stamp say, can be left out: --ignore-columns timestamp"),
        without.err());
    // the options choose CSV columns: not given to a file of another format, nor to a live source
    CliRun choir = CliRun.of("simulate", "--train", plain[0].toString(), "--test", plain[1].toString(),
        "--label-column", "quality", "--transport", "loopback", "--out", dir.resolve("run-3").toString());
    assertEquals(2, choir.code(), choir.err());
    assertTrue(choir.err().contains("is a choir_dat file, which has no columns: a label column and ignored columns are "
        + "chosen in CSV files only"), choir.err());
    CliRun live = CliRun.of("simulate", "--source", "synthetic-machining", "--ignore-columns", "timestamp");
    assertEquals(2, live.code());
    assertTrue(live.err().contains("--label-column and --ignore-columns choose the columns of a CSV --train file; "
        + "--source reads none"), live.err());
  }

  /** {@code d} as a machine's export: "timestamp,f0,..,quality,f..", the label named and not last. */
  private static Path exported(io.hdfl.data.Dataset d, Path file) throws Exception {
    int f = d.featureCount();
    StringBuilder b = new StringBuilder("timestamp");
    for (int j = 0; j < f; j++) {
      b.append(j == f / 2 ? ",quality" : "").append(",f").append(j);
    }
    b.append('\n');
    for (int i = 0; i < d.size(); i++) {
      b.append("2026-11-28T10:00:").append(String.format("%02dZ", i % 60));
      for (int j = 0; j < f; j++) {
        b.append(j == f / 2 ? "," + d.classNames().get(d.label(i)) : "").append(',').append(d.features()[i * f + j]);
      }
      b.append('\n');
    }
    Files.writeString(file, b);
    return file;
  }
}
