package io.hdfl.privacy.ledger;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hdfl.privacy.PrivacyParameters;
import io.hdfl.privacy.ledger.LedgerEntry.Schedule;
import io.hdfl.privacy.ledger.LedgerEntry.Source;
import io.hdfl.privacy.ledger.LedgerEntry.Topology;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PrivacyLedgerTest {
  @TempDir Path dir;

  private static final PrivacyParameters P = PrivacyParameters.withDelta0(2000, 1.0, 1e-5);
  private static final LedgerSettings SETTINGS = new LedgerSettings("fed", Topology.RING, Schedule.PRIVATEDFL, P);
  private static final Clock CLOCK = Clock.fixed(Instant.parse("2025-03-04T05:06:07.891234Z"), ZoneOffset.UTC);

  /** The privatedfl update of a model holding {@code before} after {@code totalBefore} samples. */
  private static NoiseRecord update(String peer, int round, long step, long n, long totalBefore, double before) {
    double required = P.requiredVariance(totalBefore + n, 1);
    double added = Math.max(0, required - before);
    return NoiseRecord.update(peer, round, step, n, totalBefore + n, required, before, added, before + added,
        Source.SECURE, "test");
  }

  @Test
  void appendsPersistReopenAndContinue() throws Exception {
    Path file = dir.resolve("run/ledger.jsonl");
    PeerKeys a = PeerKeys.generate("a");
    PeerKeys b = PeerKeys.generate("b");
    PrivacyLedger ledger = PrivacyLedger.builder(SETTINGS).file(file).clock(CLOCK).open();
    assertEquals(LedgerEntry.GENESIS_HASH, ledger.lastHash());
    LedgerLine first = ledger.append(a, update("a", 1, 1, 100, 0, 0));
    LedgerLine second = ledger.append(b, update("b", 1, 2, 100, 100, first.entry().presentAfter()));
    assertEquals(LedgerEntry.GENESIS_HASH, first.entry().prevHash());
    assertEquals(first.hash(), second.entry().prevHash());
    assertEquals("2025-03-04T05:06:07.891Z", first.entry().timestamp());
    assertFalse(first.entry().notForDeployment());

    List<String> stored = Files.readAllLines(file);
    assertEquals(List.of(first.text(), second.text()), stored);
    assertTrue(Files.readString(file).endsWith("\n"));

    PrivacyLedger reopened = PrivacyLedger.builder(SETTINGS).file(file).clock(CLOCK).open();
    assertEquals(2, reopened.size());
    assertEquals(second.hash(), reopened.lastHash());
    assertEquals(ledger.lines(), reopened.lines());
    LedgerLine third = reopened.append(a, update("a", 2, 3, 100, 200, second.entry().presentAfter()));
    assertEquals(second.hash(), third.entry().prevHash());
    assertEquals(3, Files.readAllLines(file).size());

    // every stored line parses back to the entry that was appended
    for (LedgerLine l : reopened.lines()) {
      assertEquals(l.entry(), LedgerCodec.parse(l.text()));
    }
    Path keys = dir.resolve("run/keys");
    a.publish(keys);
    b.publish(keys);
    Verification v = new LedgerVerifier(KeyDirectory.open(keys)).verify(file);
    assertTrue(v.ok(), v.summary());
    assertEquals(3, v.entries());
    assertEquals(2, v.peers());
  }

  @Test
  void writeToGivesTheSameBytesAsAppending() throws Exception {
    Path appended = dir.resolve("a.jsonl");
    PrivacyLedger ledger = PrivacyLedger.builder(SETTINGS).file(appended).open();
    PeerKeys a = PeerKeys.generate("a");
    ledger.append(a, update("a", 1, 1, 10, 0, 0));
    ledger.append(a, update("a", 2, 2, 10, 10, ledger.lines().get(0).entry().presentAfter()));
    Path rewritten = dir.resolve("b.jsonl");
    ledger.writeTo(rewritten);
    assertArrayEquals(Files.readAllBytes(appended), Files.readAllBytes(rewritten));
  }

  @Test
  void appendRejectsAForeignSignerAndUnwritableValues() throws Exception {
    PrivacyLedger ledger = PrivacyLedger.inMemory(SETTINGS);
    PeerKeys a = PeerKeys.generate("a");
    assertEquals("entry of peer 'b' cannot be signed by 'a'",
        assertThrows(IllegalArgumentException.class, () -> ledger.append(a, update("b", 1, 1, 1, 0, 0))).getMessage());
    NoiseRecord nan = NoiseRecord.update("a", 1, 1, 1, 1, Double.NaN, 0, 0, 0, Source.SEEDED, "");
    assertThrows(IllegalArgumentException.class, () -> ledger.append(a, nan));
    assertEquals(0, ledger.size());
    assertEquals(LedgerEntry.GENESIS_HASH, ledger.lastHash());
    assertTrue(ledger.file().isEmpty());
    assertThrows(IllegalArgumentException.class, () -> NoiseRecord.aggregate("s", 1, 1, 1, 1, 1, 1, 0, 1,
        Source.SEEDED, List.of(), ""));
  }

  @Test
  void openRefusesATornOrForeignFile() throws Exception {
    Path file = dir.resolve("l.jsonl");
    PrivacyLedger ledger = PrivacyLedger.builder(SETTINGS).file(file).open();
    PeerKeys a = PeerKeys.generate("a");
    ledger.append(a, update("a", 1, 1, 10, 0, 0));
    ledger.append(a, update("a", 2, 2, 10, 10, ledger.lines().get(0).entry().presentAfter()));
    String text = Files.readString(file);

    Files.writeString(file, text.substring(0, text.length() - 40));
    IllegalArgumentException torn = assertThrows(IllegalArgumentException.class,
        () -> PrivacyLedger.builder(SETTINGS).file(file).open());
    assertEquals(file + ": line 2: last line has no newline: the ledger was cut short (torn write or truncated copy)",
        torn.getMessage());

    Files.writeString(file, text);
    LedgerSettings other = new LedgerSettings("fed", Topology.RING, Schedule.BLACKBOX, P);
    assertTrue(assertThrows(IllegalArgumentException.class, () -> PrivacyLedger.builder(other).file(file).open())
        .getMessage().startsWith(file + ": line 1: entry's federation, topology, schedule"));

    List<String> lines = Files.readAllLines(file);
    Files.write(file, List.of(lines.get(1), lines.get(0)));
    assertEquals(file + ": line 1: prev_hash does not match the entry it must chain to",
        assertThrows(IllegalArgumentException.class, () -> PrivacyLedger.builder(SETTINGS).file(file).open()).getMessage());
  }

  /**
   * A device's own ledger whose last append a power cut interrupted: a line cut short is cut off (and
   * kept beside it), a line whole but for its newline gets it; either way the ledger opens and goes on
   * chaining. A tail longer than any line is left for the reader to refuse.
   */
  @Test
  void aDevicesLedgerMendsALastLineTornByAPowerCut() throws Exception {
    Path file = dir.resolve("dev/ledger.jsonl");
    PrivacyLedger ledger = PrivacyLedger.builder(SETTINGS).file(file).open();
    PeerKeys a = PeerKeys.generate("a");
    LedgerLine first = ledger.append(a, update("a", 1, 1, 10, 0, 0));
    LedgerLine second = ledger.append(a, update("a", 2, 2, 10, 10, first.entry().presentAfter()));
    String whole = Files.readString(file);
    List<String> log = new java.util.ArrayList<>();

    Files.writeString(file, whole.substring(0, whole.length() - 40)); // the second append cut short
    PrivacyLedger mended = PrivacyLedger.builder(SETTINGS).file(file).clock(CLOCK).repairingTornLastLine(log::add).open();
    assertEquals(List.of(first), mended.lines());
    assertEquals(first.text() + "\n", Files.readString(file));
    Path kept = dir.resolve("dev/ledger.jsonl.torn-20250304T050607Z");
    assertEquals(second.text().substring(0, second.text().length() - 39), Files.readString(kept));
    assertEquals(List.of(file + ": cut off a last line torn by an interrupted append (" + Files.size(kept)
        + " bytes, kept in " + kept.getFileName() + "); the entries it may have held are appended again from the "
        + "checkpoints as the peer resumes (not a star's late update, appended as it arrived: its client's record of "
        + "releases holds it)"), log);
    assertEquals(second.text(), mended.appendLine(second.text()).text(), "the entry chains on as before");
    assertEquals(whole, Files.readString(file));

    log.clear();
    Files.writeString(file, whole.substring(0, whole.length() - 1)); // all but the newline
    mended = PrivacyLedger.builder(SETTINGS).file(file).repairingTornLastLine(log::add).open();
    assertEquals(List.of(first, second), mended.lines());
    assertEquals(whole, Files.readString(file));
    assertEquals(List.of(file + ": its last line lacked its newline (an append interrupted by a power cut): completed"),
        log);

    log.clear();
    Files.writeString(file, whole.substring(0, 50)); // the first append cut short: nothing else
    assertEquals(0, PrivacyLedger.builder(SETTINGS).file(file).repairingTornLastLine(log::add).open().size());
    assertEquals("", Files.readString(file));
    assertEquals(1, log.size());

    log.clear();
    Files.writeString(file, whole);
    PrivacyLedger.builder(SETTINGS).file(file).repairingTornLastLine(log::add).open();
    assertEquals(List.of(), log, "an intact ledger is left as it is");
    assertEquals(whole, Files.readString(file));

    Files.writeString(file, whole + "x".repeat(LedgerReader.MAX_LINE_BYTES + 1));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> PrivacyLedger.builder(SETTINGS).file(file).repairingTornLastLine(log::add).open()).getMessage()
        .startsWith(file + ": line 3: "), "no line of a ledger is that long: not a torn append, refused");
    assertEquals(List.of(), log);
  }

  @Test
  void readerBoundsLines() throws Exception {
    assertEquals("line 1: empty line", readAll("\n").getMessage());
    assertEquals("line 2: carriage return in line (ledger lines end with \\n only)", readAll("a\nb\r\n").getMessage());
    assertEquals("line 1: byte 0xc3 at column 2: ledger lines are printable ASCII", readAll("a\u00e9\n").getMessage());
    assertEquals("line 1: line longer than 65536 bytes", readAll("x".repeat(70_000) + "\n").getMessage());
    assertEquals("line 3: last line has no newline: the ledger was cut short (torn write or truncated copy)",
        readAll("a\nb\nc").getMessage());
    LedgerReader capped = new LedgerReader(stream("a\nb\nc\n"), 2);
    assertEquals("a", capped.next());
    assertEquals("b", capped.next());
    assertEquals("line 3: more than 2 entries", assertThrows(LedgerFormatException.class, capped::next).getMessage());
    LedgerReader ok = new LedgerReader(stream("x".repeat(65536) + "\n"));
    assertEquals(65536, ok.next().length());
    assertNull(ok.next());
    assertEquals(1, ok.lineNumber());
  }

  private static LedgerFormatException readAll(String text) {
    return assertThrows(LedgerFormatException.class, () -> {
      LedgerReader r = new LedgerReader(stream(text));
      List<String> lines = new ArrayList<>();
      for (String l; (l = r.next()) != null; ) {
        lines.add(l);
      }
    });
  }

  private static ByteArrayInputStream stream(String text) {
    return new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
  }

  /** A star ledger with updates recorded after their round's aggregate (late) reopens and continues. */
  @Test
  void aStarLedgerWithLateUpdatesReopensAndChainsTheNextRoundToItsLastAggregate() throws Exception {
    LedgerSimulation.Result r = LedgerSimulation.star(P).peers(3).rounds(3).samplesPerPeer(40).late(2, 1).late(3, 2)
        .build();
    Path file = dir.resolve("star.jsonl");
    r.ledger().writeTo(file);
    PrivacyLedger reopened = PrivacyLedger.builder(r.ledger().settings()).file(file).open();
    assertEquals(12, reopened.size());
    assertEquals(3, reopened.aggregateBefore(Integer.MAX_VALUE).orElseThrow().entry().round(), "the last aggregate's");
    String lastAggregate = reopened.lines().stream().filter(l -> l.entry().kind() == LedgerEntry.Kind.AGGREGATE)
        .reduce((a, b) -> b).orElseThrow().hash();
    assertEquals(lastAggregate, reopened.chainTargetFor(LedgerEntry.Kind.UPDATE), "round 4 trains on round 3's model");
    assertEquals(reopened.lines().get(0).entry().prevHash(), reopened.chainTargetFor(LedgerEntry.Kind.UPDATE, 1),
        "a late update of round 1 trained on the untrained model");
    // a late update of round 2 chains to round 1's aggregate: appended, it is taken
    String round1Aggregate = reopened.aggregateBefore(2).orElseThrow().hash();
    assertEquals(round1Aggregate, reopened.chainTargetFor(LedgerEntry.Kind.UPDATE, 2));
    String wrong = reopened.lines().get(7).text(); // client-003's late round-2 line
    assertEquals("client-003", reopened.lines().get(7).entry().peer());
    assertEquals(2, reopened.lines().get(7).entry().round());
    assertThrows(IllegalArgumentException.class, () -> reopened.appendLine(wrong.replace(round1Aggregate, lastAggregate)),
        "a late update chained to its own round's aggregate");
  }

  /**
   * What an aggregator checks before it records a late update: what ledger verify will check of it,
   * bar the signature. A line verify would refuse is not recorded (the aggregator drops it instead).
   */
  @Test
  void aLateUpdateIsRecordableOnlyAsVerifyWouldTakeIt() throws Exception {
    LedgerSimulation.Result r = LedgerSimulation.star(P).peers(3).rounds(3).samplesPerPeer(40).late(2, 1).build();
    PrivacyLedger ledger = r.ledger();
    LedgerEntry late = ledger.lines().get(3).entry(); // client-002's round-1 update, recorded late
    assertEquals("client-002", late.peer());
    assertNull(ledger.lateUpdateProblem(late));
    LedgerEntry round2 = ledger.lines().get(4).entry(); // client-001's round-2 update, on the model of round 1
    assertEquals("client-001", round2.peer());
    assertNull(ledger.lateUpdateProblem(round2), "round 2 is averaged too, and its updates start from round 1's model");
    assertTrue(ledger.lateUpdateProblem(reframed(late, 0, late.presentBefore(), late.prevHash()))
        .startsWith("its round 0 was not averaged here"));
    assertTrue(ledger.lateUpdateProblem(reframed(late, 4, late.presentBefore(), late.prevHash()))
        .startsWith("its round 4 was not averaged here"));
    assertTrue(ledger.lateUpdateProblem(reframed(late, 1, late.presentBefore(), round2.prevHash()))
        .startsWith("its entry does not chain to the global model of round 1"));
    String noisier = ledger.lateUpdateProblem(reframed(late, 1, 1.5, late.prevHash()));
    assertTrue(noisier.startsWith("variance_present_before 1.500000000 but an untrained model left 0"), noisier);
  }

  /** {@code e} with another round, variance present before and prev_hash (its signature kept). */
  private static LedgerEntry reframed(LedgerEntry e, int round, double presentBefore, String prevHash) {
    return new LedgerEntry(e.version(), e.federation(), e.peer(), e.kind(), e.topology(), round, round, e.samplesNew(),
        e.samplesTotal(), e.sensitivityScale(), e.requiredVariance(), presentBefore, e.addedVariance(),
        e.presentAfter(), e.epsilon(), e.delta0(), e.dim(), e.schedule(), e.source(), e.notForDeployment(),
        e.contributors(), e.reason(), prevHash, e.timestamp(), e.signature());
  }

  /**
   * A ledger with a file keeps only its last lines in memory (its file holds them all), so a device's
   * memory does not grow with the run; it goes on chaining and appending as before. Before, it held
   * every line, and a long continuous-learning run grew by K + 1 lines a round until the heap ran out.
   */
  @Test
  void aLedgerWithAFileKeepsOnlyItsLastLinesInMemory() throws Exception {
    LedgerSimulation.Result sim = LedgerSimulation.ring(P).federation("fed").peers(3).rounds(5).samplesPerPeer(10)
        .source(Source.SECURE).build();
    List<LedgerLine> all = sim.ledger().lines();
    assertEquals(15, all.size());
    Path file = dir.resolve("ring.jsonl");
    PrivacyLedger first = PrivacyLedger.builder(SETTINGS).file(file).keepInMemory(4).open();
    for (LedgerLine l : all.subList(0, 12)) {
      first.appendLine(l);
    }
    assertEquals(12, first.size());
    assertEquals(all.subList(8, 12), first.lines());
    PrivacyLedger reopened = PrivacyLedger.builder(SETTINGS).file(file).keepInMemory(4).open();
    assertEquals(12, reopened.size());
    assertEquals(all.subList(8, 12), reopened.lines());
    assertEquals(all.get(11).hash(), reopened.lastHash());
    for (LedgerLine l : all.subList(12, 15)) {
      reopened.appendLine(l);
    }
    assertEquals(15, reopened.size());
    assertEquals(all.subList(11, 15), reopened.lines());
    assertEquals(all.stream().map(LedgerLine::text).toList(), Files.readAllLines(file));
    IllegalStateException partial = assertThrows(IllegalStateException.class,
        () -> reopened.writeTo(dir.resolve("copy.jsonl")));
    assertTrue(partial.getMessage().contains("keeps only its last 4 lines"), partial.getMessage());
    // the default keeps thousands; a ledger without a file keeps every line
    assertEquals(PrivacyLedger.DEFAULT_KEPT_LINES, PrivacyLedger.builder(SETTINGS).file(file).open().keptLines());
    assertEquals(15, PrivacyLedger.builder(SETTINGS).file(file).open().lines().size());
    assertEquals(Integer.MAX_VALUE, PrivacyLedger.builder(SETTINGS).keepInMemory(4).open().keptLines());
    assertThrows(IllegalArgumentException.class, () -> PrivacyLedger.builder(SETTINGS).keepInMemory(0));
  }

  /**
   * A ledger keeping its last lines parses only those when it opens (a long run's ledger opened in
   * seconds, not minutes) and holds what a read of every line would: size, the kept lines, the last
   * hash, the aggregates kept; it goes on chaining. Every line's form is still checked, so a damaged
   * line anywhere stops the opening; a line that is well formed but does not parse is left to the
   * verifier, which reads every line.
   */
  @Test
  void aLongLedgerOpensFromItsLastLinesAsAReadOfEveryLineWould() throws Exception {
    PrivacyParameters p = PrivacyParameters.perSampleDelta(2000, 1.0);
    LedgerSimulation.Result sim = LedgerSimulation.star(p).federation("fed").peers(3).rounds(30).samplesPerPeer(10)
        .late(2, 7).clock(CLOCK).build();
    List<LedgerLine> all = sim.ledger().lines();
    assertEquals(120, all.size());
    LedgerSettings star = new LedgerSettings("fed", Topology.STAR, Schedule.FEDHDP, p);
    Path file = dir.resolve("long.jsonl");
    sim.writeTo(file, dir.resolve("keys"));
    // against a read of every line with the same memory, for every cut: what a device then does with
    // its ledger (chain targets, late updates it would take, aggregates it holds) is the same
    for (int keep = 1; keep <= 125; keep++) {
      PrivacyLedger read = PrivacyLedger.builder(star).file(file).keepInMemory(keep).readingEveryLine().open();
      PrivacyLedger tail = PrivacyLedger.builder(star).file(file).keepInMemory(keep).open();
      String k = "keep " + keep;
      assertEquals(read.size(), tail.size(), k);
      assertEquals(read.lines(), tail.lines(), k);
      assertEquals(read.lastHash(), tail.lastHash(), k);
      assertEquals(read.firstAggregateKept(), tail.firstAggregateKept(), k);
      for (int round = 1; round <= 31; round++) {
        assertEquals(read.chainTargetFor(LedgerEntry.Kind.UPDATE, round), tail.chainTargetFor(LedgerEntry.Kind.UPDATE,
            round), k + ", round " + round);
        assertEquals(read.aggregateBefore(round).map(PrivacyLedger.Aggregate::hash), tail.aggregateBefore(round).map(PrivacyLedger.Aggregate::hash),
            k + ", round " + round);
      }
      for (LedgerLine l : all) {
        if (l.entry().kind() == LedgerEntry.Kind.UPDATE) {
          assertEquals(read.lateUpdateProblem(l.entry()), tail.lateUpdateProblem(l.entry()), k + ": " + l.entry());
        }
      }
    }
    assertEquals(all.subList(110, 120), PrivacyLedger.builder(star).file(file).keepInMemory(10).open().lines());
    // it goes on: the next round's first update chains to the last aggregate
    LedgerSimulation.Result longer = LedgerSimulation.star(p).federation("fed").peers(3).rounds(31).samplesPerPeer(10)
        .late(2, 7).clock(CLOCK).keys(sim.keys()).build();
    assertEquals(all.get(119).text(), longer.ledger().lines().get(119).text(), "the same run, one round longer");
    PrivacyLedger tail = PrivacyLedger.builder(star).file(file).keepInMemory(10).open();
    tail.appendLine(longer.ledger().lines().get(120).text());
    assertEquals(121, tail.size());

    // a damaged line far before the kept ones still stops the opening, naming it
    List<String> lines = Files.readAllLines(file);
    List<String> damaged = new java.util.ArrayList<>(lines);
    damaged.set(4, lines.get(4).replace(',', '\t'));
    Files.write(file, damaged);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> PrivacyLedger.builder(star).file(file).keepInMemory(10).open());
    assertTrue(e.getMessage().startsWith(file + ": line 5: byte 0x09 at column "), e.getMessage());
    damaged.set(4, "");
    Files.write(file, damaged);
    assertEquals(file + ": line 5: empty line", assertThrows(IllegalArgumentException.class,
        () -> PrivacyLedger.builder(star).file(file).keepInMemory(10).open()).getMessage());
    // well formed but not an entry: the opening does not parse it; the verifier does
    damaged.set(4, lines.get(4).replace("\"kind\":\"update\"", "\"kind\":\"upgrade\""));
    Files.write(file, damaged);
    assertEquals(121, PrivacyLedger.builder(star).file(file).keepInMemory(10).open().size());
    Verification v = new LedgerVerifier(KeyDirectory.open(dir.resolve("keys"))).verify(file);
    assertFalse(v.ok());
    assertTrue(v.summary().contains("line 5"), v.summary());
  }

  /**
   * A star ledger keeping only its last lines still chains client updates to the last aggregate; it
   * refuses a late update whose round's aggregate, or the one before, has left its memory — also one
   * chained to genesis, which the ledger can no longer tell from the truth (the verifier, holding
   * every aggregate's hash, would refuse it) — and it opens a file whose late updates chain to
   * aggregates it no longer holds.
   */
  @Test
  void aStarLedgerKeepingItsLastLinesRefusesALateUpdateOfARoundItNoLongerHolds() throws Exception {
    PrivacyParameters p = PrivacyParameters.perSampleDelta(2000, 1.0);
    // r1: client-001, aggregate, client-002 late; r2: both, aggregate; r3: client-001, aggregate,
    // client-002 late; r4: both, aggregate (12 lines)
    LedgerSimulation.Result sim = LedgerSimulation.star(p).federation("fed").peers(2).rounds(4).samplesPerPeer(10)
        .late(2, 1).late(2, 3).build();
    List<LedgerLine> all = sim.ledger().lines();
    assertEquals(12, all.size());
    LedgerSettings star = new LedgerSettings("fed", Topology.STAR, Schedule.FEDHDP, p);
    Path file = dir.resolve("star.jsonl");
    sim.writeTo(file, dir.resolve("keys"));
    PrivacyLedger kept = PrivacyLedger.builder(star).file(file).keepInMemory(3).open();
    PrivacyLedger whole = PrivacyLedger.builder(star).file(file).open();
    assertEquals(12, kept.size());
    assertEquals(whole.chainTargetFor(LedgerEntry.Kind.UPDATE), kept.chainTargetFor(LedgerEntry.Kind.UPDATE));
    assertEquals(4, kept.firstAggregateKept().getAsInt());
    assertEquals(1, whole.firstAggregateKept().getAsInt());
    assertNull(kept.chainTargetFor(LedgerEntry.Kind.UPDATE, 4), "round 3's aggregate left memory");
    String tooOld = "was averaged too long ago to record (the ledger keeps the aggregates of its last 3 lines in memory";
    // round 1: its aggregate left memory
    LedgerEntry lateOfRound1 = all.get(2).entry();
    assertEquals("client-002", lateOfRound1.peer());
    assertNull(whole.lateUpdateProblem(lateOfRound1), "the whole ledger would take it (dedup is the aggregator's)");
    assertTrue(kept.lateUpdateProblem(lateOfRound1).contains("round 1 " + tooOld), kept.lateUpdateProblem(lateOfRound1));
    // round 4, the first kept: the aggregate before it left memory, so its chain target is unknown
    LedgerEntry ofRound4 = all.get(10).entry();
    assertNull(whole.lateUpdateProblem(ofRound4));
    assertTrue(kept.lateUpdateProblem(ofRound4).contains("round 4 " + tooOld), kept.lateUpdateProblem(ofRound4));
    // a round-4 update chained to genesis, as if it had trained on an empty model: not taken for one
    LedgerLine forged = kept.sign(sim.keys().get("client-002"), NoiseRecord.update("client-002", 4, 4, 10, 10,
        p.requiredVariance(10, 1), 0, p.requiredVariance(10, 1), p.requiredVariance(10, 1), Source.SEEDED, "forged"),
        LedgerEntry.GENESIS_HASH);
    assertTrue(kept.lateUpdateProblem(forged.entry()).contains(tooOld), kept.lateUpdateProblem(forged.entry()));
    IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class, () -> kept.appendLine(forged));
    assertTrue(unknown.getMessage().contains("chains to an aggregate this ledger no longer holds"), unknown.getMessage());
    assertEquals(12, Files.readAllLines(file).size(), "nothing appended");
    // client-002's late update of round 3 (line 9) chains to round 2's aggregate (line 6): a ledger
    // keeping 2 lines has dropped that aggregate when it reads line 9, and opens the file all the same
    PrivacyLedger two = PrivacyLedger.builder(star).file(file).keepInMemory(2).open();
    assertEquals(12, two.size());
    assertEquals(all.subList(10, 12), two.lines());
  }
}
