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
 * key, one per round in increasing rounds, trained on the global model of its round (its prev_hash is
 * the hash of the last aggregate before its round in the ledger, or 64 zeros before the first), with
 * the noise and samples its schedule gives from that model (as {@link LedgerVerifier} checks a late
 * update); and every update of that client in the ledger must be in the record (else the record is
 * incomplete, or another run's). Each line is then either in the ledger (byte for byte) or not: an
 * update the aggregator never recorded (lost on the way, sent after the last round was averaged, or
 * never sent at all because the client stopped right after recording it) — its noise was drawn for
 * sending, so the privacy report counts it for the aggregator and the wire reader. A round-1 update
 * chains to no aggregate, so nothing ties it to this run but the file it is in. Memory: the record's
 * lines (one per round) and one hash per aggregated round of the ledger.
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
        throw new IllegalArgumentException(ledger + ": the ledger has no entries");
      }
      settings = LedgerCodec.parse(first);
    }
    if (settings.topology() != LedgerEntry.Topology.STAR) {
      throw new IllegalArgumentException(ledger + " is a ring's ledger: only star clients keep a record of the updates"
          + " they sent (check them against the aggregator's ledger)");
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
    // the ledger, streamed: which releases it holds, which updates of this client it holds that the
    // record lacks, and each round's aggregate (an update trains on the last one before its round)
    java.util.TreeMap<Integer, String> aggregateOfRound = new java.util.TreeMap<>();
    Map<String, LedgerEntry> aggregates = new HashMap<>(); // those the releases chained to
    java.util.Set<String> found = new java.util.HashSet<>();
    List<Integer> missing = new ArrayList<>();
    String ownUpdate = "\"peer\":\"" + peer + "\",\"kind\":\"update\"";
    try (LedgerReader r = LedgerReader.open(ledger)) {
      for (String text = r.next(); text != null; text = r.next()) {
        String hash = LedgerCodec.hash(text);
        boolean aggregate = text.contains("\"kind\":\"aggregate\"");
        if (lines.containsKey(hash)) {
          found.add(hash);
        } else if (peer != null && text.contains(ownUpdate)) {
          LedgerEntry e = LedgerCodec.parse(text);
          if (e.peer().equals(peer) && e.kind() == LedgerEntry.Kind.UPDATE) {
            missing.add(e.round());
          }
        }
        if (aggregate) {
          LedgerEntry e = LedgerCodec.parse(text);
          if (e.kind() == LedgerEntry.Kind.AGGREGATE) {
            aggregateOfRound.put(e.round(), hash);
            if (chainedTo.containsKey(hash)) {
              aggregates.put(hash, e);
            }
          }
        }
      }
    }
    if (!missing.isEmpty()) {
      return fail(releases, peer, lines.size(), "the ledger holds " + missing.size() + " update(s) of " + peer
          + " that the record lacks (round(s) " + missing.subList(0, Math.min(10, missing.size()))
          + (missing.size() > 10 ? " …" : "") + "): the record is incomplete, or another run's");
    }
    List<LedgerEntry> unrecorded = new ArrayList<>();
    long n = 0;
    for (Map.Entry<String, LedgerEntry> line : lines.entrySet()) {
      n++;
      LedgerEntry e = line.getValue();
      // the global model of its round: the last aggregate before it (none: the untrained model, 64 zeros)
      Map.Entry<Integer, String> before = aggregateOfRound.lowerEntry(e.round());
      String expected = before == null ? LedgerEntry.GENESIS_HASH : before.getValue();
      if (!e.prevHash().equals(expected)) {
        return fail(releases, peer, lines.size(), "line " + n + ": its update of round " + e.round()
            + " was not trained on the global model of that round in " + ledger + " (prev_hash "
            + e.prevHash().substring(0, 12) + "…, not the " + (before == null ? "64 zeros of the untrained model"
            : "round-" + before.getKey() + " aggregate's " + expected.substring(0, 12) + "…") + ")");
      }
      LedgerEntry on = before == null ? null : aggregates.get(expected);
      // its noise and samples as its schedule says, from the global model it trained on
      String why = ScheduleConformance.lateUpdate(e, on);
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
