package io.hdfl.device;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hdfl.cli.Main;
import io.hdfl.privacy.PrivacyParameters;
import io.hdfl.privacy.ledger.KeyDirectory;
import io.hdfl.privacy.ledger.LedgerCodec;
import io.hdfl.privacy.ledger.LedgerEntry;
import io.hdfl.privacy.ledger.LedgerVerifier;
import io.hdfl.privacy.ledger.Verification;
import io.hdfl.privacy.schedule.ModelNoiseState;
import io.hdfl.privacy.schedule.NoiseDecision;
import io.hdfl.privacy.schedule.NoisePolicy;
import io.hdfl.privacy.schedule.ScheduleMode;
import io.hdfl.transport.EmbeddedBroker;
import io.hdfl.transport.MosquittoProcess;
import java.io.Closeable;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Crash safety of {@code hdfl peer} (README "Crash safety"): devices run as separate JVM processes
 * against a real broker; each crash point of the README's table is hit once (the JVM halts there, as
 * after {@code kill -9}), plus a SIGKILL at an arbitrary moment, and every dead device is started again
 * with its state directory. The run must finish with a verifying ledger holding every step exactly once,
 * the noise the schedule requires for exactly the updates that happened, and the very model a run
 * without crashes computes — so no noise was drawn twice and no model or entry was lost.
 */
class CrashRecoveryTest {
  @TempDir Path dir;

  /** The test's own Mosquitto when installed (as in CI), else the embedded broker. */
  private static final class Broker implements Closeable {
    private final MosquittoProcess mosquitto;
    private final EmbeddedBroker embedded;

    Broker(Path dir) throws Exception {
      if (MosquittoProcess.binary().isPresent()) {
        mosquitto = MosquittoProcess.startPlain(Files.createDirectories(dir.resolve("mosquitto")));
        embedded = null;
      } else {
        mosquitto = null;
        embedded = new EmbeddedBroker().start();
      }
    }

    String uri() {
      return mosquitto != null ? mosquitto.uri() : embedded.uri();
    }

    @Override
    public void close() {
      try {
        if (mosquitto != null) {
          mosquitto.close();
        } else {
          embedded.close();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private static final List<String> RING = List.of("p1", "p2", "p3");
  private static final int RING_ROUNDS = 4;

  private static DeviceFleet ring(Path dir, String federation, String broker) throws Exception {
    DeviceFleet f = new DeviceFleet(Files.createDirectories(dir), federation);
    for (String id : RING) {
      f.device(id, "ring", broker, "ring.order = " + String.join(", ", RING), "rounds = " + RING_ROUNDS);
    }
    f.enrol();
    return f;
  }

  /**
   * {@code systemctl stop} sends SIGTERM: the device says that it stops and where what it committed is,
   * and exits 143 (a clean stop for the unit). Before, its journal ended mid-run without a word.
   */
  @Test
  void aDeviceStoppedBySigtermSaysSo() throws Exception {
    try (Broker broker = new Broker(dir)) {
      DeviceFleet f = ring(dir.resolve("sigterm"), "stop-ring", broker.uri());
      Path log = f.dir().resolve("p2-stopped.log");
      Process p = f.start("p2", null, log); // its partners never come: it waits for a model
      try {
        long until = System.nanoTime() + 60_000_000_000L;
        while (p.isAlive() && !Files.readString(log).contains("running in federation") && System.nanoTime() < until) {
          Thread.sleep(50);
        }
        assertTrue(Files.readString(log).contains("hdfl peer p2: ring p2 running in federation stop-ring"),
            Files.readString(log));
        p.destroy(); // SIGTERM
        assertTrue(p.waitFor(30, java.util.concurrent.TimeUnit.SECONDS), "still running after SIGTERM");
        assertEquals(143, p.exitValue(), Files.readString(log));
        assertTrue(Files.readString(log).contains("hdfl peer p2: stopping on a signal: what it committed is in "
            + f.stateDir("p2") + "; started again, it resumes a run in progress or reports a finished one"),
            Files.readString(log));
      } finally {
        p.destroyForcibly();
      }
    }
  }

  /**
   * A ring device whose successor took the model and then went down for good (here halted once its
   * acknowledgement was at the broker) says at its run timeout where the model went: its last step,
   * who acknowledged it, and who is online. Before, it asked only whether every peer was running.
   */
  @Test
  void aRingDeviceAtItsRunTimeoutSaysWhoTookTheModel() throws Exception {
    try (Broker broker = new Broker(dir)) {
      DeviceFleet f = new DeviceFleet(Files.createDirectories(dir.resolve("lost")), "lost-ring");
      for (String id : List.of("p1", "p2")) {
        f.device(id, "ring", broker.uri(), "ring.order = p1, p2", "rounds = 3");
      }
      f.enrol();
      Path cfg = f.dir().resolve("p1.properties");
      String config = Files.readString(cfg);
      assertTrue(config.contains("run.timeout.seconds = 150"), config);
      Files.writeString(cfg, config.replace("run.timeout.seconds = 150", "run.timeout.seconds = 40"));
      Path log1 = f.dir().resolve("p1.log");
      Path log2 = f.dir().resolve("p2.log");
      Process p2 = f.start("p2", "ring.acked:2", log2); // its ack of step 1 is at the broker
      Process p1 = f.start("p1", null, log1);
      try {
        assertTrue(p2.waitFor(90, java.util.concurrent.TimeUnit.SECONDS), "p2 halted at its crash point");
        assertTrue(p1.waitFor(90, java.util.concurrent.TimeUnit.SECONDS), "p1 stopped at its run timeout");
        assertEquals(1, p1.exitValue(), Files.readString(log1));
        // p2's last will has reached p1 by then, unless the broker was slow to publish it
        assertTrue(Files.readString(log1).contains("no final model within 40 s ('run.timeout.seconds'): this peer's last "
            + "step was 1, acknowledged by 'p2' (it, or a peer after it, holds the model); peers online now: [p1"),
            Files.readString(log1));
      } finally {
        p1.destroyForcibly();
        p2.destroyForcibly();
      }
    }
  }

  /** What a power cut in the middle of a ledger append leaves: its last line cut short (and no newline). */
  private static void tearLastLedgerLine(Path state) {
    try {
      Path ledger = state.resolve("ledger.jsonl");
      io.hdfl.io.AtomicFile.truncate(ledger, Files.size(ledger) - 30);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** The device's restart after {@link #tearLastLedgerLine} cut the torn line off and kept it beside the ledger. */
  private static void assertTornLineMended(DeviceFleet fleet, String id) throws IOException {
    try (java.util.stream.Stream<Path> files = Files.list(fleet.stateDir(id))) {
      List<Path> kept = files.filter(f -> f.getFileName().toString().startsWith("ledger.jsonl.torn-")).toList();
      assertEquals(1, kept.size(), kept.toString());
      assertTrue(Files.size(kept.get(0)) > 100, "most of a signed line");
    }
  }

  private static long lines(Path file) {
    try {
      return Files.exists(file) ? Files.readAllLines(file).size() : 0;
    } catch (java.io.IOException e) {
      return 0; // being appended to
    }
  }

  @Test
  void aRingResumesAfterACrashAtEveryPointAndASigkill() throws Exception {
    try (Broker broker = new Broker(dir)) {
      DeviceFleet reference = ring(dir.resolve("reference"), "ring-ref", broker.uri());
      reference.runInProcess();
      DeviceFleet fleet = ring(dir.resolve("crashes"), "ring-crash", broker.uri());
      // steps: p1 takes 1, 4, 7, 10; p2 2, 5, 8, 11; p3 3, 6, 9, 12 (the final model)
      List<DeviceFleet.Crash> crashes = List.of(
          new DeviceFleet.Crash("p2", "ring.received:2"),
          new DeviceFleet.Crash("p3", "ring.persisted:3"),
          new DeviceFleet.Crash("p1", "ring.acked:4"),
          new DeviceFleet.Crash("p2", "ring.trained:5"),
          new DeviceFleet.Crash("p3", "ring.checkpointed:6"),
          // and a power cut in the middle of that append: the ledger's last line torn
          new DeviceFleet.Crash("p1", "ring.archived:7", CrashRecoveryTest::tearLastLedgerLine),
          new DeviceFleet.Crash("p2", "ring.forwarded:8"),
          new DeviceFleet.Crash("p3", "ring.ack-received:9"),
          new DeviceFleet.Crash("p1", "ring.delivered:10"),
          new DeviceFleet.Crash("p3", "ring.final-published:12"),
          new DeviceFleet.Crash("p1", "device.final-archived:12"));
      // and a plain kill -9 of p2 at whatever it is doing once p1 has archived step 7
      List<DeviceFleet.Kill> kills = List.of(
          new DeviceFleet.Kill("p2", f -> lines(f.stateDir("p1").resolve("ledger.jsonl")) >= 7));
      Map<String, DeviceFleet.Device> run = fleet.runProcesses(crashes, kills, Duration.ofSeconds(150));

      for (DeviceFleet.Crash c : crashes) {
        assertTrue(run.get(c.peer()).reached.contains(c.point()), c + " was reached: " + run.get(c.peer()).reached);
      }
      assertEquals(1, run.get("p2").killed, "p2 was killed once");
      assertTornLineMended(fleet, "p1");
      // the crashes changed nothing: every device holds the model a run without crashes computes
      byte[] expected = Files.readAllBytes(reference.stateDir("p1").resolve("final-model.hdfl"));
      for (String id : RING) {
        assertArrayEquals(expected, Files.readAllBytes(fleet.stateDir(id).resolve("final-model.hdfl")), id);
      }
      // the ledger of p3 (it took the last step) is complete: every step once, verifying
      Path keys = fleet.auditKeys();
      List<String> full = Files.readAllLines(fleet.stateDir("p3").resolve("ledger.jsonl"));
      Verification v = new LedgerVerifier(KeyDirectory.open(keys)).verify(fleet.stateDir("p3").resolve("ledger.jsonl"));
      assertTrue(v.ok(), v.summary());
      List<LedgerEntry> entries = full.stream().map(LedgerCodec::parse).collect(Collectors.toList());
      assertEquals(java.util.stream.LongStream.rangeClosed(1, RING.size() * RING_ROUNDS).boxed().toList(),
          entries.stream().map(LedgerEntry::step).toList(), "every step exactly once, in order");
      // every device's copy verifies and is that whole chain (no orphaned, repeated or missing entry)
      for (String id : RING) {
        Path ledger = fleet.stateDir(id).resolve("ledger.jsonl");
        Verification own = new LedgerVerifier(KeyDirectory.open(keys)).verify(ledger);
        assertTrue(own.ok(), id + ": " + own.summary());
        assertEquals(full, Files.readAllLines(ledger), id);
      }
      // the noise is exactly what the schedule requires for the updates that happened ...
      NoisePolicy policy = NoisePolicy.of(ScheduleMode.PRIVATEDFL, PrivacyParameters.withDelta0(256, 2, 1e-3), 1.0);
      ModelNoiseState state = ModelNoiseState.EMPTY;
      double added = 0;
      for (LedgerEntry e : entries) {
        NoiseDecision d = policy.decide(state, e.samplesNew());
        assertEquals(d.added(), e.addedVariance(), "step " + e.step());
        assertEquals(d.presentAfter(), e.presentAfter(), "step " + e.step());
        added += e.addedVariance();
        state = d.after();
      }
      LedgerEntry last = entries.get(entries.size() - 1);
      assertEquals(last.requiredVariance(), added, 1e-9 * added, "the noise added in all equals the requirement");
      // ... and the same, entry by entry, as in the run without crashes
      List<LedgerEntry> ref = Files.readAllLines(reference.stateDir("p3").resolve("ledger.jsonl")).stream()
          .map(LedgerCodec::parse).toList();
      for (int i = 0; i < ref.size(); i++) {
        assertEquals(ref.get(i).addedVariance(), entries.get(i).addedVariance(), "step " + (i + 1));
        assertEquals(ref.get(i).samplesTotal(), entries.get(i).samplesTotal(), "step " + (i + 1));
      }
    }
  }

  /**
   * A ring peer learning from a live source that restarts has lost the windows it had (they are not
   * kept), so at its next turn it bundles everything it collected since the restart: its entry says so
   * in samples_bundled (all it trained on), where a peer that did not restart bundles only the windows
   * that arrived since its previous turn. Two presses replaying recorded sessions; p2 halts once its
   * round-2 step (step 4) is delivered, and its restart goes on in its recording after the samples read
   * before (until the twentieth session it started again from the beginning and bundled windows it had
   * bundled before).
   */
  @Test
  void aLiveRingPeerRestartedRecordsThatItBundledItsNewWindows() throws Exception {
    try (Broker broker = new Broker(dir)) {
      DeviceFleet fleet = new DeviceFleet(Files.createDirectories(dir.resolve("live")), "live-ring");
      List<LedgerEntry> entries = replayingRingHaltingP2AfterRound2(fleet, broker, 20);
      LedgerEntry afterRestart = entries.get(5); // p2's round-3 step
      assertEquals("p2", afterRestart.peer());
      assertEquals(6, afterRestart.step());
      assertTrue(afterRestart.samplesNew() > 0);
      assertEquals(afterRestart.samplesNew(), afterRestart.bundledSamples(), "it bundled everything it trained on");
      LedgerEntry notRestarted = entries.get(4); // p1's round-3 step: only the windows since its round-2 turn
      assertEquals("p1", notRestarted.peer());
      assertTrue(notRestarted.bundledSamples() < notRestarted.samplesNew(), notRestarted.bundledSamples() + " of "
          + notRestarted.samplesNew());
      // what it bundled after the restart are new windows: the replay went on after the samples read before
      // its round-2 commit (at least the warm-up and its round-1 windows of 10 samples), not from the start
      assertTrue(skipped(fleet, "p2", 2) >= 300 + 40 * 10, "p2's second launch skipped what the first read");
    }
  }

  /**
   * A ring peer whose replayed recording is used up (1 s: 20 windows after the warm-up, all read for
   * its first turn) and which restarts after its round-2 step: it goes on with nothing left to learn rather than read the recording again or stop, takes its
   * round-3 turn with no data of its own (samples_new 0), and the run ends with a verifying ledger.
   */
  @Test
  void aRingPeerWhoseRecordingIsUsedUpGoesOnWithoutDataAfterARestart() throws Exception {
    try (Broker broker = new Broker(dir)) {
      DeviceFleet fleet = new DeviceFleet(Files.createDirectories(dir.resolve("short")), "short-ring");
      List<LedgerEntry> entries = replayingRingHaltingP2AfterRound2(fleet, broker, 1);
      String restart = Files.readString(fleet.dir().resolve("p2-2.log"));
      assertTrue(skipped(fleet, "p2", 2) == 500, "the whole recording (1 s at 500 Hz) was read before the restart");
      assertTrue(restart.contains("has nothing left to learn: this peer takes its turns with no data of its own"),
          restart);
      assertEquals(6, entries.size());
      LedgerEntry afterRestart = entries.get(5);
      assertEquals("p2", afterRestart.peer());
      assertEquals(0, afterRestart.samplesNew(), "nothing of the recording learned again");
      assertTrue(Files.exists(fleet.stateDir("p2").resolve("final-model.hdfl")));
    }
  }

  /**
   * Two presses p1, p2 replaying recorded sessions (p1's of 20 s, p2's of {@code p2Seconds}) in a ring
   * of 3 rounds; p2 halts once its round-2 step (step 4) is delivered and is started again. Returns
   * p1's ledger entries, once the ledger verifies.
   */
  private List<LedgerEntry> replayingRingHaltingP2AfterRound2(DeviceFleet fleet, Broker broker, int p2Seconds)
      throws Exception {
    for (int m = 1; m <= 2; m++) {
      PeerCommandTest.CliRunHelper.record(fleet.dir().resolve("press-0" + m + ".hdsg"), m, m == 2 ? p2Seconds : 20);
      fleet.device("p" + m, "ring", broker.uri(), "ring.order = p1, p2", "rounds = 3", "data.source = replay",
          "replay.file = press-0" + m + ".hdsg", "per-round = 40", "window.warmup = 300");
    }
    fleet.enrol();
    Map<String, DeviceFleet.Device> run = fleet.runProcesses(List.of(new DeviceFleet.Crash("p2", "ring.delivered:4")),
        List.of(), Duration.ofSeconds(150));
    assertTrue(run.get("p2").reached.contains("ring.delivered:4"), run.get("p2").reached.toString());
    Path ledger = fleet.stateDir("p1").resolve("ledger.jsonl");
    Verification v = new LedgerVerifier(KeyDirectory.open(fleet.auditKeys())).verify(ledger);
    assertTrue(v.ok(), v.summary());
    return Files.readAllLines(ledger).stream().map(LedgerCodec::parse).toList();
  }

  /** The samples a device's {@code launch}th process skipped in its replayed source (its log line). */
  private static long skipped(DeviceFleet fleet, String id, int launch) throws IOException {
    String log = Files.readString(fleet.dir().resolve(id + "-" + launch + ".log"));
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("live data: skipped the (\\d+) samples of (.+) read "
        + "before the restart\n").matcher(log);
    assertTrue(m.find(), log);
    return Long.parseLong(m.group(1));
  }

  /**
   * A star client learning from the synthetic machine, halted right after committing its round-2
   * update: its restart re-sends that update and learns its round-3 windows from where the machine's
   * samples stood at that commit, not from the machine's first samples (learned in round 1).
   */
  @Test
  void aLiveStarClientRestartedGoesOnFromWhereItsSourceStood() throws Exception {
    try (Broker broker = new Broker(dir)) {
      DeviceFleet fleet = new DeviceFleet(Files.createDirectories(dir.resolve("live-star")), "live-star");
      fleet.device("agg", "aggregator", broker.uri(), "star.clients = 2", "features = 900", "rounds = 3");
      for (int m = 1; m <= 2; m++) {
        fleet.device("c" + m, "star-client", broker.uri(), "rounds = 3", "data.source = synthetic-machining",
            "synthetic.machine = " + m, "per-round = 20", "window.warmup = 500");
      }
      fleet.enrol();
      Map<String, DeviceFleet.Device> run = fleet.runProcesses(
          List.of(new DeviceFleet.Crash("c1", "client.checkpointed:2")), List.of(), Duration.ofSeconds(150));
      assertTrue(run.get("c1").reached.contains("client.checkpointed:2"), run.get("c1").reached.toString());
      assertTrue(skipped(fleet, "c1", 2) >= 500 + 2 * 20 * 10, "the warm-up and two rounds of 20 windows of 10 samples");
      Path ledger = fleet.stateDir("agg").resolve("ledger.jsonl");
      Verification v = new LedgerVerifier(KeyDirectory.open(fleet.auditKeys())).verify(ledger);
      assertTrue(v.ok(), v.summary());
      assertEquals(9, Files.readAllLines(ledger).size(), "every update and aggregate once");
    }
  }

  private static final List<String> STAR = List.of("agg", "c1", "c2");
  private static final int STAR_ROUNDS = 8;

  private static DeviceFleet star(Path dir, String federation, String broker) throws Exception {
    DeviceFleet f = new DeviceFleet(Files.createDirectories(dir), federation);
    f.device("agg", "aggregator", broker, "star.clients = 2", "features = 10", "rounds = " + STAR_ROUNDS);
    for (String id : List.of("c1", "c2")) {
      f.device(id, "star-client", broker, "per-round = 5", "rounds = " + STAR_ROUNDS); // 8 x 5 of the 45 samples
    }
    f.enrol();
    return f;
  }

  @Test
  void aStarResumesAfterCrashesOfAClientAndOfTheAggregator() throws Exception {
    try (Broker broker = new Broker(dir)) {
      DeviceFleet reference = star(dir.resolve("reference"), "star-ref", broker.uri());
      reference.runInProcess();
      DeviceFleet fleet = star(dir.resolve("crashes"), "star-crash", broker.uri());
      List<DeviceFleet.Crash> crashes = List.of(
          new DeviceFleet.Crash("agg", "aggregator.collected:1"),
          new DeviceFleet.Crash("c1", "client.trained:2"),
          new DeviceFleet.Crash("agg", "aggregator.averaged:3"),
          new DeviceFleet.Crash("c1", "client.checkpointed:4"),
          new DeviceFleet.Crash("agg", "aggregator.checkpointed:5"),
          new DeviceFleet.Crash("c1", "client.published:6"),
          new DeviceFleet.Crash("agg", "aggregator.archived:7", CrashRecoveryTest::tearLastLedgerLine),
          new DeviceFleet.Crash("agg", "aggregator.published:8"));
      Path aggLedger = fleet.stateDir("agg").resolve("ledger.jsonl");
      List<DeviceFleet.Kill> kills = List.of(new DeviceFleet.Kill("c2", f -> lines(aggLedger) >= 9));
      Map<String, DeviceFleet.Device> run = fleet.runProcesses(crashes, kills, Duration.ofSeconds(150));

      for (DeviceFleet.Crash c : crashes) {
        assertTrue(run.get(c.peer()).reached.contains(c.point()), c + " was reached: " + run.get(c.peer()).reached);
      }
      assertTornLineMended(fleet, "agg");
      byte[] expected = Files.readAllBytes(reference.stateDir("agg").resolve("final-model.hdfl"));
      for (String id : STAR) {
        assertArrayEquals(expected, Files.readAllBytes(fleet.stateDir(id).resolve("final-model.hdfl")), id);
      }
      Verification v = new LedgerVerifier(KeyDirectory.open(fleet.auditKeys())).verify(aggLedger);
      assertTrue(v.ok(), v.summary());
      List<LedgerEntry> entries = Files.readAllLines(aggLedger).stream().map(LedgerCodec::parse).toList();
      List<String> expectedOrder = new ArrayList<>();
      for (int r = 1; r <= STAR_ROUNDS; r++) {
        expectedOrder.addAll(List.of(r + " c1 update", r + " c2 update", r + " agg aggregate"));
      }
      assertEquals(expectedOrder, entries.stream().map(e -> e.round() + " " + e.peer() + " " + e.kind().wire()).toList(),
          "every client update and every aggregate exactly once");
      // each client's record of what it sent: every round once (a restart records its committed update
      // once, before sending it again), and each of them in the aggregator's ledger
      for (String id : List.of("c1", "c2")) {
        Path releases = fleet.stateDir(id).resolve("releases.jsonl");
        assertEquals(java.util.stream.IntStream.rangeClosed(1, STAR_ROUNDS).boxed().toList(),
            Files.readAllLines(releases).stream().map(l -> LedgerCodec.parse(l).round()).toList(), id);
        io.hdfl.privacy.ledger.ReleaseAudit audit = io.hdfl.privacy.ledger.ReleaseAudit.check(releases, aggLedger,
            KeyDirectory.open(fleet.auditKeys()));
        assertTrue(audit.ok() && audit.recorded() == STAR_ROUNDS, audit.summary());
      }
      // the noise: each client adds what the accountant requires on top of the global model's noise,
      // the aggregator what its own requirement lacks (nothing here), exactly as in the run without crashes
      PrivacyParameters p = PrivacyParameters.perSampleDelta(256, 2);
      NoisePolicy client = NoisePolicy.of(ScheduleMode.FEDHDP, p, 1.0);
      NoisePolicy server = NoisePolicy.of(ScheduleMode.FEDHDP, p, 0.5);
      ModelNoiseState global = ModelNoiseState.EMPTY;
      List<ModelNoiseState> round = new ArrayList<>();
      for (LedgerEntry e : entries) {
        if (e.kind() == LedgerEntry.Kind.UPDATE) {
          NoiseDecision d = client.decide(global, e.samplesNew());
          assertEquals(d.added(), e.addedVariance(), "round " + e.round() + " " + e.peer());
          round.add(d.after());
        } else {
          NoiseDecision d = server.decide(ModelNoiseState.average(global.samplesAbsorbed(), round), 0);
          assertEquals(d.added(), e.addedVariance(), "round " + e.round() + " aggregate");
          assertEquals(d.presentAfter(), e.presentAfter(), "round " + e.round() + " aggregate");
          global = new ModelNoiseState(d.presentAfter(), d.samplesTotal());
          round.clear();
        }
      }
      List<LedgerEntry> ref = Files.readAllLines(reference.stateDir("agg").resolve("ledger.jsonl")).stream()
          .map(LedgerCodec::parse).toList();
      assertEquals(ref.size(), entries.size());
      for (int i = 0; i < ref.size(); i++) {
        assertEquals(ref.get(i).addedVariance(), entries.get(i).addedVariance(), "entry " + (i + 1));
        assertEquals(ref.get(i).presentAfter(), entries.get(i).presentAfter(), "entry " + (i + 1));
      }
    }
  }

  private static String[] peer(Path config) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Main.run(new PrintWriter(out), new PrintWriter(err), "peer", "--config", config.toString());
    return new String[] {String.valueOf(code), err.toString()};
  }

  @Test
  void aDamagedCheckpointIsRefusedAndTheLedgerKept() throws Exception {
    DeviceFleet f = new DeviceFleet(dir, "damaged");
    Path cfg = f.device("p1", "ring", "tcp://127.0.0.1:1", "ring.order = p1, p2", "encryption = none");
    Path state = Files.createDirectories(f.stateDir("p1"));
    StateCheckpoints checkpoints = new StateCheckpoints(state, "damaged", "p1", "ring",
        io.hdfl.codec.Expectations.builder().build());
    checkpoints.commit(new io.hdfl.federation.RingCheckpoint(3, true, 1234, null));
    Path ledger = Files.writeString(state.resolve("ledger.jsonl"), "{\"a ledger\":1}\n");
    Path file = state.resolve("checkpoint/ring.ckpt");
    byte[] bytes = Files.readAllBytes(file);
    bytes[bytes.length / 2] ^= 0x10; // bit rot
    Files.write(file, bytes);
    String[] r = peer(cfg);
    assertEquals("2", r[0], r[1]);
    assertTrue(r[1].contains(file + ": checksum mismatch (the file was damaged or edited); refusing to resume"), r[1]);
    assertEquals(1, r[1].strip().lines().filter(l -> l.startsWith("hdfl: error:")).count(), r[1]);
    assertEquals("{\"a ledger\":1}\n", Files.readString(ledger), "the ledger is untouched");
    // truncated
    Files.write(file, java.util.Arrays.copyOf(bytes, 20));
    r = peer(cfg);
    assertEquals("2", r[0], r[1]);
    assertTrue(r[1].contains(file + ": is truncated"), r[1]);
    // another device's checkpoint
    Files.delete(file);
    new StateCheckpoints(state, "damaged", "p2", "ring", io.hdfl.codec.Expectations.builder().build())
        .commit(new io.hdfl.federation.RingCheckpoint(3, true, 1234, null));
    r = peer(cfg);
    assertEquals("2", r[0], r[1]);
    assertTrue(r[1].contains("belongs to ring 'p2' of federation 'damaged', not to this configuration"), r[1]);
    assertEquals("{\"a ledger\":1}\n", Files.readString(ledger), "the ledger is untouched");
  }

  @Test
  void aLedgerWithoutACheckpointIsNotDiscarded() throws Exception {
    DeviceFleet f = new DeviceFleet(dir, "orphan");
    Path cfg = f.device("p1", "ring", "tcp://127.0.0.1:1", "ring.order = p1, p2", "encryption = none");
    Path ledger = Files.writeString(Files.createDirectories(f.stateDir("p1")).resolve("ledger.jsonl"), "{}\n");
    String[] r = peer(cfg);
    assertEquals("2", r[0], r[1]);
    assertTrue(r[1].contains(ledger + " holds a ledger but " + f.stateDir("p1").resolve("checkpoint")
        + " no checkpoint of a run in progress or finished"), r[1]);
    assertEquals("{}\n", Files.readString(ledger));
    // a star client's record of what it sent belongs to one run in the same way
    Path client = f.device("c1", "star-client", "tcp://127.0.0.1:1", "encryption = none");
    Path releases = Files.writeString(Files.createDirectories(f.stateDir("c1")).resolve("releases.jsonl"), "{}\n");
    r = peer(client);
    assertEquals("2", r[0], r[1]);
    assertTrue(r[1].contains(releases + " holds a record of sent updates but " + f.stateDir("c1").resolve("checkpoint")
        + " no checkpoint of a run in progress or finished"), r[1]);
    assertEquals("{}\n", Files.readString(releases));
  }

  /**
   * A start that stops after the device opened its live source (here: a ledger without a checkpoint,
   * found after the replayed recording is open) closes the source: a device restarted in-process, or a
   * supervisor that retries without exiting, held the file (or an ingest connection) until the JVM ended.
   */
  @Test
  void aStartThatStopsAfterOpeningItsLiveSourceClosesIt() throws Exception {
    DeviceFleet f = new DeviceFleet(dir, "orphan-live");
    Path recording = f.dir().resolve("press-01.hdsg");
    PeerCommandTest.CliRunHelper.record(recording, 1, 2);
    Path cfg = f.device("p1", "ring", "tcp://127.0.0.1:1", "ring.order = p1, p2", "encryption = none",
        "data.source = replay", "replay.file = press-01.hdsg", "per-round = 40", "window.warmup = 300");
    Files.writeString(Files.createDirectories(f.stateDir("p1")).resolve("ledger.jsonl"), "{}\n");
    for (int attempt = 0; attempt < 3; attempt++) {
      String[] r = peer(cfg);
      assertEquals("2", r[0], r[1]);
      assertTrue(r[1].contains("holds a ledger but"), r[1]);
      assertEquals(List.of(), openDescriptorsOf(recording), "the recording is closed after the failed start");
    }
  }

  /** This process's open file descriptors that refer to {@code file} (Linux's /proc/self/fd). */
  private static List<Path> openDescriptorsOf(Path file) throws IOException {
    Path target = file.toRealPath();
    List<Path> open = new ArrayList<>();
    try (var fds = Files.list(Path.of("/proc/self/fd"))) {
      for (Path fd : (Iterable<Path>) fds::iterator) {
        try {
          if (Files.readSymbolicLink(fd).equals(target)) {
            open.add(fd);
          }
        } catch (IOException e) {
          // the descriptor closed (or was the listing's own) while we looked
        }
      }
    }
    return open;
  }
}
