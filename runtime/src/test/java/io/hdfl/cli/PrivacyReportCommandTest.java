package io.hdfl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hdfl.privacy.PrivacyParameters;
import io.hdfl.privacy.composition.ObserverGuarantee;
import io.hdfl.privacy.composition.ScheduleExposure;
import io.hdfl.privacy.schedule.PrivateDflSchedule;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PrivacyReportCommandTest {
  @TempDir Path dir;

  @Test
  void reportFromARealLedgerEqualsTheScheduleAndRefusesATamperedOne() throws Exception {
    Path run = simulate("run");

    CliRun r = CliRun.of("privacy", "report", run.toString(), "--json");
    assertEquals(0, r.code(), r.err());
    JsonNode j = new ObjectMapper().readTree(r.out());
    assertEquals(8, j.get("entries").asInt());
    JsonNode observers = j.get("observers");
    assertEquals(3, observers.size());
    // Equal shards (30 samples per peer): the ledger's noise is the schedule's, so the reports agree.
    List<ObserverGuarantee> expected = ScheduleExposure.observers(
        PrivateDflSchedule.of(PrivacyParameters.withDelta0(300, 1.0, 1e-3), 4, 30, 2), 1, false, false);
    for (int i = 0; i < 3; i++) {
      assertEquals(expected.get(i).observer(), observers.get(i).get("observer").asText());
      assertEquals(expected.get(i).epsilonRdp(), observers.get(i).get("epsilon_rdp").asDouble(),
          1e-9 * expected.get(i).epsilonRdp());
    }
    CliRun human = CliRun.of("privacy", "report", run.toString());
    assertTrue(human.out().contains("NOT for deployment") && human.out().contains("wire reader"), human.out());

    List<String> lines = Files.readAllLines(run.resolve("ledger.jsonl"));
    lines.set(2, lines.get(2).replace("\"round\":1", "\"round\":2"));
    Files.write(run.resolve("ledger.jsonl"), lines);
    CliRun bad = CliRun.of("privacy", "report", run.toString());
    assertEquals(1, bad.code());
    assertTrue(bad.out().contains("ledger INVALID at line 3"), bad.out());
  }

  /**
   * A star ledger that ends with a late update the next aggregate has yet to name (its aggregator
   * waits for that round, or the ledger was cut there) is reported with a warning saying so.
   */
  @Test
  void aLedgerEndingBeforeTheAggregateThatNamesALateUpdateIsReportedWithAWarning() throws Exception {
    Path run = dir.resolve("star");
    io.hdfl.privacy.ledger.LedgerSimulation.star(PrivacyParameters.perSampleDelta(300, 1.0)).peers(3).rounds(3)
        .samplesPerPeer(20).late(2, 2).build().writeTo(run.resolve("ledger.jsonl"), run.resolve("keys"));
    List<String> lines = Files.readAllLines(run.resolve("ledger.jsonl"));
    Files.write(run.resolve("ledger.jsonl"), lines.subList(0, 8)); // round 2's aggregate, then the late update
    CliRun r = CliRun.of("privacy", "report", run.toString(), "--retrain-epochs", "1", "--json");
    assertEquals(0, r.code(), r.err());
    assertTrue(r.err().contains("WARNING: the ledger ends before the aggregate that names its last 1 late update(s)"),
        r.err());
    JsonNode j = new ObjectMapper().readTree(r.out());
    assertEquals(1, j.get("late_updates").asInt());
    assertEquals(1, j.get("late_not_yet_named").asInt());
    CliRun text = CliRun.of("privacy", "report", run.toString(), "--retrain-epochs", "1");
    assertEquals(0, text.code(), text.err());
    assertTrue(text.err().contains("late update(s)"), text.err());
    Files.write(run.resolve("ledger.jsonl"), lines);
    CliRun complete = CliRun.of("privacy", "report", run.toString(), "--retrain-epochs", "1");
    assertEquals(0, complete.code(), complete.err());
    assertFalse(complete.err().contains("late update"), complete.err());
  }

  /**
   * A client's update the aggregator never recorded (client-002's in round 1, with the fewest samples
   * and so the least noise of the run: lost on the way, and the client stopped) is in the client's
   * record of what it sent: given
   * with --releases it counts for the aggregator and the wire reader, whose worst case it becomes; the
   * ledger alone understates them. `ledger verify --releases` lists it.
   */
  @Test
  void anUpdateTheLedgerLacksCountsWhenTheClientsRecordIsGiven() throws Exception {
    PrivacyParameters p = PrivacyParameters.perSampleDelta(300, 1.0);
    java.time.Clock clock = java.time.Clock.fixed(java.time.Instant.parse("2026-11-28T00:00:00Z"),
        java.time.ZoneOffset.UTC);
    var sent = io.hdfl.privacy.ledger.LedgerSimulation.star(p).peers(3).rounds(3).shards(20, 10, 20).clock(clock)
        .build();
    Path run = dir.resolve("star");
    var recorded = io.hdfl.privacy.ledger.LedgerSimulation.star(p).peers(3).rounds(3).shards(20, 10, 20).clock(clock)
        .keys(sent.keys()).skip(2, 1).skip(2, 2).skip(2, 3).build();
    recorded.writeTo(run.resolve("ledger.jsonl"), run.resolve("keys"));
    // its round-1 update, lost on the way (and then the client stopped)
    Path releases = dir.resolve("cell-2-releases.jsonl");
    Files.write(releases, List.of(sent.ledger().lines().stream().filter(l -> l.entry().peer().equals("client-002"))
        .findFirst().orElseThrow().text()));

    JsonNode alone = new ObjectMapper().readTree(CliRun.of("privacy", "report", run.toString(), "--retrain-epochs", "1",
        "--json").out());
    CliRun r = CliRun.of("privacy", "report", run.toString(), "--retrain-epochs", "1", "--releases", releases.toString(),
        "--json");
    assertEquals(0, r.code(), r.err() + r.out());
    JsonNode with = new ObjectMapper().readTree(r.out());
    assertEquals(1, with.get("unrecorded_releases").asInt());
    assertEquals(0, alone.get("unrecorded_releases").asInt());
    double aggregatorAlone = observer(alone, "aggregator").get("epsilon_rdp").asDouble();
    double aggregatorWith = observer(with, "aggregator").get("epsilon_rdp").asDouble();
    assertTrue(aggregatorWith > aggregatorAlone, aggregatorWith + " against " + aggregatorAlone);
    assertEquals(observer(alone, "final-model user").get("epsilon_rdp").asDouble(),
        observer(with, "final-model user").get("epsilon_rdp").asDouble(), 0.0, "in no average");
    CliRun text = CliRun.of("privacy", "report", run.toString(), "--retrain-epochs", "1", "--releases", releases.toString());
    assertTrue(text.out().contains("1 client update(s) from --releases records that the ledger lacks"), text.out());

    CliRun verify = CliRun.of("ledger", "verify", run.resolve("ledger.jsonl").toString(), "--releases",
        releases.toString());
    assertEquals(0, verify.code(), verify.out() + verify.err());
    assertTrue(verify.out().contains("releases of client-002 (" + releases + "): 1 update(s), 0 in the ledger; not in it")
        && verify.out().contains("round 1 (variance_added"), verify.out());
    JsonNode vj = new ObjectMapper().readTree(CliRun.of("ledger", "verify", run.resolve("ledger.jsonl").toString(),
        "--releases", releases.toString(), "--json").out());
    assertEquals(1, vj.get("releases").get(0).get("unrecorded").get(0).get("round").asInt());

    // a record that does not check is no basis for a report, and fails the verification
    Files.writeString(releases, Files.readString(releases).replace("\"samples_new\":10,", "\"samples_new\":11,"));
    CliRun bad = CliRun.of("privacy", "report", run.toString(), "--retrain-epochs", "1", "--releases", releases.toString());
    assertEquals(1, bad.code());
    assertTrue(bad.out().contains("INVALID") && bad.out().contains("signature does not verify"), bad.out());
    assertEquals(1, CliRun.of("ledger", "verify", run.resolve("ledger.jsonl").toString(), "--releases",
        releases.toString()).code());
    JsonNode badJson = new ObjectMapper().readTree(CliRun.of("ledger", "verify", run.resolve("ledger.jsonl").toString(),
        "--releases", releases.toString(), "--json").out());
    assertFalse(badJson.get("ok").asBoolean(), "ok covers the records too");
    assertFalse(badJson.get("releases").get(0).get("ok").asBoolean());
  }

  private static JsonNode observer(JsonNode report, String name) {
    for (JsonNode o : report.get("observers")) {
      if (o.get("observer").asText().equals(name)) {
        return o;
      }
    }
    throw new AssertionError("no observer " + name + " in " + report);
  }

  /**
   * The ledger does not record the retraining epochs; the run folder's summary does. The report used
   * to assume 1 unless told, so a run with 3 passes a round was reported with a third of its
   * retraining sensitivity.
   */
  @Test
  void theRetrainingEpochsComeFromTheRunFolderUnlessGivenAndADifferenceIsWarnedOf() throws Exception {
    Path run = simulate("run3", "--epochs", "3");
    List<ObserverGuarantee> expected = ScheduleExposure.observers(
        PrivateDflSchedule.of(PrivacyParameters.withDelta0(300, 1.0, 1e-3), 4, 30, 2), 3, false, false);
    JsonNode j = new ObjectMapper().readTree(CliRun.of("privacy", "report", run.toString(), "--json").out());
    assertEquals(3, j.get("retrain_epochs").asInt(), "from the run's summary.md");
    assertEquals(expected.get(0).epsilonRdp(), j.get("observers").get(0).get("epsilon_rdp").asDouble(),
        1e-9 * expected.get(0).epsilonRdp());
    CliRun told = CliRun.of("privacy", "report", run.toString(), "--retrain-epochs", "1", "--json");
    assertEquals(0, told.code(), told.err());
    assertEquals(1, new ObjectMapper().readTree(told.out()).get("retrain_epochs").asInt(), "as given");
    assertTrue(told.err().contains("WARNING: --retrain-epochs 1, but the run's summary.md records 3"), told.err());
    Files.delete(run.resolve("summary.md")); // as in a device's state directory
    CliRun unknown = CliRun.of("privacy", "report", run.toString(), "--json");
    assertEquals(0, unknown.code(), unknown.err());
    assertTrue(unknown.err().contains("does not record the retraining epochs per round and no summary.md beside it "
        + "does: 1 is assumed"), unknown.err());
  }

  /** A PrivateDFL ring of 4 peers of 30 samples, 2 rounds, D=300, over the loopback, into {@code dir/name}. */
  private Path simulate(String name, String... extra) throws Exception {
    Path train = SyntheticData.write(SyntheticData.blobs(120, 12, 4, 1), dir.resolve("train.choir_dat"));
    Path test = SyntheticData.write(SyntheticData.blobs(40, 12, 4, 2), dir.resolve("test.choir_dat"));
    Path run = dir.resolve(name);
    List<String> args = new java.util.ArrayList<>(List.of("simulate", "--train", train.toString(), "--test",
        test.toString(), "--transport", "loopback", "--peers", "4", "--rounds", "2", "--dim", "300", "--out",
        run.toString(), "--json"));
    args.addAll(List.of(extra));
    CliRun sim = CliRun.of(args.toArray(new String[0]));
    assertEquals(0, sim.code(), sim.err());
    return run;
  }
}
