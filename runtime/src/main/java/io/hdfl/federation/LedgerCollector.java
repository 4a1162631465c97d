package io.hdfl.federation;

import io.hdfl.privacy.ledger.LedgerCodec;
import io.hdfl.privacy.ledger.LedgerEntry;
import io.hdfl.privacy.ledger.LedgerLine;
import io.hdfl.privacy.ledger.LedgerSettings;
import io.hdfl.privacy.ledger.PrivacyLedger;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A ring simulation's ledger lines, kept once each as the peers commit them ({@link
 * RingPeer#reportingEntries}; a peer that resumes a hand-off reports its entry again). They are only
 * kept while the run goes on; they are parsed, hashed and checked once, when the run's ledger is
 * asked for ({@link #ordered}). Parsing them as they came would put the JSON parser's JIT
 * compilation, and the work itself, on the peers' threads while the ring needs them.
 */
final class LedgerCollector {
  private final LedgerSettings settings;
  /** Every distinct line seen, in arrival order. */
  private final Set<String> seen = new LinkedHashSet<>();

  /** @param settings the federation's ledger settings (lines that do not match are refused) */
  LedgerCollector(LedgerSettings settings) {
    this.settings = settings;
  }

  /** Takes a line; a line seen before is ignored. */
  synchronized void add(String text) {
    seen.add(text);
  }

  /**
   * The ledger: the final model's lineage in chain order, walked back from the entry it carries last
   * (entries off that lineage, e.g. from a fork a slow peer started and its successor dropped, are not
   * part of the model's history); every line in arrival order if the final model carries none. Each
   * line is checked as it is appended (it parses, matches the settings, chains to the one before).
   *
   * @throws IllegalStateException if the lineage misses an entry
   * @throws IllegalArgumentException if a line of the ledger is malformed or refused
   */
  synchronized List<LedgerLine> ordered(List<String> finalTail) {
    if (finalTail.isEmpty()) {
      return check(new ArrayList<>(seen));
    }
    Map<String, String> byHash = new HashMap<>();
    for (String text : seen) {
      byHash.put(LedgerCodec.hash(text), text);
    }
    List<String> lineage = new ArrayList<>();
    String at = LedgerCodec.hash(finalTail.get(finalTail.size() - 1));
    while (!at.equals(LedgerEntry.GENESIS_HASH)) {
      String text = byHash.get(at);
      if (text == null) {
        throw new IllegalStateException("the final model's ledger chain is missing entry " + at.substring(0, 12));
      }
      lineage.add(text);
      at = LedgerCodec.prevHashOf(text);
    }
    Collections.reverse(lineage);
    return check(lineage);
  }

  /** {@code texts} appended in order to a fresh ledger. */
  private List<LedgerLine> check(List<String> texts) {
    PrivacyLedger check = PrivacyLedger.inMemory(settings);
    for (String text : texts) {
      try {
        check.appendLine(text);
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
    }
    return check.lines();
  }
}
