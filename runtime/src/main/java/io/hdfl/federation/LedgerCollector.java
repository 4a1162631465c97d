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
 * The ledger lines a simulation's recorder sees, kept once each: a ring's line comes on its peer's
 * ledger topic and again with the models the recorder reads (the second source recovers a line the
 * ledger topic lost while the broker restarted). Lines are only kept while the run goes on; they are
 * parsed, hashed and checked once, when the run's ledger is asked for ({@link #ordered}). Parsing them
 * as they came would put the JSON parser's JIT compilation, and the work itself, on the second core
 * while the ring needs it; parsing every copy at the end, as before, took about 0.17 s of a
 * Fashion-MNIST run's wall time on a 2-core machine (K=100, R=30: 6100 copies of 3000 lines, each
 * parsed twice on its way into the ledger).
 */
final class LedgerCollector {
  private final LedgerSettings settings;
  private final boolean chained;
  /** Every distinct line seen, in arrival order. */
  private final Set<String> seen = new LinkedHashSet<>();

  /**
   * @param settings the federation's ledger settings (lines that do not match are refused)
   * @param chained whether the ledger is the final model's lineage (a ring), rather than every line
   */
  LedgerCollector(LedgerSettings settings, boolean chained) {
    this.settings = settings;
    this.chained = chained;
  }

  /** Takes a line; a line seen before is ignored. */
  synchronized void add(String text) {
    seen.add(text);
  }

  /** Takes every line of {@code texts}. */
  synchronized void addAll(List<String> texts) {
    seen.addAll(texts);
  }

  /** Whether {@code text} was seen. */
  synchronized boolean contains(String text) {
    return seen.contains(text);
  }

  /**
   * The ledger: for a ring, the final model's lineage in chain order, walked back from the entry it
   * carries last (entries off that lineage, e.g. from a fork a slow peer started and its successor
   * dropped, are not part of the model's history); otherwise every line in arrival order. Each line
   * is checked as it is appended (it parses, matches the settings, chains to the one before).
   *
   * @throws IllegalStateException if the lineage misses an entry
   * @throws IllegalArgumentException if a line of the ledger is malformed or refused
   */
  synchronized List<LedgerLine> ordered(List<String> finalTail) {
    if (!chained || finalTail.isEmpty()) {
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
