package io.hdfl.privacy.ledger;

import java.io.IOException;
import java.nio.file.Path;
import java.security.PublicKey;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A star client's record of the updates it released (its {@code releases.jsonl}) checked against the
 * federation's ledger (the aggregator's), which must have verified first. Every line of the record
 * must be a well-formed update of the ledger's federation and settings, signed by one client under its
 * key, one per round in increasing rounds, trained on a global model the ledger holds (its prev_hash is
 * the hash of an aggregate of an earlier round, or 64 zeros in round 1), with the noise and samples its
 * schedule gives from that model (as {@link LedgerVerifier} checks a late update). Each is then either in the
 * ledger (byte for byte) or not: an update the aggregator never recorded (lost on the way, or sent
 * after the last round was averaged) — its noise was still drawn and sent, so the privacy report
 * counts it for the aggregator and the wire reader. Memory: the record's lines (one per round), not
 * the ledger's.
 *
 * @param peer the client whose record it is (null if the record has no line)
 * @param releases lines in the record
 * @param recorded how many of them the ledger holds
 * @param unrecorded the others, in the record's order
 * @param problem why the record fails the check, with its line, or null
 */
public record ReleaseAudit(Path file, String peer, long releases, long recorded, List<LedgerEntry> unrecorded,
    String problem) {

  public ReleaseAudit {
    unrecorded = List.copyOf(unrecorded);
  }

  public boolean ok() {
    return problem == null;
  }

  /**
   * Checks the record in {@code releases} against {@code ledger} (verified before), with the clients'
   * public keys in {@code keys}.
   */
  public static ReleaseAudit check(Path releases, Path ledger, KeyDirectory keys) throws IOException {
    LedgerEntry settings;
    try (LedgerReader r = LedgerReader.open(ledger)) {
      String first = r.next();
      if (first == null) {
        return new ReleaseAudit(releases, null, 0, 0, List.of(), "the ledger " + ledger + " has no entries");
      }
      settings = LedgerCodec.parse(first);
    }
    if (settings.topology() != LedgerEntry.Topology.STAR) {
      return new ReleaseAudit(releases, null, 0, 0, List.of(), "the ledger " + ledger + " is a ring's: only star"
          + " clients keep a record of their releases");
    }
    // the record: hash -> entry, in order
    Map<String, LedgerEntry> lines = new LinkedHashMap<>();
    Map<String, Integer> chainedTo = new HashMap<>(); // prev_hash -> round of the release chained to it
    String peer = null;
    int lastRound = 0;
    try (LedgerReader r = LedgerReader.open(releases)) {
      for (String text = r.next(); text != null; text = r.next()) {
        long n = r.lineNumber();
        LedgerCodec.Split split;
        LedgerEntry e;
        try {
          split = LedgerCodec.split(text);
          e = LedgerCodec.parse(text);
        } catch (LedgerFormatException ex) {
          return fail(releases, peer, lines.size(), "line " + n + ": " + ex.problem());
        }
        if (peer == null) {
          peer = e.peer();
        }
        String why = lineProblem(e, settings, peer, lastRound);
        if (why != null) {
          return fail(releases, peer, lines.size(), "line " + n + ": " + why);
        }
        Optional<PublicKey> key = keys.find(e.peer());
        if (key.isEmpty()) {
          return fail(releases, peer, lines.size(), "line " + n + ": unknown peer: no public key " + keys.fileOf(e.peer()));
        }
        if (!split.signature().equals(e.signature()) || !PeerKeys.verify(key.get(), split.signedBytes(), split.signature())) {
          return fail(releases, peer, lines.size(), "line " + n + ": signature does not verify under "
              + keys.fileOf(e.peer()));
        }
        lines.put(LedgerCodec.hash(text), e);
        chainedTo.putIfAbsent(e.prevHash(), e.round());
        lastRound = e.round();
      }
    } catch (LedgerFormatException ex) {
      return fail(releases, peer, lines.size(), ex.getMessage());
    }
    // the ledger, streamed: which releases it holds, and the rounds of the aggregates they chained to
    Map<String, LedgerEntry> aggregates = new HashMap<>();
    java.util.Set<String> found = new java.util.HashSet<>();
    try (LedgerReader r = LedgerReader.open(ledger)) {
      for (String text = r.next(); text != null; text = r.next()) {
        String hash = LedgerCodec.hash(text);
        if (lines.containsKey(hash)) {
          found.add(hash);
        }
        if (chainedTo.containsKey(hash)) {
          LedgerEntry e = LedgerCodec.parse(text);
          if (e.kind() == LedgerEntry.Kind.AGGREGATE) {
            aggregates.put(hash, e);
          }
        }
      }
    }
    List<LedgerEntry> unrecorded = new ArrayList<>();
    long n = 0;
    for (Map.Entry<String, LedgerEntry> line : lines.entrySet()) {
      n++;
      LedgerEntry e = line.getValue();
      boolean genesis = e.prevHash().equals(LedgerEntry.GENESIS_HASH) && e.round() == 1;
      LedgerEntry on = aggregates.get(e.prevHash());
      if (!genesis && (on == null || on.round() >= e.round())) {
        return fail(releases, peer, lines.size(), "line " + n + ": its update of round " + e.round()
            + " was trained on a global model the ledger does not hold (prev_hash " + e.prevHash().substring(0, 12)
            + "… is no aggregate of an earlier round in " + ledger + ")");
      }
      // its noise and samples as its schedule says, from the global model it trained on
      String why = ScheduleConformance.lateUpdate(e, genesis ? null : on);
      if (why != null) {
        return fail(releases, peer, lines.size(), "line " + n + ": " + why);
      }
      if (!found.contains(line.getKey())) {
        unrecorded.add(e);
      }
    }
    return new ReleaseAudit(releases, peer, lines.size(), lines.size() - unrecorded.size(), unrecorded, null);
  }

  private static String lineProblem(LedgerEntry e, LedgerEntry settings, String peer, int lastRound) {
    if (e.kind() != LedgerEntry.Kind.UPDATE || e.topology() != LedgerEntry.Topology.STAR) {
      return "not a star client's update";
    }
    if (!e.peer().equals(peer)) {
      return "an update of '" + e.peer() + "' in the record of '" + peer + "'";
    }
    if (!e.federation().equals(settings.federation()) || e.schedule() != settings.schedule()
        || e.epsilon() != settings.epsilon() || e.delta0() != settings.delta0() || e.dim() != settings.dim()) {
      return "federation, schedule, epsilon, delta0 or D differ from the ledger's";
    }
    if (e.round() <= lastRound) {
      return "round " + e.round() + " after round " + lastRound + " (one release per round, in order)";
    }
    return null;
  }

  private static ReleaseAudit fail(Path file, String peer, long releases, String problem) {
    return new ReleaseAudit(file, peer, releases, 0, List.of(), problem);
  }

  /** One line for reports. */
  public String summary() {
    if (!ok()) {
      return "releases " + file + ": INVALID: " + problem;
    }
    if (unrecorded.isEmpty()) {
      return "releases of " + peer + " (" + file + "): " + releases + " update(s), all in the ledger";
    }
    StringBuilder b = new StringBuilder("releases of " + peer + " (" + file + "): " + releases + " update(s), "
        + recorded + " in the ledger; not in it (noised and sent, but not recorded by the aggregator: lost on the way,"
        + " or after the last round was averaged):");
    for (LedgerEntry e : unrecorded) {
      b.append(String.format(java.util.Locale.ROOT, " round %d (variance_added %.6g)", e.round(), e.addedVariance()));
    }
    return b.toString();
  }
}
