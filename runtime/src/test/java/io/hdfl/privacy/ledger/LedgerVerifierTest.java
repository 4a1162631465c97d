package io.hdfl.privacy.ledger;

import static io.hdfl.privacy.ledger.LedgerTamperTest.assertFailure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hdfl.privacy.PrivacyParameters;
import io.hdfl.privacy.ledger.LedgerEntry.Schedule;
import io.hdfl.privacy.ledger.LedgerEntry.Source;
import io.hdfl.privacy.ledger.LedgerEntry.Topology;
import io.hdfl.privacy.ledger.Verification.Check;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LedgerVerifierTest {
  @TempDir Path dir;

  private static final PrivacyParameters P = LedgerFixture.PARAMS;

  private Verification verify(LedgerSimulation.Builder b) throws Exception {
    LedgerFixture f = new LedgerFixture(b.build(), dir.resolve("l" + System.nanoTime()));
    return f.verify(f.lines);
  }

  @Test
  void correctRingLedgerVerifiesWithTheSummaryLine() throws Exception {
    Verification v = verify(LedgerSimulation.ring(P).peers(100).rounds(3).samplesPerPeer(120).source(Source.SECURE));
    assertTrue(v.ok(), v.summary());
    assertEquals("ledger OK: 300 entries, 100 peers, chain intact, signatures valid, schedule privatedfl conforms",
        v.summary());
    assertEquals(Topology.RING, v.topology());
    assertEquals(0, v.badLine());
  }

  @Test
  void seededNoiseIsNamedInTheSummary() throws Exception {
    Verification v = verify(LedgerSimulation.ring(P).peers(2).rounds(1));
    assertEquals("ledger OK: 2 entries, 2 peers, chain intact, signatures valid, schedule privatedfl conforms; "
        + "seeded noise in 2 entries: not for deployment", v.summary());
  }

  @Test
  void everyScheduleAndTopologyVerifies() throws Exception {
    for (Schedule s : Schedule.values()) {
      for (LedgerSimulation.Builder b : List.of(
          LedgerSimulation.ring(P).peers(5).rounds(4).samplesPerPeer(30),
          LedgerSimulation.ring(P).shards(10, 400, 7, 90).rounds(3).skip(2, 1).skip(4, 3),
          LedgerSimulation.star(P).peers(4).rounds(5).samplesPerPeer(25),
          LedgerSimulation.star(P).shards(5, 500, 60).rounds(4).skip(1, 2).skip(3, 4),
          LedgerSimulation.star(PrivacyParameters.perSampleDelta(10000, 0.5)).peers(1).rounds(3))) {
        Verification v = verify(b.schedule(s));
        assertTrue(v.ok(), s + ": " + v.summary());
        assertEquals(s, v.schedule());
      }
    }
  }

  /**
   * A star client update the server received after averaging its round (noised and sent, in no
   * average) is recorded after that round's aggregate, chained to the model it trained on.
   */
  @Test
  void starUpdatesRecordedAfterTheirRoundsAggregateVerify() throws Exception {
    LedgerFixture f = new LedgerFixture(LedgerSimulation.star(P).peers(3).rounds(4).samplesPerPeer(50).late(2, 1)
        .late(1, 2).late(3, 3).build(), dir);
    Verification v = f.verify(f.lines);
    assertTrue(v.ok(), v.summary());
    assertEquals(16, v.entries());
    assertEquals(3, v.lateUpdates());
    assertEquals("ledger OK: 16 entries, 4 peers, chain intact, signatures valid, schedule fedhdp conforms; 3 client"
        + " updates recorded late (after their round's aggregate: sent, averaged in no round); seeded noise in 16"
        + " entries: not for deployment", v.summary());
    // round 1: client-001, client-003, aggregate, then client-002 late
    assertEquals("client-002", Tamper.peer(f.line(3)));
    assertEquals(Tamper.value(f.line(0), "prev_hash"), Tamper.value(f.line(3), "prev_hash"), "chains to the model it trained on");
    assertFalse(Tamper.value(f.line(2), "contributors").contains(LedgerCodec.hash(f.line(3))), "averaged nowhere");
    // round 2: client-002, client-003, the aggregate, which names round 1's late update
    assertEquals("[\"" + LedgerCodec.hash(f.line(3)) + "\"]", Tamper.value(f.line(6), "late"));
    assertFalse(Tamper.value(f.line(6), "contributors").contains(LedgerCodec.hash(f.line(3))));
    assertThrows(IllegalArgumentException.class, () -> LedgerSimulation.star(P).peers(3).rounds(2).late(1, 2).build(),
        "a late update of the last round would be named by no aggregate");
    for (Schedule s : Schedule.values()) {
      Verification each = verify(LedgerSimulation.star(P).peers(4).rounds(4).samplesPerPeer(25).late(4, 1).late(1, 3)
          .schedule(s));
      assertTrue(each.ok(), s + ": " + each.summary());
    }
  }

  @Test
  void aLateUpdateMustChainToTheModelItTrainedOnAndComeOncePerPeerAndRound() throws Exception {
    LedgerFixture f = new LedgerFixture(LedgerSimulation.star(P).peers(3).rounds(3).samplesPerPeer(50).late(2, 1)
        .late(2, 2).build(), dir);
    String late = f.line(3);
    assertTrue(f.verify(f.lines).ok());
    // removed: the next aggregate names it
    List<String> removed = new ArrayList<>(f.lines);
    removed.remove(3);
    assertFailure(f.verify(removed), 5, Check.CONFORMANCE, "late update " + LedgerCodec.hash(late).substring(0, 12)
        + "… is not a late update recorded since the last aggregate", "a late update removed");
    // the ledger as its aggregator holds it while round 3 waits (or cut there): round 2's late update is
    // recorded and not named yet, which only the next aggregate can do
    List<String> cut = new ArrayList<>(f.lines.subList(0, 8));
    assertEquals("client-002", Tamper.peer(cut.get(7)));
    Verification waiting = f.verify(cut);
    assertTrue(waiting.ok(), waiting.summary());
    assertEquals(2, waiting.lateUpdates());
    assertEquals(1, waiting.lateNotYetNamed());
    assertTrue(waiting.summary().contains("2 client updates recorded late (after their round's aggregate: sent,"
        + " averaged in no round), 1 of them after the last aggregate and not yet named by the next"), waiting.summary());
    assertEquals(0, f.verify(f.lines).lateNotYetNamed());
    // ... but round 3's aggregate must name it: without it in its late list (re-signed, as only the server could),
    // refused
    String last = f.line(11);
    String unnaming = last.replace(",\"late\":[\"" + LedgerCodec.hash(f.line(7)) + "\"]", "");
    assertNotEquals(last, unnaming);
    assertFailure(f.verify(f.with(11, Tamper.resign(unnaming, f.keyOf(last)))), 11, Check.CONFORMANCE,
        "names 0 of the 1 late updates recorded since the last aggregate", "an aggregate that leaves a late update out");
    // chained to the last aggregate instead (re-signed by its client): not the global model it trained on
    String rechained = Tamper.resign(Tamper.set(late, "prev_hash", "\"" + LedgerCodec.hash(f.line(2)) + "\""),
        f.keyOf(late));
    assertFailure(f.verify(f.with(3, rechained)), 3, Check.CHAIN, "prev_hash of a client update does not match",
        "late update chained to its own round's aggregate");
    // the same update recorded twice
    List<String> twice = new ArrayList<>(f.lines);
    twice.add(late);
    assertFailure(f.verify(twice), twice.size() - 1, Check.CONFORMANCE, "peer client-002 already updated",
        "a late update recorded twice");
    // a client that was averaged in round 1 cannot also have a late update of round 1
    String averaged = f.line(0); // client-001, round 1
    String second = Tamper.resign(Tamper.set(averaged, "reason", "\"again\""), f.keyOf(averaged));
    List<String> again = new ArrayList<>(f.lines);
    again.add(second);
    assertFailure(f.verify(again), again.size() - 1, Check.CONFORMANCE, "peer client-001 already updated",
        "a second update of an averaged client");
    // an update before its round's aggregate that the aggregate does not name
    // (the aggregate re-chained to it and re-signed, as only the server could)
    List<String> early = new ArrayList<>(f.lines);
    early.add(2, early.remove(3));
    String aggregate = Tamper.set(early.get(3), "prev_hash", "\"" + LedgerCodec.hash(early.get(2)) + "\"");
    assertFailure(f.verify(Tamper.forge(early, 3, aggregate, f.keyOf(aggregate), f.keys)), 3, Check.CONFORMANCE,
        "names 2 of the 3 updates", "an unaveraged update before the aggregate");
    // a late update whose noise does not start from the model it trained on
    String noisier = Tamper.resign(Tamper.set(late, "variance_present_before", "1.5"), f.keyOf(late));
    assertFailure(f.verify(f.with(3, noisier)), 3, Check.CONFORMANCE, "variance_present_before",
        "a late update claiming other noise");
  }

  @Test
  void starWithAWholeRoundSkippedVerifies() throws Exception {
    Verification v = verify(LedgerSimulation.star(P).peers(2).rounds(3).skip(1, 2).skip(2, 2));
    assertTrue(v.ok(), v.summary());
    assertEquals(6, v.entries());
    assertEquals(3, v.peers());
  }

  @Test
  void closedFormAccountantNumbersVerify() throws Exception {
    // An accountant that uses PrivateDFL's closed forms (Gamma(t) = c ln(t/(t-1))) instead of
    // differences: its numbers differ from the verifier's by rounding only.
    int k = 3;
    long n = 200;
    PrivacyLedger ledger = PrivacyLedger.inMemory(new LedgerSettings("fed", Topology.RING, Schedule.PRIVATEDFL, P));
    List<PeerKeys> keys = new ArrayList<>();
    for (int i = 0; i < k; i++) {
      keys.add(PeerKeys.generate("p" + i));
    }
    double c = P.c();
    double present = 0;
    for (int t = 1; t <= 30; t++) {
      double xi = c * Math.log(1.25 * t * n / P.delta0());
      double gamma = t == 1 ? c * Math.log(1.25 * n / P.delta0()) : c * Math.log((double) t / (t - 1));
      PeerKeys signer = keys.get((t - 1) % k);
      ledger.append(signer, NoiseRecord.update(signer.peerId(), (t - 1) / k + 1, t, n, t * n, xi, present, gamma,
          present + gamma, Source.SECURE, "closed form"));
      present += gamma;
    }
    Path d = dir.resolve("cf");
    ledger.writeTo(d.resolve("ledger.jsonl"));
    for (PeerKeys key : keys) {
      key.publish(d.resolve("keys"));
    }
    Verification v = new LedgerVerifier(KeyDirectory.open(d.resolve("keys"))).verify(d.resolve("ledger.jsonl"));
    assertTrue(v.ok(), v.summary());
  }

  @Test
  void reorderedDeletedDuplicatedEntriesBreakTheChain() throws Exception {
    LedgerFixture f = LedgerFixture.ring(dir);
    List<String> swapped = new ArrayList<>(f.lines);
    swapped.set(4, f.line(5));
    swapped.set(5, f.line(4));
    assertFailure(f.verify(swapped), 4, Check.CHAIN, "prev_hash does not match the previous line", "reorder");

    List<String> deleted = new ArrayList<>(f.lines);
    deleted.remove(5);
    assertFailure(f.verify(deleted), 5, Check.CHAIN, "prev_hash does not match", "delete");

    List<String> duplicated = new ArrayList<>(f.lines);
    duplicated.add(6, f.line(5));
    assertFailure(f.verify(duplicated), 6, Check.CHAIN, "prev_hash does not match", "duplicate");

    assertFailure(f.verify(f.lines.subList(1, f.lines.size())), 0, Check.CHAIN,
        "prev_hash of the first entry must be 64 zeros", "head cut off");
  }

  @Test
  void truncationIsAFormatError() throws Exception {
    LedgerFixture f = LedgerFixture.ring(dir);
    StringBuilder all = new StringBuilder();
    for (String l : f.lines) {
      all.append(l).append('\n');
    }
    String text = all.toString();
    Verification torn = f.verifyRaw(text.substring(0, text.length() - 50));
    assertFailure(torn, 11, Check.FORMAT, "last line has no newline", "torn");
    assertEquals("ledger INVALID at line 12: last line has no newline: the ledger was cut short "
        + "(torn write or truncated copy)", torn.summary());

    List<String> cut = new ArrayList<>(f.lines);
    cut.set(11, f.line(11).substring(0, 300));
    assertFailure(f.verify(cut), 11, Check.FORMAT, "does not end with ,\"sig\":", "cut line");

    // whole entries cut off the end leave a valid (shorter) ledger: the chain cannot show it
    Verification shorter = f.verify(f.lines.subList(0, 10));
    assertTrue(shorter.ok(), shorter.summary());
    assertEquals(10, shorter.entries());

    Verification empty = f.verifyRaw("");
    assertFalse(empty.ok());
    assertEquals("ledger INVALID: no entries (empty file)", empty.summary());
  }

  @Test
  void duplicateJsonKeyIsRejectedEvenWhenSigned() throws Exception {
    LedgerFixture f = LedgerFixture.ring(dir);
    String line = f.line(5);
    String dup = line.replace(",\"round\":2,", ",\"round\":2,\"round\":2,");
    assertFailure(f.verify(f.with(5, dup)), 5, Check.FORMAT, "not valid JSON: Duplicate field 'round'", "dup");
    String signedDup = Tamper.resign(dup, f.keyOf(line));
    assertFailure(f.verify(f.with(5, signedDup)), 5, Check.FORMAT, "not valid JSON: Duplicate field 'round'", "dup");
    String unknown = Tamper.resign(line.replace(",\"round\":2,", ",\"round\":2,\"bonus\":1,"), f.keyOf(line));
    assertFailure(f.verify(f.with(5, unknown)), 5, Check.FORMAT, "unknown field 'bonus'", "unknown");
  }

  @Test
  void wrongKeyAndUnknownPeerFailTheSignatureCheck() throws Exception {
    LedgerFixture f = LedgerFixture.ring(dir);
    String line = f.line(5);
    PeerKeys impostor = PeerKeys.generate("peer-002");
    Verification wrongKey = f.verify(Tamper.forge(f.lines, 5, line, impostor, f.keys));
    assertFailure(wrongKey, 5, Check.SIGNATURE, "signature does not verify under " + f.keysDir().resolve("peer-002.pub"),
        "wrong key");

    PeerKeys mallory = PeerKeys.generate("mallory");
    String asMallory = Tamper.set(line, "peer", "\"mallory\"");
    List<String> forged = Tamper.forge(f.lines, 5, asMallory, mallory, f.keys);
    Verification unknown = f.verify(forged);
    assertFailure(unknown, 5, Check.SIGNATURE, "unknown peer: no public key " + f.keysDir().resolve("mallory.pub"),
        "unknown peer");
    assertEquals("mallory", unknown.badPeer());
  }

  @Test
  void settingsMustAgreeFromTheFirstEntry() throws Exception {
    // a ledger whose first entry has an impossible epsilon fails on it
    LedgerFixture f = LedgerFixture.ring(dir);
    String bad = Tamper.set(f.line(0), "epsilon", "0.0");
    Verification v = f.verify(Tamper.forge(f.lines, 0, bad, f.keyOf(bad), f.keys));
    assertFailure(v, 0, Check.CONFORMANCE, "epsilon must be a finite number > 0, got 0.0", "epsilon 0");
    String negative = Tamper.set(f.line(0), "variance_added", "-1.0");
    Verification n = f.verify(Tamper.forge(f.lines, 0, negative, f.keyOf(negative), f.keys));
    assertFailure(n, 0, Check.CONFORMANCE, "variance_added must be >= 0, got -1.0", "negative");
  }
}
