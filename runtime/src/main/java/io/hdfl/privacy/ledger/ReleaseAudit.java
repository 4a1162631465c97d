package io.hdfl.privacy.ledger;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A star client's record of the updates it released (its {@code releases.jsonl}) checked against the
 * federation's ledger (the aggregator's), which must have verified first. Every line of the record
 * must be a well-formed update of the ledger's federation and settings, signed by one client under its
 * key, one per round in increasing rounds, trained on the global model of its round (its prev_hash is
 * the hash of the last aggregate before its round in the ledger, or 64 zeros before the first), with
 * the noise and samples its schedule gives from that model (as {@link LedgerVerifier} checks a late
 * update); and every update of that client in the ledger must be in the record (else the record is
 * incomplete, or another run's). Each line is then either in the ledger (byte for byte) or not: an
 * update the aggregator never recorded (lost on the way, sent after the last round was averaged, or
 * never sent at all because the client stopped right after recording it) — its noise was drawn for
 * sending, so the privacy report counts it for the aggregator and the wire reader. A round-1 update
 * chains to no aggregate, so nothing ties it to this run but the file it is in; an empty record names
 * no client, so nothing is checked of it. Memory: per aggregated round of the ledger its aggregate's
 * hash and numbers (not the names it carries), the client's updates in the ledger, and the updates
 * the ledger lacks (one per round at most).
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

  /** An aggregate of the ledger: what a client update of a later round trains on. */
  private record Aggregate(String hash, LedgerEntry entry) {}

  /**
   * Checks the record in {@code releases} against {@code ledger} (verified before), with the clients'
   * public keys in {@code keys}.
   *
   * @throws IllegalArgumentException if the ledger is empty or a ring's (bad input, not a bad record)
   */
  public static ReleaseAudit check(Path releases, Path ledger, KeyDirectory keys) throws IOException {
    String peer;
    try (LedgerReader r = LedgerReader.open(releases)) {
      String first = r.next();
      if (first == null) {
        return new ReleaseAudit(releases, null, 0, 0, List.of(), null); // names no client: nothing to check
      }
      peer = LedgerCodec.parse(first).peer();
    } catch (LedgerFormatException ex) {
      return fail(releases, null, 0, "line 1: " + ex.problem());
    }
    // the ledger (verified): its settings, its aggregates by round, and this client's updates in it
    LedgerEntry settings = null;
    java.util.TreeMap<Integer, Aggregate> aggregates = new java.util.TreeMap<>();
    Map<String, Integer> own = new HashMap<>();
    try (LedgerReader r = LedgerReader.open(ledger)) {
      for (String text = r.next(); text != null; text = r.next()) {
        LedgerEntry e = LedgerCodec.parse(text);
        if (settings == null) {
          settings = e;
        }
        if (e.kind() == LedgerEntry.Kind.AGGREGATE) {
          aggregates.put(e.round(), new Aggregate(LedgerCodec.hash(text), e.numbersOnly()));
        } else if (e.peer().equals(peer)) {
          own.put(LedgerCodec.hash(text), e.round());
        }
      }
    }
    if (settings == null) {
      throw new IllegalArgumentException(ledger + ": the ledger has no entries");
    }
    if (settings.topology() != LedgerEntry.Topology.STAR) {
      throw new IllegalArgumentException(ledger + " is a ring's ledger: only star clients keep a record of the updates"
          + " they sent (check them against the aggregator's ledger)");
    }
    int lastAggregated = aggregates.isEmpty() ? 0 : aggregates.lastKey();
    // the record, streamed: only the updates the ledger lacks are kept, at most one per round up to the
    // round after the ledger's last aggregate (a client answers only global models that were published)
    List<LedgerEntry> unrecorded = new ArrayList<>();
    long count = 0;
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
          return fail(releases, peer, count, "line " + n + ": " + ex.problem());
        }
        String why = lineProblem(e, settings, peer, lastRound);
        if (why == null && e.round() > lastAggregated + 1) {
          why = "an update of round " + e.round() + ", but the ledger's last aggregate is of round " + lastAggregated
              + ": no global model of that round was published";
        }
        if (why != null) {
          return fail(releases, peer, count, "line " + n + ": " + why);
        }
        String unsigned = keys.signatureProblem(split, e);
        if (unsigned != null) {
          return fail(releases, peer, count, "line " + n + ": " + unsigned);
        }
        // the global model of its round: the last aggregate before it (none: the untrained model, 64 zeros)
        Map.Entry<Integer, Aggregate> before = aggregates.lowerEntry(e.round());
        String expected = before == null ? LedgerEntry.GENESIS_HASH : before.getValue().hash();
        if (!e.prevHash().equals(expected)) {
          return fail(releases, peer, count, "line " + n + ": its update of round " + e.round()
              + " was not trained on the global model of that round in " + ledger + " (prev_hash "
              + e.prevHash().substring(0, 12) + "…, not the " + (before == null ? "64 zeros of the untrained model"
              : "round-" + before.getKey() + " aggregate's " + expected.substring(0, 12) + "…") + ")");
        }
        // its noise and samples as its schedule says, from the global model it trained on
        why = ScheduleConformance.lateUpdate(e, before == null ? null : before.getValue().entry());
        if (why != null) {
          return fail(releases, peer, count, "line " + n + ": " + why);
        }
        if (own.remove(LedgerCodec.hash(text)) == null) {
          unrecorded.add(e);
        }
        count++;
        lastRound = e.round();
      }
    } catch (LedgerFormatException ex) {
      return fail(releases, peer, count, ex.getMessage());
    }
    if (!own.isEmpty()) {
      List<Integer> missing = own.values().stream().sorted().toList();
      return fail(releases, peer, count, "the ledger holds " + missing.size() + " update(s) of " + peer
          + " that the record lacks (round(s) " + missing.subList(0, Math.min(10, missing.size()))
          + (missing.size() > 10 ? " …" : "") + "): the record is incomplete, or another run's");
    }
    return new ReleaseAudit(releases, peer, count, count - unrecorded.size(), unrecorded, null);
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

  /**
   * Checks every record in {@code files} against {@code ledger} ({@link #check}); a client's second
   * record (the same file twice, or two of one client) fails, since its updates would count twice.
   */
  public static List<ReleaseAudit> checkAll(List<Path> files, Path ledger, KeyDirectory keys) throws IOException {
    List<ReleaseAudit> out = new ArrayList<>();
    java.util.Set<String> peers = new java.util.HashSet<>();
    for (Path f : files) {
      ReleaseAudit a = check(f, ledger, keys);
      if (a.ok() && a.peer() != null && !peers.add(a.peer())) {
        a = fail(f, a.peer(), a.releases(), "a second record of " + a.peer() + " (give each client's record once)");
      }
      out.add(a);
    }
    return out;
  }

  /** One line for reports. */
  public String summary() {
    if (!ok()) {
      return "releases " + file + ": INVALID: " + problem;
    }
    if (peer == null) {
      return "releases " + file + ": no update recorded";
    }
    if (unrecorded.isEmpty()) {
      return "releases of " + peer + " (" + file + "): " + releases + " update(s), all in the ledger";
    }
    StringBuilder b = new StringBuilder("releases of " + peer + " (" + file + "): " + releases + " update(s), "
        + recorded + " in the ledger; not in it (noised to be sent, but not recorded by the aggregator: lost on the"
        + " way, sent after the last round was averaged, or never sent):");
    for (LedgerEntry e : unrecorded) {
      b.append(String.format(java.util.Locale.ROOT, " round %d (variance_added %.6g)", e.round(), e.addedVariance()));
    }
    return b.toString();
  }
}
