package io.hdfl.privacy.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hdfl.privacy.PrivacyParameters;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A star client's record of what it sent, checked against the aggregator's ledger. Two simulated runs
 * with the same keys and clock: in one, client-002's round-2 update reaches the aggregator late (it is
 * in the ledger, named by the round-3 aggregate); in the other it never arrives (client-002 is absent
 * from round 2), while the client's own record holds it either way.
 */
class ReleaseAuditTest {
  private static final PrivacyParameters P = PrivacyParameters.perSampleDelta(300, 1.0);
  private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-28T00:00:00Z"), ZoneOffset.UTC);

  @TempDir Path dir;

  private LedgerSimulation.Builder run() {
    return LedgerSimulation.star(P).peers(3).rounds(3).samplesPerPeer(20).clock(CLOCK);
  }

  /** client-002's lines of the run where its round-2 update came late: what its record holds. */
  private Path releasesOfClientTwo(LedgerSimulation.Result late, UnaryOperator<List<String>> edit) throws Exception {
    List<String> own = new ArrayList<>();
    for (LedgerLine l : late.ledger().lines()) {
      if (l.entry().peer().equals("client-002")) {
        own.add(l.text());
      }
    }
    Path file = dir.resolve("releases-" + System.nanoTime() + ".jsonl");
    Files.write(file, edit.apply(own));
    return file;
  }

  /**
   * client-002's record from {@code run}, and after it an update of {@code round} the client signed,
   * with its round-3 numbers, chained to the aggregate of round {@code onAggregate}.
   */
  private Path withSignedUpdate(LedgerSimulation.Result run, int round, int onAggregate) throws Exception {
    String aggregate = run.ledger().lines().stream().filter(l -> l.entry().kind() == LedgerEntry.Kind.AGGREGATE
        && l.entry().round() == onAggregate).findFirst().orElseThrow().hash();
    LedgerEntry own = run.ledger().lines().stream().filter(l -> l.entry().peer().equals("client-002")
        && l.entry().round() == 3).findFirst().orElseThrow().entry();
    String signed = run.ledger().sign(run.keys().get("client-002"), NoiseRecord.update("client-002", round, round,
        own.samplesNew(), own.samplesTotal(), own.requiredVariance(), own.presentBefore(), own.addedVariance(),
        own.presentAfter(), own.source(), ""), aggregate).text();
    return releasesOfClientTwo(run, l -> {
      List<String> more = new ArrayList<>(l);
      more.add(signed);
      return more;
    });
  }

  @Test
  void anUpdateTheAggregatorNeverRecordedIsFoundAndEveryOtherMatches() throws Exception {
    LedgerSimulation.Result late = run().late(2, 2).build();
    late.writeTo(dir.resolve("late.jsonl"), dir.resolve("keys"));
    LedgerSimulation.Result lost = run().keys(late.keys()).skip(2, 2).build();
    lost.writeTo(dir.resolve("lost.jsonl"), dir.resolve("keys"));
    KeyDirectory keys = KeyDirectory.open(dir.resolve("keys"));
    assertTrue(new LedgerVerifier(keys).verify(dir.resolve("lost.jsonl")).ok());
    Path record = releasesOfClientTwo(late, l -> l);

    ReleaseAudit inLate = ReleaseAudit.check(record, dir.resolve("late.jsonl"), keys);
    assertTrue(inLate.ok(), inLate.summary());
    assertEquals(3, inLate.releases());
    assertEquals(3, inLate.recorded(), "the late update is in that ledger");
    assertTrue(inLate.summary().endsWith("3 update(s), all in the ledger"), inLate.summary());

    ReleaseAudit inLost = ReleaseAudit.check(record, dir.resolve("lost.jsonl"), keys);
    assertTrue(inLost.ok(), inLost.summary());
    assertEquals("client-002", inLost.peer());
    assertEquals(2, inLost.recorded());
    assertEquals(1, inLost.unrecorded().size());
    assertEquals(2, inLost.unrecorded().get(0).round());
    assertTrue(inLost.summary().contains("not in it") && inLost.summary().contains("round 2 (variance_added"),
        inLost.summary());
  }

  @Test
  void aRecordThatDoesNotCheckIsRefusedWithItsLine() throws Exception {
    LedgerSimulation.Result late = run().late(2, 2).build();
    late.writeTo(dir.resolve("late.jsonl"), dir.resolve("keys"));
    KeyDirectory keys = KeyDirectory.open(dir.resolve("keys"));
    Path ledger = dir.resolve("late.jsonl");
    String other = late.ledger().lines().stream().filter(l -> l.entry().peer().equals("client-001")).findFirst()
        .orElseThrow().text();
    // another federation's run, whose aggregates this ledger does not hold
    LedgerSimulation.Result elsewhere = run().federation("other-plant").keys(late.keys()).build();
    String foreign = elsewhere.ledger().lines().stream()
        .filter(l -> l.entry().peer().equals("client-002") && l.entry().round() == 2).findFirst().orElseThrow().text();
    String[][] cases = {
        {"another client", "in the record of 'client-002'"},
        {"rounds", "round 2 after round 3"},
        {"altered", "signature does not verify"},
        {"foreign", "differ from the ledger's"},
        {"torn", "has no newline"}};
    for (String[] c : cases) {
      Path record = releasesOfClientTwo(late, own -> {
        List<String> l = new ArrayList<>(own);
        switch (c[0]) {
          case "another client" -> l.add(1, other);
          case "rounds" -> l.add(l.remove(1));
          case "altered" -> l.set(1, l.get(1).replace("\"samples_new\":20", "\"samples_new\":21"));
          case "foreign" -> l.set(1, foreign);
          default -> { }
        }
        return l;
      });
      if (c[0].equals("torn")) {
        String text = Files.readString(record);
        Files.writeString(record, text.substring(0, text.length() - 30));
      }
      ReleaseAudit a = ReleaseAudit.check(record, ledger, keys);
      assertFalse(a.ok(), c[0]);
      assertTrue(a.problem().contains(c[1]), c[0] + ": " + a.problem());
    }
  }

  @Test
  void anUpdateTrainedOnAGlobalModelTheLedgerDoesNotHoldIsRefused() throws Exception {
    // the same federation, but a run whose aggregates differ (client-001 was absent from round 1); in the
    // ledger client-002 sent only its round-1 update (the same in both runs)
    LedgerSimulation.Result run = run().skip(2, 2).skip(2, 3).build();
    run.writeTo(dir.resolve("ledger.jsonl"), dir.resolve("keys"));
    LedgerSimulation.Result otherRun = run().keys(run.keys()).skip(1, 1).build();
    KeyDirectory keys = KeyDirectory.open(dir.resolve("keys"));
    Path record = dir.resolve("releases.jsonl");
    Files.write(record, otherRun.ledger().lines().stream()
        .filter(l -> l.entry().peer().equals("client-002") && l.entry().round() <= 2).map(LedgerLine::text).toList());
    ReleaseAudit a = ReleaseAudit.check(record, dir.resolve("ledger.jsonl"), keys);
    assertFalse(a.ok());
    assertTrue(a.problem().startsWith("line 2: its update of round 2 was not trained on the global model of that round"),
        a.problem());
  }

  @Test
  void aRingLedgerHasNoClientReleases() throws Exception {
    LedgerSimulation.Result ring = LedgerSimulation.ring(P).peers(2).rounds(2).samplesPerPeer(20).clock(CLOCK).build();
    ring.writeTo(dir.resolve("ring.jsonl"), dir.resolve("keys"));
    Path record = dir.resolve("releases.jsonl");
    Files.write(record, List.of(ring.ledger().lines().get(0).text()));
    IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
        () -> ReleaseAudit.check(record, dir.resolve("ring.jsonl"), KeyDirectory.open(dir.resolve("keys"))));
    assertTrue(e.getMessage().contains("is a ring's ledger"), e.getMessage());
  }

  /**
   * The record must hold every update of its client that the ledger holds (else it is incomplete, or
   * another run's), each trained on the global model of its round (not an older one); a client that
   * sat out a round, or whose record is empty, is fine; a client's record given twice is refused.
   */
  @Test
  void aRecordMustBeCompleteAndChainedToItsRoundsGlobalModel() throws Exception {
    LedgerSimulation.Result run = run().skip(2, 2).build();
    run.writeTo(dir.resolve("ledger.jsonl"), dir.resolve("keys"));
    Path ledger = dir.resolve("ledger.jsonl");
    KeyDirectory keys = KeyDirectory.open(dir.resolve("keys"));
    Path whole = releasesOfClientTwo(run, l -> l);
    ReleaseAudit sat = ReleaseAudit.check(whole, ledger, keys);
    assertTrue(sat.ok() && sat.releases() == 2 && sat.unrecorded().isEmpty(), sat.summary());

    ReleaseAudit cut = ReleaseAudit.check(releasesOfClientTwo(run, l -> l.subList(0, 1)), ledger, keys);
    assertFalse(cut.ok());
    assertTrue(cut.problem().startsWith("the ledger holds 1 update(s) of client-002 that the record lacks (round(s) [3])"),
        cut.problem());

    // a round-4 update signed by the client but trained on the round-1 global model
    ReleaseAudit old = ReleaseAudit.check(withSignedUpdate(run, 4, 1), ledger, keys);
    assertFalse(old.ok());
    assertTrue(old.problem().startsWith("line 3: its update of round 4 was not trained on the global model of that round"),
        old.problem());

    // an update of round 5 when the ledger's last aggregate is of round 3: no global model of round 5 exists
    ReleaseAudit future = ReleaseAudit.check(withSignedUpdate(run, 5, 3), ledger, keys);
    assertFalse(future.ok());
    assertTrue(future.problem().startsWith("line 3: an update of round 5, but the ledger's last aggregate is of round 3"),
        future.problem());

    Path empty = Files.writeString(dir.resolve("empty.jsonl"), "");
    ReleaseAudit none = ReleaseAudit.check(empty, ledger, keys);
    assertTrue(none.ok(), none.summary());
    assertEquals("releases " + empty + ": no update recorded", none.summary());

    List<ReleaseAudit> twice = ReleaseAudit.checkAll(List.of(whole, whole), ledger, keys);
    assertTrue(twice.get(0).ok());
    assertFalse(twice.get(1).ok());
    assertTrue(twice.get(1).problem().startsWith("a second record of client-002"), twice.get(1).problem());
  }
}
