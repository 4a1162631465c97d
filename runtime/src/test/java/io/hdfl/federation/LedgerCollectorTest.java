package io.hdfl.federation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hdfl.privacy.PrivacyParameters;
import io.hdfl.privacy.ledger.LedgerCodec;
import io.hdfl.privacy.ledger.LedgerEntry.Schedule;
import io.hdfl.privacy.ledger.LedgerEntry.Source;
import io.hdfl.privacy.ledger.LedgerEntry.Topology;
import io.hdfl.privacy.ledger.LedgerLine;
import io.hdfl.privacy.ledger.LedgerSettings;
import io.hdfl.privacy.ledger.NoiseRecord;
import io.hdfl.privacy.ledger.PeerKeys;
import io.hdfl.privacy.ledger.PrivacyLedger;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LedgerCollectorTest {
  private static final PrivacyParameters P = PrivacyParameters.withDelta0(2000, 1.0, 1e-5);
  private static final LedgerSettings RING = new LedgerSettings("fed", Topology.RING, Schedule.PRIVATEDFL, P);
  private static final PeerKeys A = PeerKeys.generate("a");
  private static final PeerKeys B = PeerKeys.generate("b");

  /** A signed ring line of {@code peer} at {@code step}, chained to {@code prev}. */
  private static String line(PrivacyLedger signer, PeerKeys peer, long step, String prev) {
    double required = P.requiredVariance(100 * step, 1);
    return signer.sign(peer, NoiseRecord.update(peer.peerId(), 1, step, 100, 100 * step, required, 0, required,
        required, Source.SEEDED, "test"), prev).text();
  }

  /** A chain of {@code n} lines from genesis, alternating peers a and b. */
  private static List<String> chain(int n) {
    PrivacyLedger ledger = PrivacyLedger.inMemory(RING);
    List<String> lines = new ArrayList<>();
    String prev = io.hdfl.privacy.ledger.LedgerEntry.GENESIS_HASH;
    for (int i = 1; i <= n; i++) {
      String text = line(ledger, i % 2 == 1 ? A : B, i, prev);
      lines.add(text);
      prev = LedgerCodec.hash(text);
    }
    return lines;
  }

  private static List<String> texts(List<LedgerLine> lines) {
    return lines.stream().map(LedgerLine::text).toList();
  }

  @Test
  void keepsEachLineOnceAndOrdersTheLineageWhateverTheArrivalOrder() {
    List<String> lines = chain(6);
    LedgerCollector c = new LedgerCollector(RING);
    // peers report on their own threads, and a resumed hand-off reports its entry again
    for (int i : new int[] {2, 0, 0, 1, 2, 3, 5, 4, 5}) {
      c.add(lines.get(i));
    }
    List<LedgerLine> ordered = c.ordered(lines.subList(3, 6));
    assertEquals(lines, texts(ordered));
    for (int i = 0; i < ordered.size(); i++) {
      assertEquals(i + 1, ordered.get(i).entry().step(), "each line is parsed with its text");
    }
  }

  @Test
  void aForkOffTheFinalLineageIsNotPartOfTheLedger() {
    List<String> lines = chain(4);
    PrivacyLedger signer = PrivacyLedger.inMemory(RING);
    // a slow peer forwarded a stale copy: a second line extending line 2, dropped by its successor
    String fork = line(signer, B, 3, LedgerCodec.hash(lines.get(1)));
    LedgerCollector c = new LedgerCollector(RING);
    for (String text : List.of(lines.get(0), lines.get(1), fork, lines.get(2), lines.get(3))) {
      c.add(text);
    }
    List<String> ordered = texts(c.ordered(lines));
    assertEquals(lines, ordered);
    assertFalse(ordered.contains(fork));
  }

  @Test
  void aMissingEntryOfTheLineageIsReported() {
    List<String> lines = chain(4);
    LedgerCollector c = new LedgerCollector(RING);
    c.add(lines.get(0));
    c.add(lines.get(2));
    c.add(lines.get(3));
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> c.ordered(lines.subList(2, 4)));
    assertTrue(e.getMessage().contains("missing entry " + LedgerCodec.hash(lines.get(1)).substring(0, 12)),
        e.getMessage());
  }

  @Test
  void aLineOfAnotherFederationInTheLineageIsRefused() {
    LedgerSettings other = new LedgerSettings("other", Topology.RING, Schedule.PRIVATEDFL, P);
    String foreign = line(PrivacyLedger.inMemory(other), A, 1, io.hdfl.privacy.ledger.LedgerEntry.GENESIS_HASH);
    LedgerCollector c = new LedgerCollector(RING);
    c.add(foreign);
    assertThrows(IllegalArgumentException.class, () -> c.ordered(List.of(foreign)));
  }

  @Test
  void withoutAFinalTailEveryLineIsKeptOnceInArrivalOrder() {
    List<String> lines = chain(3);
    LedgerCollector c = new LedgerCollector(RING);
    for (int i : new int[] {0, 1, 2, 1}) {
      c.add(lines.get(i));
    }
    assertEquals(lines, texts(c.ordered(List.of())));
  }
}
