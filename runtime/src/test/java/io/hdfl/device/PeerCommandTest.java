package io.hdfl.device;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hdfl.cli.Main;
import io.hdfl.data.ChoirDatFormat;
import io.hdfl.data.Dataset;
import io.hdfl.hd.HdModel;
import io.hdfl.hd.ModelFile;
import io.hdfl.privacy.ledger.KeyDirectory;
import io.hdfl.privacy.ledger.LedgerVerifier;
import io.hdfl.privacy.ledger.Verification;
import io.hdfl.transport.EmbeddedBroker;
import io.hdfl.transport.MosquittoProcess;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Several {@code hdfl peer} devices (threads here, processes in the field) federating over a real broker. */
class PeerCommandTest {
  @TempDir Path dir;

  static Dataset blobs(int n, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    int f = 10;
    float[] x = new float[n * f];
    int[] y = new int[n];
    for (int i = 0; i < n; i++) {
      y[i] = i % 3;
      for (int k = 0; k < f; k++) {
        x[i * f + k] = (float) ((k % 3 == y[i] ? 1.0 : 0.1) + 0.3 * (r.nextDouble() - 0.5));
      }
    }
    return new Dataset(f, x, y, 3, Dataset.indexClassNames(3), "blobs");
  }

  private Path config(String id, String role, String broker, String extra) throws Exception {
    Path data = dir.resolve(id + ".choir_dat");
    if (!role.equals("aggregator")) {
      ChoirDatFormat.write(blobs(45, id.hashCode()), data);
    }
    Path cfg = dir.resolve(id + ".properties");
    Files.writeString(cfg, String.join("\n",
        "federation = plant-7", "peer.id = " + id, "role = " + role, "broker = " + broker, "classes = 3",
        "dim = 400", "rounds = 3", "epsilon = 2", "noise = seeded", "state.dir = state/" + id,
        "data.train = " + id + ".choir_dat", "start.timeout.seconds = 30", "run.timeout.seconds = 60",
        "roster.dir = roster", extra) + "\n");
    return cfg;
  }

  /** Replaces {@code text} (which it must hold) with {@code with} in the config {@code file}. */
  private static void edit(Path file, String text, String with) throws java.io.IOException {
    String config = Files.readString(file);
    assertTrue(config.contains(text), file + " holds no '" + text + "'");
    Files.writeString(file, config.replace(text, with));
  }

  /** What an operator does before the first run: each device creates its identity, the public keys go into the roster. */
  private void enrol(List<Path> configs) throws Exception {
    Path roster = Files.createDirectories(dir.resolve("roster"));
    for (Path c : configs) {
      StringWriter out = new StringWriter();
      StringWriter err = new StringWriter();
      assertEquals(0, Main.run(new PrintWriter(out), new PrintWriter(err), "peer", "--config", c.toString(), "--init"),
          err.toString());
      String id = c.getFileName().toString().replace(".properties", "");
      assertTrue(out.toString().contains("public keys of " + id), out.toString());
      for (String suffix : List.of(".pub", ".kx.pub")) {
        Files.copy(dir.resolve("state/" + id + "/keys/" + id + suffix), roster.resolve(id + suffix),
            java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      }
    }
  }

  /** Runs {@code hdfl peer --config C} for every config at once, with {@code extra} options: exit code, stdout, stderr. */
  private static List<String[]> runAll(List<Path> configs, String... extra) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(configs.size());
    List<Future<String[]>> runs = new ArrayList<>();
    for (Path c : configs) {
      List<String> args = new ArrayList<>(List.of("peer", "--config", c.toString()));
      args.addAll(List.of(extra));
      runs.add(pool.submit(() -> {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(new PrintWriter(out), new PrintWriter(err), args.toArray(String[]::new));
        return new String[] {String.valueOf(code), out.toString(), err.toString()};
      }));
    }
    List<String[]> results = new ArrayList<>();
    for (Future<String[]> f : runs) {
      // generous: the embedded Moquette's session loop can die (moquette-io/moquette#773, README Reliability),
      // and a device then waits out its timeouts
      results.add(f.get(180, TimeUnit.SECONDS));
    }
    pool.shutdownNow();
    return results;
  }

  /**
   * {@link #runAll}, asserting that every device exited 0; a failure shows every device's exit code
   * and output (one device waiting for another fails, and the other's output says why).
   */
  private static List<String[]> runAllOk(List<Path> configs, String... extra) throws Exception {
    List<String[]> results = runAll(configs, extra);
    if (results.stream().anyMatch(r -> !"0".equals(r[0]))) {
      StringBuilder b = new StringBuilder("a device exited with an error:");
      for (int i = 0; i < results.size(); i++) {
        String[] r = results.get(i);
        b.append("\n--- ").append(configs.get(i).getFileName()).append(": exit ").append(r[0]).append('\n')
            .append(r[1]).append(r[2]);
      }
      org.junit.jupiter.api.Assertions.fail(b.toString());
    }
    return results;
  }

  /** Telemetry epoch (ms) of the feeding tests. */
  private static final long T0 = 1_700_000_000_000L;

  /** One step of a gateway's telemetry. */
  interface Feed {
    void run(int i) throws Exception;
  }

  /**
   * Runs the devices while a gateway thread publishes: once {@code start} (after the devices had
   * time to subscribe), then {@code sample} for i = 0, 1, … (50 Hz of signal, published about 10x
   * faster than real time: some 475 samples a second) until every device has exited; asserts they
   * all exit 0. A star client needs about 350 samples for three rounds, which take under a second at
   * this pace. Not as fast as it can: a flood of tens of thousands of messages a second filled the
   * embedded Moquette's session queues, which then dropped other clients' publishes (one
   * aggregator's QoS 1 publish never confirmed, in one CI run on a fast 2-core VM), and about 3600 a
   * second (1800 samples a second per gateway) still stalled a federation on a slow day of a 2-core
   * VM (no final model within 60 s).
   */
  private static void runWhileFeeding(List<Path> configs, ThrowingRunnable start, Feed sample) throws Exception {
    java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();
    Thread feeder = new Thread(() -> {
      try {
        Thread.sleep(1500);
        start.run();
        for (int i = 0; i < 60_000 && !done.get(); i++) {
          sample.run(i);
          Thread.sleep(2);
        }
      } catch (Exception e) {
        // the run ends with or without more telemetry
      }
    }, "gateway");
    feeder.start();
    try {
      runAllOk(configs);
    } finally {
      done.set(true);
      feeder.join(5000);
    }
  }

  /** A step that may throw. */
  interface ThrowingRunnable {
    void run() throws Exception;
  }

  /** The ledger of {@code owner}'s device checked with the public keys of {@code ids}, as an auditor would. */
  private Verification verifiedLedger(String owner, List<String> ids) throws Exception {
    Path keys = Files.createDirectories(dir.resolve("audit-" + owner + "-" + System.nanoTime()));
    for (String id : ids) {
      Files.copy(dir.resolve("state/" + id + "/keys/" + id + ".pub"), keys.resolve(id + ".pub"));
    }
    return new LedgerVerifier(KeyDirectory.open(keys)).verify(dir.resolve("state/" + owner + "/ledger.jsonl"));
  }

  /** The configs of three ring devices (press-01, -02, -03) on {@code broker}, enrolled in the roster. */
  private List<Path> enrolledRingOfThree(String broker) throws Exception {
    String order = "ring.order = press-01, press-02, press-03";
    List<Path> configs = List.of(config("press-03", "ring", broker, order), config("press-02", "ring", broker, order),
        config("press-01", "ring", broker, order));
    enrol(configs);
    return configs;
  }

  @Test
  void threeRingDevicesAgreeOnTheFinalModelAndKeepAVerifiableLedger() throws Exception {
    List<io.hdfl.federation.RoundReport> reports = new java.util.concurrent.CopyOnWriteArrayList<>();
    try (EmbeddedBroker broker = new EmbeddedBroker().start();
        io.hdfl.transport.Transport observer = io.hdfl.transport.MqttTransport.connect(
            io.hdfl.transport.MqttSettings.builder(broker.uri()).clientId("observer").build())) {
      observer.subscribe(new io.hdfl.federation.Topics("plant-7").allMetrics(), 1,
          (topic, payload, retained) -> {
            try {
              reports.add(io.hdfl.federation.RoundReport.fromJson(payload));
            } catch (java.io.IOException e) {
              throw new java.io.UncheckedIOException(e);
            }
          });
      List<Path> configs = enrolledRingOfThree(broker.uri());
      List<String[]> results = runAllOk(configs);
      // every round report prices the bytes it counts with the profile's radio (no meter here covers the radio)
      long until = System.nanoTime() + 10_000_000_000L; // a device's last report may reach the observer after it exits
      while (reports.size() < 9 && System.nanoTime() < until) {
        Thread.sleep(20);
      }
      assertTrue(reports.size() >= 9, reports.size() + " round reports");
      for (io.hdfl.federation.RoundReport r : reports) {
        assertTrue(r.energySource().matches("(MEASURED|ESTIMATED) \\S+ \\+ ESTIMATED radio:\\S+"), r.energySource());
        assertTrue(r.bytesSent() > 0 && r.energyJoules() > 0, r.toString());
      }
      // each device prints the command that checks its ledger, with the roster's public keys
      for (String[] r : results) {
        java.util.regex.Matcher m = java.util.regex.Pattern
            .compile("check it: hdfl ledger verify (\\S+) --keys (\\S+)\\)").matcher(r[1]);
        assertTrue(m.find(), r[1]);
        assertTrue(m.group(2).endsWith("roster"), r[1]);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        assertEquals(0, Main.run(new PrintWriter(out), new PrintWriter(err), "ledger", "verify", m.group(1), "--keys",
            m.group(2)), out + " " + err);
        assertTrue(out.toString().contains("ledger OK: 9 entries"), out.toString());
        // and the privacy report's, told that hops were sealed (the ledger cannot say), which runs as printed
        m = java.util.regex.Pattern.compile("privacy: hdfl privacy report (\\S+) --keys (\\S+) --retrain-epochs 1 "
            + "--wire-encrypted\n").matcher(r[1]);
        assertTrue(m.find(), r[1]);
        out = new StringWriter();
        assertEquals(0, Main.run(new PrintWriter(out), new PrintWriter(err), "privacy", "report", m.group(1), "--keys",
            m.group(2), "--retrain-epochs", "1", "--wire-encrypted"), out + " " + err);
        assertTrue(!out.toString().contains("wire reader"), out.toString());
      }
    }
    HdModel first = ModelFile.read(dir.resolve("state/press-01/final-model.hdfl"));
    for (String id : List.of("press-02", "press-03")) {
      HdModel m = ModelFile.read(dir.resolve("state/" + id + "/final-model.hdfl"));
      assertArrayEquals(first.prototypes().toArray(), m.prototypes().toArray(), id);
    }
    assertTrue(Files.exists(dir.resolve("state/press-01/press-01.key")), "identity persisted");
    // Gather the public keys the way an auditor would, and verify each device's ledger copy.
    Path keys = dir.resolve("all-keys");
    Files.createDirectories(keys);
    for (String id : List.of("press-01", "press-02", "press-03")) {
      Files.copy(dir.resolve("state/" + id + "/keys/" + id + ".pub"), keys.resolve(id + ".pub"));
    }
    // Every device's copy is the whole chain, up to the final model's entry: the entries after a peer's
    // last turn come to it with the final model.
    String last = Files.readString(dir.resolve("state/press-03/ledger.jsonl"));
    for (String id : List.of("press-01", "press-02", "press-03")) {
      Verification v = new LedgerVerifier(KeyDirectory.open(keys)).verify(dir.resolve("state/" + id + "/ledger.jsonl"));
      assertTrue(v.ok(), id + ": " + v.summary());
      assertEquals(9, v.entries(), id + " saw " + v.entries() + " entries");
      assertEquals(last, Files.readString(dir.resolve("state/" + id + "/ledger.jsonl")), id);
    }
  }

  /**
   * {@code --new-run} with the same config, on the same broker: the broker still holds the finished
   * run's final model, retained under the federation's topic, and hands it to every device that
   * subscribes. A device must not take it as the new run's: the new run is run, and its ledger is new.
   */
  @Test
  void aNewRunOnTheSameBrokerRunsAgainInsteadOfTakingTheFinishedRunsFinalModel() throws Exception {
    try (NewRunBroker broker = newRunBroker()) {
      List<Path> configs = enrolledRingOfThree(broker.uri());
      runAllOk(configs);
      String firstLedger = Files.readString(dir.resolve("state/press-01/ledger.jsonl"));

      letTheBrokerCloseTheFinishedSessions();
      for (String[] r : runAllOk(configs, "--new-run")) {
        assertTrue(r[2].contains("new run: the finished run's ledger is kept as"), r[2]);
        assertTrue(r[2].contains("ignored an earlier run's final model, which the broker still retains"), r[2]);
      }
      List<String> ids = List.of("press-01", "press-02", "press-03");
      assertAWholeNewRing(ids, firstLedger);
      for (String id : ids) {
        try (var kept = Files.list(dir.resolve("state/" + id))) {
          List<Path> old = kept.filter(f -> f.getFileName().toString().matches("ledger-.*\\.jsonl")).toList();
          assertEquals(1, old.size(), id + ": " + old);
          if (id.equals("press-01")) {
            assertEquals(firstLedger, Files.readString(old.get(0)), "the finished run's ledger, kept as it was");
          }
        }
      }
    }
  }

  /**
   * Each of the ring's devices {@code ids} holds a verifying ledger of a whole new run of 3 rounds,
   * sharing no line with the earlier run's {@code firstLedger}.
   */
  private void assertAWholeNewRing(List<String> ids, String firstLedger) throws Exception {
    for (String id : ids) {
      Verification v = verifiedLedger(id, ids);
      assertTrue(v.ok(), id + ": " + v.summary());
      assertEquals(9, v.entries(), id + ": a whole new run of 3 rounds of 3 peers");
      for (String line : Files.readString(dir.resolve("state/" + id + "/ledger.jsonl")).split("\n")) {
        assertTrue(!firstLedger.contains(line), id + ": an entry of the earlier run in the new run's ledger: " + line);
      }
    }
  }

  /**
   * Devices whose state directories were made anew but for their keys (an operator starting over)
   * under a federation id used before: the broker still retains the earlier run's final model and
   * hands it to every device that subscribes. Each took it at once as its own run's and ended with it;
   * now each runs the new run, saying what it ignored, and its ledger is the new run's alone. One device
   * started on its own first remembers what it ignored in its state directory, as a restart during
   * the run must.
   */
  @Test
  void devicesStartedAnewRunANewRunInsteadOfTakingTheEarlierRunsRetainedFinalModel() throws Exception {
    try (NewRunBroker broker = newRunBroker()) {
      List<Path> configs = enrolledRingOfThree(broker.uri());
      runAllOk(configs);
      String firstLedger = Files.readString(dir.resolve("state/press-01/ledger.jsonl"));
      List<String> ids = List.of("press-01", "press-02", "press-03");
      for (String id : ids) {
        Path state = dir.resolve("state/" + id);
        try (var files = Files.list(state)) {
          for (Path f : files.toList()) {
            String name = f.getFileName().toString();
            if (!name.equals("keys") && !name.equals(id + ".key") && !name.equals(id + ".kx")) {
              try (var tree = Files.walk(f)) {
                for (Path g : tree.sorted(java.util.Comparator.reverseOrder()).toList()) {
                  Files.delete(g);
                }
              }
            }
          }
        }
      }
      letTheBrokerCloseTheFinishedSessions();
      // press-02 alone first, until its run timeout: it ignores the earlier final model and remembers it
      Path second = configs.get(1);
      edit(second, "run.timeout.seconds = 60", "run.timeout.seconds = 3");
      String[] alone = cli("peer", "--config", second.toString());
      assertEquals("1", alone[0], alone[1] + alone[2]);
      assertTrue(alone[2].contains("ignored the final model the broker retains on hdfl/plant-7/model/final: it was "
          + "there before this device"), alone[2]);
      edit(second, "run.timeout.seconds = 3", "run.timeout.seconds = 60");
      List<String[]> results = runAllOk(configs);
      for (int i = 0; i < 3; i++) {
        String err = results.get(i)[2];
        assertTrue(err.contains(i == 1 ? "ignored an earlier run's final model, which the broker still retains"
            : "ignored the final model the broker retains on hdfl/plant-7/model/final: it was there before this "
            + "device"), err);
        assertTrue(err.contains("round 3/3 (step "), err); // the last step's line too, though the final is out first
      }
      assertAWholeNewRing(ids, firstLedger);
    }
  }

  /** A broker for a run and a new run of it. */
  private record NewRunBroker(String uri, AutoCloseable running) implements AutoCloseable {
    @Override
    public void close() throws Exception {
      running.close();
    }
  }

  /**
   * The broker of the new-run tests: a Mosquitto process where one is installed (as in CI), else the
   * embedded broker. What they test is hdfl's {@code --new-run} with the finished run's messages still
   * retained on the broker; in one CI run a session event loop of the embedded Moquette 0.17 died in
   * this test (IllegalReferenceCountException on a PUBACK), and a device whose session was on it never
   * had its last publish confirmed (README, Reliability).
   */
  private NewRunBroker newRunBroker() throws Exception {
    if (MosquittoProcess.binary().isPresent()) {
      MosquittoProcess m = MosquittoProcess.startPlain(dir);
      return new NewRunBroker(m.uri(), m);
    }
    EmbeddedBroker b = new EmbeddedBroker().start();
    return new NewRunBroker(b.uri(), b);
  }

  /**
   * Waits before a new run connects the same client ids again. In one CI run the embedded Moquette
   * left two of three devices' CONNECTs unanswered (10 s) when they came at once after the finished
   * run's DISCONNECTs under the same ids; an operator's new run comes later than that, and Mosquitto
   * takes a session over at once.
   */
  private static void letTheBrokerCloseTheFinishedSessions() throws InterruptedException {
    Thread.sleep(2000);
  }

  /** A star, then a new run of it on the same broker, which still holds the first run's final and last global model. */
  @Test
  void anAggregatorAndTwoClientsRunAStarAndThenANewRun() throws Exception {
    try (NewRunBroker broker = newRunBroker()) {
      List<Path> configs = List.of(config("agg", "aggregator", broker.uri(), "star.clients = 2\nfeatures = 10"),
          config("cell-1", "star-client", broker.uri(), "per-round = 15"),
          config("cell-2", "star-client", broker.uri(), "per-round = 15"));
      enrol(configs);
      List<String[]> results = runAllOk(configs);
      Verification v = verifiedLedger("agg", List.of("agg", "cell-1", "cell-2"));
      assertTrue(v.ok(), v.summary());
      assertEquals(9, v.entries(), "3 rounds x (2 client updates + 1 aggregate)");
      // each device says what every round did, with its bytes (the aggregator's too) and energy
      for (int round = 1; round <= 3; round++) {
        assertTrue(java.util.regex.Pattern.compile("hdfl peer agg: round " + round + "/3: averaged the clients' updates "
            + "\\(30 new samples\\) after [0-9.]+ s .*; sent [0-9.]+ kB, received [0-9.]+ kB; energy [0-9.]+ J ")
            .matcher(results.get(0)[2]).find(), results.get(0)[2]);
        for (int c = 1; c <= 2; c++) {
          assertTrue(results.get(c)[2].contains("hdfl peer cell-" + c + ": round " + round + "/3: update of 15 new "
              + "samples sent in "), results.get(c)[2]);
        }
      }
      assertTrue(Files.exists(dir.resolve("state/cell-1/final-model.hdfl")));
      String first = Files.readString(dir.resolve("state/agg/ledger.jsonl"));
      // each client recorded the updates it sent, and the aggregator's ledger holds every one of them
      Path releases = dir.resolve("state/cell-1/releases.jsonl");
      assertTrue(results.get(1)[1].contains("releases: " + releases), results.get(1)[1]);
      assertEquals(3, Files.readAllLines(releases).size());
      String[] check = cli("ledger", "verify", dir.resolve("state/agg/ledger.jsonl").toString(), "--keys",
          dir.resolve("roster").toString(), "--releases", releases.toString(), "--releases",
          dir.resolve("state/cell-2/releases.jsonl").toString());
      assertEquals("0", check[0], check[1] + check[2]);
      assertTrue(check[1].contains("releases of cell-1 (" + releases + "): 3 update(s), all in the ledger")
          && check[1].contains("releases of cell-2"), check[1]);

      letTheBrokerCloseTheFinishedSessions();
      runAllOk(configs, "--new-run");
      v = verifiedLedger("agg", List.of("agg", "cell-1", "cell-2"));
      assertTrue(v.ok(), v.summary());
      assertEquals(9, v.entries(), "a whole new run: 3 rounds x (2 client updates + 1 aggregate)");
      for (String line : Files.readString(dir.resolve("state/agg/ledger.jsonl")).split("\n")) {
        assertTrue(!first.contains(line), "an entry of the finished run in the new run's ledger: " + line);
      }
      assertEquals(3, Files.readAllLines(releases).size(), "the new run's releases only");
      try (var kept = Files.list(dir.resolve("state/cell-1"))) {
        assertEquals(1, kept.filter(f -> f.getFileName().toString().matches("releases-\\d{8}T\\d{6}Z\\.jsonl")).count(),
            "the finished run's record is kept");
      }
    }
  }

  /**
   * An admitted client whose ledger entries are not signed by the key the aggregator's roster holds
   * for it (here the aggregator's roster pins another Ed25519 key for cell-2; its X25519 key is right,
   * so its sealed updates open): the aggregator takes none of its updates, on time or late, and its
   * ledger, checked against its own roster, verifies. Before, on-time updates were averaged unchecked
   * and the ledger held lines `ledger verify` refuses.
   */
  @Test
  void anAggregatorTakesNoUpdateWhoseEntryIsNotSignedByTheSendersKeyInItsRoster() throws Exception {
    try (EmbeddedBroker broker = new EmbeddedBroker().start()) {
      String timing = "star.clients = 2\nfeatures = 10\nquorum = 1\ndeadline.seconds = 1";
      List<Path> configs = List.of(config("agg", "aggregator", broker.uri(), timing),
          config("cell-1", "star-client", broker.uri(), "per-round = 15"),
          config("cell-2", "star-client", broker.uri(), "per-round = 15"));
      enrol(configs);
      Path aggRoster = Files.createDirectories(dir.resolve("roster-agg"));
      try (var files = Files.list(dir.resolve("roster"))) {
        for (Path f : files.toList()) {
          Files.copy(f, aggRoster.resolve(f.getFileName()));
        }
      }
      Files.delete(aggRoster.resolve("cell-2.pub"));
      io.hdfl.privacy.ledger.PeerKeys.generate("cell-2").publish(aggRoster);
      edit(configs.get(0), "roster.dir = roster\n", "roster.dir = roster-agg\n");
      runAllOk(configs);
      Verification v = new LedgerVerifier(KeyDirectory.open(aggRoster)).verify(dir.resolve("state/agg/ledger.jsonl"));
      assertTrue(v.ok(), v.summary());
      assertEquals(6, v.entries(), "3 rounds x (cell-1's update + 1 aggregate): " + v.summary());
      assertTrue(!Files.readString(dir.resolve("state/agg/ledger.jsonl")).contains("\"peer\":\"cell-2\""),
          "no entry of cell-2");
    }
  }

  @Test
  void starClientsLearnFromLiveSyntheticMachinesAndKeepTheirNormalization() throws Exception {
    try (EmbeddedBroker broker = new EmbeddedBroker().start()) {
      String live = "data.source = synthetic-machining\nper-round = 20\nwindow.warmup = 500\nsynthetic.machine = ";
      List<Path> configs = List.of(config("agg", "aggregator", broker.uri(), "star.clients = 2\nfeatures = 900"),
          config("mill-1", "star-client", broker.uri(), live + "1"),
          config("mill-2", "star-client", broker.uri(), live + "2"));
      enrol(configs);
      runAllOk(configs);
    }
    Verification v = verifiedLedger("agg", List.of("agg", "mill-1", "mill-2"));
    assertTrue(v.ok(), v.summary());
    assertEquals(9, v.entries());
    assertTrue(Files.readString(dir.resolve("state/agg/ledger.jsonl")).contains("\"samples_new\":20,"));
    for (String id : List.of("mill-1", "mill-2")) {
      assertTrue(Files.size(dir.resolve("state/" + id + "/normalization.hdns")) > 0, id + " saved its statistics");
    }
  }

  @Test
  void starClientsLearnFromJsonTelemetryOverMqtt() throws Exception {
    try (EmbeddedBroker broker = new EmbeddedBroker().start();
        io.hdfl.transport.Transport gateway = io.hdfl.transport.MqttTransport.connect(
            io.hdfl.transport.MqttSettings.builder(broker.uri()).clientId("gateway").build())) {
      learnFromJsonTelemetry(broker.uri(), gateway, "");
    }
  }

  /**
   * The ingest connection to a gateway broker of its own that serves TLS and wants a client
   * certificate: the device trusts the gateway through `ingest.ca` and proves itself with
   * `ingest.cert`/`ingest.key`, all read beside its config, while the federation's connection stays
   * plain. (Until the eighteenth session no test went over this TLS code for the ingest connection.)
   */
  @Test
  void starClientsLearnFromJsonTelemetryOverAGatewayBrokerThatWantsTlsClientCertificates() throws Exception {
    var ca = io.hdfl.transport.TestCertificates.ca("plant-7 gateway CA");
    var server = io.hdfl.transport.TestCertificates.server("localhost", ca);
    io.hdfl.transport.TestCertificates.writeCertPem(dir.resolve("gateway-ca.pem"), ca.cert());
    var device = io.hdfl.transport.TestCertificates.client("cells", ca);
    io.hdfl.transport.TestCertificates.writeCertPem(dir.resolve("cells.pem"), device.cert(), ca.cert());
    io.hdfl.transport.TestCertificates.writeKeyPem(dir.resolve("cells.key"), device.key());
    try (EmbeddedBroker broker = new EmbeddedBroker().start();
        EmbeddedBroker gatewayBroker = EmbeddedBroker.builder()
            .tls(io.hdfl.transport.TestCertificates.keyManagers(server, ca), io.hdfl.transport.TestCertificates.trust(ca))
            .build().start();
        io.hdfl.transport.Transport gateway = io.hdfl.transport.MqttTransport.connect(
            io.hdfl.transport.MqttSettings.builder("ssl://localhost:" + gatewayBroker.port()).clientId("gateway")
                .caFile(dir.resolve("gateway-ca.pem"))
                .clientCertificate(dir.resolve("cells.pem"), dir.resolve("cells.key")).build())) {
      assertTrue(broker.uri().startsWith("tcp://"));
      learnFromJsonTelemetry(broker.uri(), gateway, String.join("\n",
          "ingest.broker = ssl://localhost:" + gatewayBroker.port(), "ingest.ca = gateway-ca.pem",
          "ingest.cert = cells.pem", "ingest.key = cells.key", ""));
    }
  }

  /**
   * An aggregator and two star clients over {@code federationBroker}, the clients learning from JSON
   * telemetry that {@code gateway} publishes, with the clients' {@code ingestKeys}; the ledger verifies.
   */
  private void learnFromJsonTelemetry(String federationBroker, io.hdfl.transport.Transport gateway, String ingestKeys)
      throws Exception {
    String ingest = ingestKeys + String.join("\n", "data.source = mqtt-json", "per-round = 10", "window.warmup = 50",
        "ingest.rate = 50", "ingest.channels = load[%] = /spindle/load, temp[C] = /temp", "ingest.timestamp = /ts",
        "ingest.label = /quality", "ingest.classes = nominal, under, over", "ingest.topic = plant-7/");
    List<Path> configs = List.of(config("agg", "aggregator", federationBroker, "star.clients = 2\nfeatures = 20"),
        config("cell-a", "star-client", federationBroker, ingest + "cell-a/telemetry"),
        config("cell-b", "star-client", federationBroker, ingest + "cell-b/telemetry"));
    enrol(configs);
    String[] names = {"nominal", "under", "over"};
    runWhileFeeding(configs, () -> { }, i -> {
      int label = (i / 20) % 3;
      for (String cell : List.of("cell-a", "cell-b")) {
        String json = String.format(java.util.Locale.ROOT,
            "{\"ts\":%d,\"spindle\":{\"load\":%.3f},\"temp\":%.3f,\"quality\":\"%s\"}", T0 + 20L * i,
            10 + 5 * label + Math.sin(i * 0.1), 30 - label + 0.1 * Math.cos(i), names[label]);
        gateway.publish("plant-7/" + cell + "/telemetry", json.getBytes(java.nio.charset.StandardCharsets.UTF_8), 0,
            false);
      }
    });
    Verification v = verifiedLedger("agg", List.of("agg", "cell-a", "cell-b"));
    assertTrue(v.ok(), v.summary());
    assertEquals(9, v.entries());
    assertTrue(Files.readString(dir.resolve("state/agg/ledger.jsonl")).contains("\"samples_new\":10,"));
  }

  @Test
  void aRingLearnsFromRecordedSessionsReplayed() throws Exception {
    // one recorded session per press, as 'hdfl record' writes them
    for (int m = 1; m <= 2; m++) {
      CliRunHelper.record(dir.resolve("press-0" + m + ".hdsg"), m);
    }
    try (EmbeddedBroker broker = new EmbeddedBroker().start()) {
      String order = "ring.order = press-01, press-02\ndata.source = replay\nper-round = 40\nwindow.warmup = 300\n"
          + "replay.file = press-0";
      List<Path> configs = List.of(config("press-01", "ring", broker.uri(), order + "1.hdsg"),
          config("press-02", "ring", broker.uri(), "window.keep = 60\n" + order + "2.hdsg"));
      enrol(configs);
      for (String[] r : runAllOk(configs)) {
        assertTrue(r[2].contains("40 live windows collected for the ring"), r[2]);
      }
    }
    HdModel a = ModelFile.read(dir.resolve("state/press-01/final-model.hdfl"));
    HdModel b = ModelFile.read(dir.resolve("state/press-02/final-model.hdfl"));
    assertArrayEquals(a.prototypes().toArray(), b.prototypes().toArray());
    assertEquals(900, a.encoder().features(), "90 channels x windows of 10");
    // between turns each peer kept collecting windows: later turns count more samples than the first shard;
    // press-02 retrains on its latest 60 windows only (window.keep), press-01 on up to 5000
    java.util.Map<String, Long> maxNew = new java.util.HashMap<>();
    for (String line : Files.readAllLines(dir.resolve("state/press-02/ledger.jsonl"))) {
      io.hdfl.privacy.ledger.LedgerEntry e = io.hdfl.privacy.ledger.LedgerCodec.parse(line);
      maxNew.merge(e.peer(), e.samplesNew(), Math::max);
    }
    assertTrue(Math.max(maxNew.get("press-01"), maxNew.get("press-02")) > 40, "samples_new reached " + maxNew);
    assertTrue(maxNew.get("press-02") <= 60, "press-02 retrains on 60 windows at most: " + maxNew);
    assertTrue(Files.readString(dir.resolve("state/press-02/ledger.jsonl")).contains("\"samples_bundled\":"),
        "the windows bundled after round 1 are recorded as such");
    Verification v = verifiedLedger("press-02", List.of("press-01", "press-02"));
    assertTrue(v.ok(), v.summary());
    // The privacy report finds the windows bundled after round 1: between two receipts of the next peer
    // they had only one step's incremental noise, far less than a round-1 record had
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    assertEquals(0, Main.run(new PrintWriter(out), new PrintWriter(err), "privacy", "report",
        dir.resolve("state/press-02/ledger.jsonl").toString(), "--keys", dir.resolve("roster").toString(),
        "--retrain-epochs", "1", "--json"), err.toString());
    com.fasterxml.jackson.databind.JsonNode hop = null;
    for (com.fasterxml.jackson.databind.JsonNode o : new com.fasterxml.jackson.databind.ObjectMapper()
        .readTree(out.toString()).get("observers")) {
      if (o.get("observer").asText().equals("another peer")) {
        hop = o;
      }
    }
    assertTrue(hop != null && hop.get("worst_case").asText().matches("a record of peer \\d bundled in round \\d+, seen by peer \\d"),
        out.toString());
    List<io.hdfl.privacy.ledger.LedgerEntry> entries = new ArrayList<>();
    for (String line : Files.readAllLines(dir.resolve("state/press-02/ledger.jsonl"))) {
      entries.add(io.hdfl.privacy.ledger.LedgerCodec.parse(line));
    }
    double[] added = entries.stream().mapToDouble(io.hdfl.privacy.ledger.LedgerEntry::addedVariance).toArray();
    var roundOneOnly = io.hdfl.privacy.composition.RingExposure.observers(2, entries.size() / 2, added,
        new io.hdfl.privacy.composition.RecordInfluence(entries.get(0).dim(), 1),
        io.hdfl.privacy.composition.LedgerExposure.reportDelta(entries), entries.get(0).epsilon(), false).get(1);
    assertEquals("another peer", roundOneOnly.observer());
    assertTrue(hop.get("epsilon_rdp").asDouble() > roundOneOnly.epsilonRdp(), hop + " against " + roundOneOnly.sentence());
  }

  /** Writes recordings with the CLI, as an operator would. */
  static final class CliRunHelper {
    static void record(Path file, int machine) {
      record(file, machine, 20);
    }

    static void record(Path file, int machine, int seconds) {
      StringWriter err = new StringWriter();
      assertEquals(0, Main.run(new PrintWriter(new StringWriter()), new PrintWriter(err), "record", "--source",
          "synthetic-machining", "--machine", String.valueOf(machine), "--seconds", String.valueOf(seconds), "--out",
          file.toString()), err.toString());
    }
  }

  /** A real Sparkplug B payload (Eclipse Tahu's encoder), as a machine gateway publishes it. */
  private static byte[] sparkplug(Long seq, long timeMs, org.eclipse.tahu.message.model.Metric... metrics) {
    try {
      var b = new org.eclipse.tahu.message.model.SparkplugBPayload.SparkplugBPayloadBuilder()
          .setTimestamp(new java.util.Date(timeMs)).addMetrics(List.of(metrics));
      if (seq != null) {
        b.setSeq(seq);
      }
      return new org.eclipse.tahu.message.SparkplugBPayloadEncoder().getBytes(b.createPayload(), false);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static org.eclipse.tahu.message.model.Metric metric(String name, Object value) {
    try {
      var type = value instanceof Integer ? org.eclipse.tahu.message.model.MetricDataType.Int32
          : value instanceof Long ? org.eclipse.tahu.message.model.MetricDataType.Int64
          : org.eclipse.tahu.message.model.MetricDataType.Double;
      return new org.eclipse.tahu.message.model.Metric.MetricBuilder(name, type, value).createMetric();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  @Test
  void starClientsLearnFromSparkplugGateways() throws Exception {
    try (EmbeddedBroker broker = new EmbeddedBroker().start();
        io.hdfl.transport.Transport gateway = io.hdfl.transport.MqttTransport.connect(
            io.hdfl.transport.MqttSettings.builder(broker.uri()).clientId("gateways").build())) {
      // rebirth requests on, answered by the gateways as edge nodes do: a client that lost its connection
      // (and with it the births, which are not retained) asks for them again
      String ingest = String.join("\n", "data.source = sparkplug", "per-round = 10", "window.warmup = 50",
          "ingest.rate = 50", "ingest.group = plant1", "ingest.metrics = load[%] = mill:Load, temp[C] = mill:Temp",
          "ingest.label.metric = mill:Quality", "ingest.rebirth = true", "ingest.edge-node = gw-");
      List<Path> configs = List.of(config("agg", "aggregator", broker.uri(), "star.clients = 2\nfeatures = 20"),
          config("cell-a", "star-client", broker.uri(), ingest + "a"),
          config("cell-b", "star-client", broker.uri(), ingest + "b"));
      enrol(configs);
      long[] seq = new long[2];
      String[] edges = {"gw-a", "gw-b"};
      Feed births = g -> {
        synchronized (seq) {
          seq[g] = 0;
          gateway.publish("spBv1.0/plant1/NBIRTH/" + edges[g], sparkplug(0L, T0, metric("bdSeq", 0L)), 1, false);
          gateway.publish("spBv1.0/plant1/DBIRTH/" + edges[g] + "/mill",
              sparkplug(++seq[g], T0, metric("Load", 0.0), metric("Temp", 0.0), metric("Quality", 0)), 1, false);
        }
      };
      gateway.subscribe("spBv1.0/plant1/NCMD/+", 1, (topic, payload, retained) -> {
        try {
          births.run(topic.endsWith("/gw-a") ? 0 : 1);
        } catch (Exception e) {
          // the gateway's connection is down: the client asks again
        }
      });
      runWhileFeeding(configs, () -> {
        births.run(0);
        births.run(1);
      }, i -> {
        int label = (i / 20) % 3;
        synchronized (seq) {
          for (int g = 0; g < 2; g++) {
            seq[g] = (seq[g] + 1) & 0xFF;
            gateway.publish("spBv1.0/plant1/DDATA/" + edges[g] + "/mill", sparkplug(seq[g], T0 + 20L * (i + 1),
                metric("Load", 10 + 5.0 * label + Math.sin(i * 0.1)), metric("Temp", 30.0 - label),
                metric("Quality", label)), 0, false);
          }
        }
      });
    }
    Verification v = verifiedLedger("agg", List.of("agg", "cell-a", "cell-b"));
    assertTrue(v.ok(), v.summary());
    assertEquals(9, v.entries());
  }

  @Test
  void aStarClientLearnsFromGpioInputsOnPi4jsMockPlatform() throws Exception {
    try (EmbeddedBroker broker = new EmbeddedBroker().start()) {
      String hw = String.join("\n", "data.source = hardware", "classes = 1", "per-round = 10", "window.size = 5",
          "window.warmup = 20", "signal.rate = 500", "signal.gpio.channels = door_open, 17, up; parts, 27, edges",
          "signal.label.pins = 22", "signal.label.labels = 0, 0");
      List<Path> configs = List.of(
          config("agg", "aggregator", broker.uri(), "star.clients = 1\nfeatures = 10\nclasses = 1\nrounds = 2"),
          config("line-1", "star-client", broker.uri(), hw + "\nrounds = 2"));
      // the generated config says classes = 3 and rounds = 3 first: the later keys win in a properties file
      enrol(configs);
      List<String[]> results = runAllOk(configs);
      assertTrue(results.get(1)[2].contains("live data: hardware, 2 channels"), results.get(1)[2]);
    }
    Verification v = verifiedLedger("agg", List.of("agg", "line-1"));
    assertTrue(v.ok(), v.summary());
    assertEquals(4, v.entries(), "2 rounds x (1 update + 1 aggregate)");
  }

  @Test
  void liveSourceKeysAreChecked() throws Exception {
    Path a = config("x-1", "star-client", "tcp://127.0.0.1:1", "signal.rate = 100");
    StringWriter err = new StringWriter();
    assertEquals(2, Main.run(new PrintWriter(new StringWriter()), new PrintWriter(err), "peer", "--config", a.toString()));
    assertTrue(err.toString().contains("'data.source' is file"), err.toString());
    Path b = config("x-2", "star-client", "tcp://127.0.0.1:1", "data.source = hardware\nsignal.rate = 100\nsignal.bogus = 1");
    err = new StringWriter();
    assertEquals(2, Main.run(new PrintWriter(new StringWriter()), new PrintWriter(err), "peer", "--config", b.toString()));
    assertTrue(err.toString().contains("signal.bogus"), err.toString());
    Path c = config("x-3", "star-client", "tcp://127.0.0.1:1",
        "data.source = sparkplug\ningest.rate = 10\ningest.group = g\ningest.edge-node = n\ningest.metrics = load = Load");
    err = new StringWriter();
    assertEquals(2, Main.run(new PrintWriter(new StringWriter()), new PrintWriter(err), "peer", "--config", c.toString()));
    assertTrue(err.toString().contains("'ingest.metrics' wants device:metric"), err.toString());
    Path d = config("x-4", "star-client", "tcp://127.0.0.1:1", "data.source = replay\nreplay.file = s.hdsg\nreplay.speed = warp");
    err = new StringWriter();
    assertEquals(2, Main.run(new PrintWriter(new StringWriter()), new PrintWriter(err), "peer", "--config", d.toString()));
    assertTrue(err.toString().contains("'replay.speed' must be fast, real or a speed-up factor"), err.toString());
  }

  @Test
  void aRingPeerRefusesToStartWithoutItsPartnersInTheRoster() throws Exception {
    String order = "ring.order = press-01, press-02";
    List<Path> configs = List.of(config("press-01", "ring", "tcp://127.0.0.1:1", order));
    enrol(configs);
    StringWriter err = new StringWriter();
    int code = Main.run(new PrintWriter(new StringWriter()), new PrintWriter(err), "peer", "--config",
        configs.get(0).toString());
    assertEquals(2, code, err.toString());
    assertTrue(err.toString().contains("does not admit [press-02]"), err.toString());
    Path none = config("press-09", "ring", "tcp://127.0.0.1:1", "ring.order = press-09\nencryption = rot13");
    err = new StringWriter();
    assertEquals(2, Main.run(new PrintWriter(new StringWriter()), new PrintWriter(err), "peer", "--config", none.toString()));
    assertTrue(err.toString().contains("'encryption' must be auto, aes-gcm, chacha20-poly1305 or none"), err.toString());
  }

  /**
   * A device whose keys were made again (its state directory moved away, say) no longer matches the
   * roster: the others could not open its frames and would skip it every round. And a partner whose
   * signing key is missing would have its final model refused, ending the run in a timeout.
   */
  @Test
  void aRingPeerRefusesToStartWhenTheRosterHoldsOtherKeysOfItOrLacksAPartnersSigningKey() throws Exception {
    String order = "ring.order = press-01, press-02";
    List<Path> configs = List.of(config("press-01", "ring", "tcp://127.0.0.1:1", order),
        config("press-02", "ring", "tcp://127.0.0.1:1", order));
    enrol(configs);
    Files.delete(dir.resolve("state/press-01/press-01.kx")); // made again at the next start
    Files.delete(dir.resolve("state/press-01/press-01.key"));
    StringWriter err = new StringWriter();
    assertEquals(2, Main.run(new PrintWriter(new StringWriter()), new PrintWriter(err), "peer", "--config",
        configs.get(0).toString()), err.toString());
    assertTrue(err.toString().contains("the roster's [press-01.kx.pub, press-01.pub] are not this device's keys"),
        err.toString());
    Files.delete(dir.resolve("roster/press-01.pub"));
    err = new StringWriter();
    assertEquals(2, Main.run(new PrintWriter(new StringWriter()), new PrintWriter(err), "peer", "--config",
        configs.get(1).toString()), err.toString());
    assertTrue(err.toString().contains("does not admit [press-01]: add their <id>.kx.pub and <id>.pub files"),
        err.toString());
  }

  /**
   * Two devices configured with the same peer.id (press-01, each with its own state directory) beside
   * press-02: they take each other's broker connection (one MQTT client id) and fork the ledger.
   * One of them at least stops, saying that another device runs under its id (or, where the broker
   * keeps it from connecting, asking whether one does). Before, both could end with exit 0 and a
   * one-entry ledger.
   */
  @Test
  void twoDevicesWithTheSamePeerIdAreTold() throws Exception {
    try (EmbeddedBroker broker = new EmbeddedBroker().start()) {
      String order = "ring.order = press-01, press-02\nencryption = none\nack.timeout.seconds = 1\n"
          + "run.timeout.seconds = 30";
      Path first = config("press-01", "ring", broker.uri(), order);
      Path second = Files.copy(first, dir.resolve("press-01-twin.properties"));
      edit(second, "state.dir = state/press-01", "state.dir = state/press-01-twin");
      List<String[]> results = runAll(List.of(first, config("press-02", "ring", broker.uri(), order), second));
      String both = results.get(0)[2] + results.get(2)[2];
      assertTrue(!"0".equals(results.get(0)[0]) || !"0".equals(results.get(2)[0]), both);
      // told once both are connected, or, where the broker keeps the later one from connecting at all or
      // hands the client id back and forth (the embedded Moquette), in the connect's or the run's failure
      assertTrue(both.contains("another device runs as peer.id 'press-01'")
          || both.contains("another device connected as client 'plant-7-press-01', that is with this peer.id?"),
          both);
    }
  }

  /**
   * A state directory this user cannot write in (here a path through a regular file; as root no
   * permission bit stops a write) is named at start, for a run and for --init, before anything
   * connects: before, a device found it at its first commit, mid-run, naming only a file.
   */
  @Test
  void aStateDirectoryThatCannotBeWrittenIsNamedAtStart() throws Exception {
    Files.writeString(dir.resolve("a-file"), "x");
    Path cfg = config("press-01", "ring", "tcp://127.0.0.1:1", "ring.order = press-01\nencryption = none");
    edit(cfg, "state.dir = state/press-01", "state.dir = a-file/state");
    for (String[] args : List.of(new String[] {"peer", "--config", cfg.toString()},
        new String[] {"peer", "--config", cfg.toString(), "--init"})) {
      String[] r = cli(args);
      assertEquals("2", r[0], r[1] + r[2]);
      assertTrue(r[2].contains("'state.dir' " + dir.resolve("a-file/state") + " cannot be written by this user"), r[2]);
    }
  }

  /**
   * A star client configured apart from its aggregator (here 10 features against the aggregator's 11)
   * stops at the first global model, exit 2, naming what differs, where that model is signed by an
   * admitted peer; before, it refused every announcement of the round and waited for its run timeout.
   * Without encryption nothing authenticates the model, and the client refuses it and waits as before.
   */
  @Test
  void aStarClientConfiguredApartFromItsAggregatorStopsAtOnceSayingWhatDiffers() throws Exception {
    try (EmbeddedBroker broker = new EmbeddedBroker().start()) {
      Path agg = config("agg", "aggregator", broker.uri(), "star.clients = 1\nfeatures = 11");
      Path client = config("cell-1", "star-client", broker.uri(), "per-round = 15");
      edit(agg, "run.timeout.seconds = 60", "run.timeout.seconds = 20");
      enrol(List.of(agg, client));
      List<String[]> results = runAll(List.of(agg, client));
      String[] c = results.get(1);
      assertEquals("2", c[0], c[1] + c[2]);
      assertTrue(c[2].contains("stopped: the global model of round 1 from 'agg', signed by an admitted peer, has other "
          + "settings than this device's: features 11 (this device: 10). Every peer of a federation must have the "
          + "same encoder, features (for live data: channels x window.size), basis.seed and dim"), c[2]);
      // the aggregator, left waiting, says where its run stood and who is online
      String[] a = results.get(0);
      assertEquals("1", a[0], a[1] + a[2]);
      // (the client is offline by then, unless its offline announcement was slow to arrive)
      assertTrue(a[2].contains("no final model within 20 s ('run.timeout.seconds'): round 1 of 3 had updates from 0 "
          + "of 1 client(s), quorum 1; peers online now: [agg"), a[2]);
    }
    try (EmbeddedBroker broker = new EmbeddedBroker().start()) {
      Path agg = config("agg", "aggregator", broker.uri(), "star.clients = 1\nfeatures = 11\nencryption = none");
      Path client = config("cell-1", "star-client", broker.uri(), "per-round = 15\nencryption = none");
      edit(agg, "run.timeout.seconds = 60", "run.timeout.seconds = 8");
      edit(client, "run.timeout.seconds = 60", "run.timeout.seconds = 8");
      edit(agg, "state.dir = state/agg", "state.dir = state/agg-plain");
      edit(client, "state.dir = state/cell-1", "state.dir = state/cell-1-plain");
      String[] c = runAll(List.of(agg, client)).get(1);
      assertEquals("1", c[0], c[1] + c[2]);
      assertTrue(c[2].contains("This device refused ") && c[2].contains("WRONG_FEATURES: features 11, expected 10"), c[2]);
    }
    // another class count: stopped the same way, and before any of the client's samples is taken for it (each
    // announcement of the round took and lost a round's samples)
    try (EmbeddedBroker broker = new EmbeddedBroker().start()) {
      Path agg = config("agg-4", "aggregator", broker.uri(), "star.clients = 1\nfeatures = 10");
      Path client = config("cell-4", "star-client", broker.uri(), "per-round = 15");
      edit(agg, "classes = 3", "classes = 4");
      edit(agg, "run.timeout.seconds = 60", "run.timeout.seconds = 15");
      enrol(List.of(agg, client));
      String[] c = runAll(List.of(agg, client)).get(1);
      assertEquals("2", c[0], c[1] + c[2]);
      assertTrue(c[2].contains("stopped: the global model of round 1 from 'agg-4' has 4 classes, this device's 'classes' "
          + "3. Every peer of a federation must have the same classes"), c[2]);
    }
  }

  /**
   * A ring device configured apart from the others (another dim, another class count) stops with exit 2
   * when their final model, signed under the roster, comes: its predecessor skipped it every round and
   * the run ended without it, while it refused that final model and waited for its run timeout (an hour
   * by default). Only a final model that other peers than its sender took part in tells: a first peer
   * configured apart publishes its own model as final after every other refused it.
   */
  @Test
  void aRingDeviceConfiguredApartStopsAtTheFinalModelSayingWhatDiffers() throws Exception {
    String order = "ring.order = press-01, press-02, press-03\nack.timeout.seconds = 1";
    try (EmbeddedBroker broker = new EmbeddedBroker().start()) {
      List<Path> configs = List.of(config("press-01", "ring", broker.uri(), order),
          config("press-02", "ring", broker.uri(), order), config("press-03", "ring", broker.uri(), order));
      edit(configs.get(2), "dim = 400", "dim = 800");
      enrol(configs);
      List<String[]> results = runAll(configs);
      for (int i = 0; i < 2; i++) {
        assertEquals("0", results.get(i)[0], results.get(i)[1] + results.get(i)[2]);
      }
      String[] odd = results.get(2);
      assertEquals("2", odd[0], odd[1] + odd[2]);
      assertTrue(odd[2].contains("stopped: the final model of round 3 from 'press-02', signed by an admitted peer, has "
          + "other settings than this device's: dim 400 (this device: 800). Every peer of a federation must have the "
          + "same encoder"), odd[2]);
    }
    try (EmbeddedBroker broker = new EmbeddedBroker().start()) {
      List<Path> configs = List.of(config("press-11", "ring", broker.uri(), order.replace("-0", "-1")),
          config("press-12", "ring", broker.uri(), order.replace("-0", "-1")),
          config("press-13", "ring", broker.uri(), order.replace("-0", "-1")));
      edit(configs.get(2), "classes = 3", "classes = 4");
      enrol(configs);
      String[] odd = runAll(configs).get(2);
      assertEquals("2", odd[0], odd[1] + odd[2]);
      assertTrue(odd[2].contains("stopped: the final model of round 3 from 'press-12' has 3 classes, this device's "
          + "'classes' 4. Every peer of a federation must have the same classes"), odd[2]);
    }
    // the device configured apart first in the order: every other refuses its round-1 model, it skips them all
    // and publishes its own model as final, which must not stop the devices configured alike (they wait, as
    // before, and say what they refused)
    try (EmbeddedBroker broker = new EmbeddedBroker().start()) {
      String first = order.replace("-0", "-2");
      List<Path> configs = List.of(config("press-21", "ring", broker.uri(), first),
          config("press-22", "ring", broker.uri(), first), config("press-23", "ring", broker.uri(), first));
      edit(configs.get(0), "dim = 400", "dim = 800");
      for (Path alike : configs.subList(1, 3)) {
        edit(alike, "run.timeout.seconds = 60", "run.timeout.seconds = 25");
      }
      enrol(configs);
      List<String[]> results = runAll(configs);
      for (String[] alike : results.subList(1, 3)) {
        assertEquals("1", alike[0], alike[1] + alike[2]);
        assertTrue(alike[2].contains("no final model within 25 s") && alike[2].contains("rejected a final model: "
            + "WRONG_DIMENSION"), alike[2]);
      }
    }
  }

  /**
   * {@code --check} says, all at once, whether a device is ready for a run (a start stops at its first
   * problem), and records nothing: no key is created, no run begun; and it connects under a client id of
   * its own, so it can run beside the device's service.
   */
  @Test
  void checkSaysWhetherADeviceIsReadyAndRecordsNothing() throws Exception {
    try (EmbeddedBroker broker = new EmbeddedBroker().start()) {
      String order = "ring.order = press-01, press-02";
      Path one = config("press-01", "ring", broker.uri(), order);
      Path two = config("press-02", "ring", broker.uri(), order);
      String[] before = cli("peer", "--config", one.toString(), "--check");
      assertEquals("1", before[0], before[1] + before[2]);
      String out = before[1];
      assertTrue(out.contains("FAILED   keys      no identity in " + dir.resolve("state/press-01") + " yet: create it with hdfl peer --config "
          + one + " --init, and put its public keys into the roster"), out);
      assertTrue(out.contains("FAILED   roster    roster directory "), out);
      assertTrue(out.contains("ok       data      " + dir.resolve("press-01.choir_dat") + ": 45 samples x "), out);
      assertTrue(out.contains("ok       broker    " + broker.uri() + " answered in "), out);
      assertTrue(out.contains("(as client 'plant-7-press-01-check'); peers online now: []; not online yet: [press-02]"),
          out);
      assertTrue(out.contains("warning  settings  'press-01' of federation 'plant-7', ring peer of 2 in the order "
          + "[press-01, press-02]"), out);
      assertTrue(out.contains("ok       state.dir " + dir.resolve("state/press-01") + " will be created; no run yet"), out);
      assertTrue(out.endsWith("not ready: 2 of 7 checks failed\n"), out);
      assertFalse(Files.exists(dir.resolve("state/press-01")), "nothing created");

      enrol(List.of(one, two));
      List<Path> stateBefore;
      try (java.util.stream.Stream<Path> files = Files.walk(dir.resolve("state/press-01"))) {
        stateBefore = files.sorted().toList();
      }
      // the other device online, and one announced under this device's own id (its service, or a twin)
      try (io.hdfl.transport.Transport announcer = io.hdfl.transport.MqttTransport.connect(
          io.hdfl.transport.MqttSettings.builder(broker.uri()).clientId("announcer").build())) {
        for (String id : List.of("press-01", "press-02")) {
          announcer.publish(new io.hdfl.federation.Topics("plant-7").peer(id),
              "online".getBytes(java.nio.charset.StandardCharsets.UTF_8), 1, true);
        }
      }
      String[] ready = cli("peer", "--config", one.toString(), "--check");
      assertEquals("0", ready[0], ready[1] + ready[2]);
      out = ready[1];
      assertTrue(out.contains("ok       keys      " + dir.resolve("state/press-01/press-01.key") + " and "
          + dir.resolve("state/press-01/press-01.kx") + " "
          + "(owner-only)"), out);
      assertTrue(out.contains("ok       roster    " + dir.resolve("roster") + " admits this device with its own keys and every peer of the "
          + "order; hops encrypted with "), out);
      assertTrue(out.contains("ok       state.dir " + dir.resolve("state/press-01") + " is writable; no run yet"), out);
      assertTrue(out.contains("warning  broker    ") && out.contains("peers online now: [press-01, press-02]; every "
          + "other peer of the order is online; 'press-01' itself is announced online: this device's service is "
          + "running, or another device has this peer.id"), out);
      assertTrue(out.endsWith("ready, with 2 warning(s) (a device under this peer.id is online: start this one only "
          + "once it has stopped)\n"), out);
      try (java.util.stream.Stream<Path> files = Files.walk(dir.resolve("state/press-01"))) {
        assertEquals(stateBefore, files.sorted().toList(), "the check wrote nothing");
      }
      // nor left anything on the broker: the two announcements made above are all it retains
      java.util.Set<String> retained = java.util.concurrent.ConcurrentHashMap.newKeySet();
      try (io.hdfl.transport.Transport reader = io.hdfl.transport.MqttTransport.connect(
          io.hdfl.transport.MqttSettings.builder(broker.uri()).clientId("reader").build())) {
        reader.subscribe("hdfl/#", 1, (topic, payload, isRetained) -> retained.add(topic));
        Thread.sleep(1000);
      }
      assertEquals(java.util.Set.of(new io.hdfl.federation.Topics("plant-7").peer("press-01"),
          new io.hdfl.federation.Topics("plant-7").peer("press-02")), retained);
      // without the announcement under its own id, and with the other device online: ready
      try (io.hdfl.transport.Transport announcer = io.hdfl.transport.MqttTransport.connect(
          io.hdfl.transport.MqttSettings.builder(broker.uri()).clientId("announcer").build())) {
        announcer.publish(new io.hdfl.federation.Topics("plant-7").peer("press-01"),
            "offline".getBytes(java.nio.charset.StandardCharsets.UTF_8), 1, true);
      }
      String[] clear = cli("peer", "--config", one.toString(), "--check");
      assertEquals("0", clear[0], clear[1] + clear[2]);
      assertTrue(clear[1].contains("ok       broker    ") && clear[1].contains("every other peer of the order is online"),
          clear[1]);
      assertTrue(clear[1].endsWith("ready, with 1 warning(s) (hdfl peer --config " + one + " starts the run)\n"),
          clear[1]);
      // what a start would refuse, the check fails too: an aggregator without 'features', a state.dir that is a file
      Path agg = config("agg-9", "aggregator", broker.uri(), "star.clients = 1");
      Files.writeString(dir.resolve("state-file"), "not a directory");
      edit(agg, "state.dir = state/agg-9", "state.dir = state-file");
      String[] aggCheck = cli("peer", "--config", agg.toString(), "--check");
      assertEquals("1", aggCheck[0], aggCheck[1] + aggCheck[2]);
      assertTrue(aggCheck[1].contains("FAILED   data      an aggregator needs 'features'"), aggCheck[1]);
      assertTrue(aggCheck[1].contains("FAILED   state.dir " + dir.resolve("state-file") + " is not a directory"),
          aggCheck[1]);
      String[] both = cli("peer", "--config", one.toString(), "--check", "--new-run");
      assertEquals("2", both[0], both[1] + both[2]);
      assertTrue(both[2].contains("--check only checks and starts nothing"), both[2]);
    }
  }

  /**
   * A device whose connection was lost while it waited (here cut once by a proxy; two devices with one
   * peer.id take it from each other the same way) names that with what may be behind it when it stops:
   * before, it said only that its peers did not come online, which read as their problem.
   */
  @Test
  void aDeviceWhoseConnectionWasLostSaysSoWhenItStops() throws Exception {
    try (EmbeddedBroker broker = new EmbeddedBroker().start();
        io.hdfl.transport.SeveringProxy proxy = io.hdfl.transport.SeveringProxy.to(broker.port())) {
      Path cfg = config("press-01", "ring", proxy.uri(), "ring.order = press-01, press-02\nencryption = none\n"
          + "start.timeout.seconds = 8");
      ExecutorService pool = Executors.newSingleThreadExecutor();
      try {
        Future<String[]> run = pool.submit(() -> cli("peer", "--config", cfg.toString()));
        // once the device has announced itself (subscribed, and waiting for press-02), its connection is cut
        try (io.hdfl.transport.Transport watcher = io.hdfl.transport.MqttTransport.connect(
            io.hdfl.transport.MqttSettings.builder(broker.uri()).build())) {
          java.util.concurrent.CountDownLatch online = new java.util.concurrent.CountDownLatch(1);
          watcher.subscribe(new io.hdfl.federation.Topics("plant-7").peer("press-01"), 1, (t, payload, retained) -> {
            if (new String(payload, java.nio.charset.StandardCharsets.UTF_8).equals("online")) {
              online.countDown();
            }
          });
          assertTrue(online.await(60, TimeUnit.SECONDS), "press-01 announced itself");
        }
        proxy.sever();
        String[] r = run.get(60, TimeUnit.SECONDS);
        assertEquals("1", r[0], r[1] + r[2]);
        assertTrue(r[2].contains("peers [press-02] did not come online within 8 s"), r[2]);
        assertTrue(r[2].contains("(this device's connection was lost once since it connected: the network, a broker "
            + "restart, or another device connected as client 'plant-7-press-01', that is with this peer.id?)"), r[2]);
      } finally {
        pool.shutdownNow();
      }
    }
  }

  /** --init with --new-run is refused (it was ignored: --init starts no run), and creates nothing. */
  @Test
  void initWithNewRunIsRefusedAndCreatesNoIdentity() throws Exception {
    Path cfg = config("press-01", "ring", "tcp://127.0.0.1:1", "ring.order = press-01\nencryption = none");
    String[] r = cli("peer", "--config", cfg.toString(), "--init", "--new-run");
    assertEquals("2", r[0], r[1] + r[2]);
    assertTrue(r[2].contains("--init only creates this device's identity and starts no run: give --new-run to the run "
        + "that follows (hdfl peer --config " + cfg + " --new-run)"), r[2]);
    assertFalse(Files.exists(dir.resolve("state/press-01")), "nothing was created");
  }

  /**
   * Two ring devices whose settings differ (press-02 has 4 classes, press-01 3): press-02 refuses
   * press-01's models without acknowledging them, so press-01 skips it and finishes, saying the final
   * model holds no update of press-02; press-02, which never gets a model it can use, stops at its run
   * timeout saying it refused frames and that the peers' settings may differ. Before, press-02 took
   * each model and dropped it: press-01 waited for a hand-off that never went on, and both stopped at
   * their run timeout asking whether every peer was reaching the broker.
   */
  @Test
  void ringDevicesWhoseClassesDifferSayWhoWasLeftOutAndWhy() throws Exception {
    try (EmbeddedBroker broker = new EmbeddedBroker().start()) {
      String order = "ring.order = press-01, press-02\nack.timeout.seconds = 1\nencryption = none\n"
          + "run.timeout.seconds = 20";
      Path p1 = config("press-01", "ring", broker.uri(), order);
      Path p2 = config("press-02", "ring", broker.uri(), order);
      edit(p2, "classes = 3", "classes = 4");
      Dataset three = blobs(48, 7);
      int[] labels = three.labels().clone();
      for (int i = 0; i < labels.length; i += 4) {
        labels[i] = 3;
      }
      ChoirDatFormat.write(new Dataset(three.featureCount(), three.features(), labels, 4, Dataset.indexClassNames(4), "blobs4"),
          dir.resolve("press-02.choir_dat"));
      List<String[]> results = runAll(List.of(p1, p2));
      String[] first = results.get(0);
      String[] second = results.get(1);
      assertEquals("0", first[0], first[1] + first[2]);
      assertTrue(first[2].contains("WARNING: the final model holds no update of [press-02] in round 3"), first[2]);
      assertEquals("1", second[0], second[1] + second[2]);
      assertTrue(second[2].contains("This device refused ") && second[2].contains("it has 3 classes, this device's "
          + "'classes' 4") && second[2].contains("do the peers' settings differ"), second[2]);
    }
  }

  /**
   * A device that stops on an error (here: its partner never comes, start.timeout.seconds = 1) leaves
   * "offline" retained: it closes its connection cleanly, so the broker drops its last will, and its
   * retained word used to stay "online".
   */
  @Test
  void aDeviceThatStopsOnAnErrorAnnouncesItselfOffline() throws Exception {
    try (EmbeddedBroker broker = new EmbeddedBroker().start()) {
      String order = "ring.order = press-01, press-02\nstart.timeout.seconds = 1";
      List<Path> configs = List.of(config("press-01", "ring", broker.uri(), order),
          config("press-02", "ring", broker.uri(), order));
      enrol(configs);
      StringWriter err = new StringWriter();
      assertEquals(1, Main.run(new PrintWriter(new StringWriter()), new PrintWriter(err), "peer", "--config",
          configs.get(0).toString()), err.toString());
      java.util.concurrent.CompletableFuture<String> word = new java.util.concurrent.CompletableFuture<>();
      try (io.hdfl.transport.MqttTransport t = io.hdfl.transport.MqttTransport.connect(
          io.hdfl.transport.MqttSettings.builder(broker.uri()).clientId("observer").build())) {
        t.subscribe("hdfl/plant-7/peers/press-01", 1, (topic, payload, retained) ->
            word.complete(new String(payload, java.nio.charset.StandardCharsets.UTF_8)));
        assertEquals("offline", word.get(10, java.util.concurrent.TimeUnit.SECONDS), err.toString());
      }
    }
  }

  /**
   * A device whose config names an INA219 (`energy.meter = ina219`) opens it on the configured bus and
   * address, programs it and reads it before it connects; here on Pi4J's mock I2C, whose registers
   * read short as an absent chip's would: the start stops with the reason (exit 2), not mid-run.
   */
  @Test
  void aDeviceOpensTheIna219ItsConfigNamesAndStopsAtStartWhenItCannotBeRead() throws Exception {
    Path cfg = config("press-01", "ring", "tcp://127.0.0.1:1", "ring.order = press-01\nencryption = none\n"
        + "energy.meter = ina219\nenergy.ina219.bus = 1\nenergy.ina219.address = 0x41");
    StringWriter err = new StringWriter();
    assertEquals(2, Main.run(new PrintWriter(new StringWriter()), new PrintWriter(err), "peer", "--config",
        cfg.toString()), err.toString());
    assertTrue(err.toString().contains("'energy.meter = ina219': the first reading failed: ina219:i2c-1/0x41: short "
        + "read of register 0x02"), err.toString());
  }

  private static String[] cli(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Main.run(new PrintWriter(out), new PrintWriter(err), args);
    return new String[] {String.valueOf(code), out.toString(), err.toString()};
  }

  @Test
  void aRingAdmittedByARosterSignedByTheFederationKey() throws Exception {
    // the operator: a federation key, each device's public keys collected, a signed roster (no pinned files)
    assertEquals("0", cli("roster", "keygen", "--out", dir.resolve("fed.key").toString())[0]);
    String signed = "roster.federation.key = fed.pub\nroster.signed = roster.signed\nroster.dir = no-such-dir";
    try (EmbeddedBroker broker = new EmbeddedBroker().start()) {
      String order = "ring.order = press-01, press-02\n" + signed;
      List<Path> configs = List.of(config("press-01", "ring", broker.uri(), order),
          config("press-02", "ring", broker.uri(), order));
      Path collected = Files.createDirectories(dir.resolve("collected"));
      for (Path c : configs) {
        assertEquals(0, Main.run(new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()), "peer",
            "--config", c.toString(), "--init"));
        String id = c.getFileName().toString().replace(".properties", "");
        for (String suffix : List.of(".pub", ".kx.pub")) {
          Files.copy(dir.resolve("state/" + id + "/keys/" + id + suffix), collected.resolve(id + suffix));
        }
      }
      String[] r = cli("roster", "sign", "--key", dir.resolve("fed.key").toString(), "--federation", "plant-7",
          "--version", "2", "--revoke", "press-09", "--out", dir.resolve("roster.signed").toString(),
          collected.toString());
      assertEquals("0", r[0], r[2]);
      assertTrue(r[1].contains("version 2, 2 members, 1 revoked"), r[1]);
      r = cli("roster", "show", dir.resolve("roster.signed").toString(), "--key", dir.resolve("fed.pub").toString());
      assertEquals("0", r[0], r[2]);
      assertTrue(r[1].contains("member  press-01") && r[1].contains("revoked press-09"), r[1]);
      for (String[] run : runAllOk(configs)) {
        assertTrue(run[2].contains("roster version 2 (issued "), run[2]);
        // no directory of public keys to point the ledger check at
        assertTrue(run[1].contains("--keys KEYS_DIR)"), run[1]);
      }
      HdModel a = ModelFile.read(dir.resolve("state/press-01/final-model.hdfl"));
      HdModel b = ModelFile.read(dir.resolve("state/press-02/final-model.hdfl"));
      assertArrayEquals(a.prototypes().toArray(), b.prototypes().toArray());

      // started again, a finished run is only reported (its ledger is never replaced by accident)
      r = cli("peer", "--config", configs.get(0).toString());
      assertEquals("0", r[0], r[2]);
      assertTrue(r[2].contains("finished after round 3; nothing to do (start a new run with --new-run)"), r[2]);
      assertTrue(Files.size(dir.resolve("state/press-01/ledger.jsonl")) > 0);
      // a roster that revokes press-02: press-01 refuses to start, naming it
      assertEquals("0", cli("roster", "sign", "--key", dir.resolve("fed.key").toString(), "--federation", "plant-7",
          "--version", "3", "--revoke", "press-02", "--out", dir.resolve("roster.signed").toString(),
          collected.toString())[0]);
      // and a key pinned beside the signed roster (roster.dir now exists) for a peer it does not list is
      // admitted as well: said at start
      io.hdfl.security.HopKeys.generate("press-07").publish(Files.createDirectories(dir.resolve("no-such-dir")));
      r = cli("peer", "--config", configs.get(0).toString(), "--new-run");
      assertEquals("2", r[0], r[2]);
      assertTrue(r[2].contains("does not admit [press-02]"), r[2]);
      assertTrue(r[2].contains("pins keys of [press-07], which the signed roster (version 3) does not list: they are "
          + "admitted as well"), r[2]);
      // rolling back to an older roster (one without the revocation) is refused
      assertEquals("0", cli("roster", "sign", "--key", dir.resolve("fed.key").toString(), "--federation", "plant-7",
          "--version", "1", "--out", dir.resolve("roster.signed").toString(), collected.toString())[0]);
      r = cli("peer", "--config", configs.get(0).toString(), "--new-run");
      assertEquals("2", r[0], r[2]);
      assertTrue(r[2].contains("roster version 1 is older than version 3, which this device accepted before"), r[2]);
      // a roster signed by another key (or altered) is refused
      assertEquals("0", cli("roster", "keygen", "--out", dir.resolve("other.key").toString())[0]);
      assertEquals("0", cli("roster", "sign", "--key", dir.resolve("other.key").toString(), "--federation", "plant-7",
          "--version", "9", "--out", dir.resolve("roster.signed").toString(), collected.toString())[0]);
      r = cli("peer", "--config", configs.get(0).toString(), "--new-run");
      assertEquals("2", r[0], r[2]);
      assertTrue(r[2].contains(dir.resolve("roster.signed") + ": the signature does not verify under the federation key"),
          r[2]);
    }
  }

  @Test
  void aBadConfigIsOneLineNamingTheKey() throws Exception {
    Path cfg = dir.resolve("bad.properties");
    Files.writeString(cfg, "federation = f\npeer.id = a\nrole = ring\nbrokr = tcp://x:1883\n");
    StringWriter err = new StringWriter();
    int code = Main.run(new PrintWriter(new StringWriter()), new PrintWriter(err), "peer", "--config", cfg.toString());
    assertEquals(2, code);
    assertTrue(err.toString().contains("unknown key(s) [brokr]"), err.toString());
    Files.writeString(cfg, "federation = f\npeer.id = a\nrole = ring\nbroker = tcp://x:1883\nring.order = b,c\n"
        + "classes = 2\nstate.dir = s\ndata.train = d\n");
    err = new StringWriter();
    assertEquals(2, Main.run(new PrintWriter(new StringWriter()), new PrintWriter(err), "peer", "--config", cfg.toString()));
    assertTrue(err.toString().contains("'ring.order' does not contain this peer's id 'a'"), err.toString());
  }

  /**
   * A key set twice (an edit at the top of the file, an older line further down that wins): the
   * device names it at start and goes on with the last line's value.
   */
  @Test
  void aKeySetTwiceIsNamedAtStart() throws Exception {
    Path cfg = config("press-01", "ring", "tcp://127.0.0.1:1", "ring.order = press-01\nrounds = 4\nclasses = 3");
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    assertEquals(0, Main.run(new PrintWriter(out), new PrintWriter(err), "peer", "--config", cfg.toString(), "--init"),
        err.toString());
    assertTrue(err.toString().contains("WARNING: " + cfg + " sets [classes, rounds] more than once; the last line of "
        + "each counts"), err.toString());
    assertEquals(4, PeerConfig.read(cfg).settings().rounds(), "the last line counts");
    assertEquals(List.of(), PeerConfig.repeatedKeys(Files.writeString(dir.resolve("once.properties"),
        "federation = f\nrounds = 3\n")));
  }

  /**
   * A star client whose stored data cannot give every round its new samples stops with the reason,
   * as a bad input (exit 2, as every other mistake in a device's data or settings; it was 1, the exit
   * of a run that could not complete).
   */
  @Test
  void aStarClientWithTooFewSamplesStopsWithTheReason() throws Exception {
    try (EmbeddedBroker broker = new EmbeddedBroker().start()) {
      Path cfg = config("cell-1", "star-client", broker.uri(), "per-round = 40");
      enrol(List.of(cfg));
      String[] r = cli("peer", "--config", cfg.toString());
      assertEquals("2", r[0], r[1] + r[2]);
      assertTrue(r[2].contains("hdfl: error: stopped: client cell-1 holds 45 samples, fewer than the 3 x 40 new "
          + "samples of 3 rounds"), r[2]);
    }
  }
}
