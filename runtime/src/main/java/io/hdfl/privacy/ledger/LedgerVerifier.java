package io.hdfl.privacy.ledger;

import io.hdfl.privacy.ledger.LedgerEntry.Schedule;
import io.hdfl.privacy.ledger.LedgerEntry.Source;
import io.hdfl.privacy.ledger.LedgerEntry.Topology;
import io.hdfl.privacy.ledger.Verification.Check;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

/**
 * Verifies a ledger file entry by entry, in order, and reports the first entry that fails. Each
 * entry is checked for (a) {@link Check#FORMAT form}: a terminated, bounded, ASCII line ending in
 * {@code ,"sig":"…"}} that parses strictly ({@link LedgerCodec#parse}); (b) {@link Check#CHAIN
 * chain}: its prev_hash is the SHA-256 of the previous line (64 zeros for the first) — except a star
 * client update, which chains to the last aggregate line of a round before its own (the global model
 * it trained on), since the clients of a round sign without seeing each other; the aggregate then
 * chains to the line before it and names every client line it averaged, so none can be removed or
 * added unnoticed (an update recorded after its round's aggregate is one the aggregator received too
 * late to average: it is in the ledger because its noise was drawn and it was sent, and the next
 * aggregate names it in its {@code late} list; a star ledger may end with late updates that the next
 * aggregate has yet to name, as its aggregator's ledger does while that round waits: they are counted
 * apart, {@link Verification#lateNotYetNamed}); (c)
 * {@link Check#SIGNATURE signature}: Ed25519 over the exact stored bytes, under the public key of its
 * peer from the {@link KeyDirectory} (a peer without a key fails); (d) {@link Check#CONFORMANCE
 * conformance}: settings, lineage and schedule arithmetic ({@link ScheduleConformance}).
 *
 * <p>Memory is bounded by one line, the distinct peers, one round's client entries and, for a star,
 * the late updates since the last aggregate and, per aggregated round, its hash, noise state and which
 * peers updated (a bit each): the file is streamed, never held. Everything wrong with the ledger itself is a failed {@link Verification};
 * I/O failures and an unreadable public key file (a broken trust store, not a bad ledger) are thrown. A hash chain cannot show that entries were cut off the end of a ledger:
 * compare the last hash or the entry count with what you expect.
 */
public final class LedgerVerifier {
  private final KeyDirectory keys;

  public LedgerVerifier(KeyDirectory keys) {
    this.keys = keys;
  }

  /** Verifies the ledger in {@code file}. */
  public Verification verify(Path file) throws IOException {
    try (LedgerReader reader = LedgerReader.open(file)) {
      return verify(reader);
    }
  }

  /** Verifies the ledger {@code reader} reads, to its end or its first bad entry. */
  public Verification verify(LedgerReader reader) throws IOException {
    return new Run(reader).run();
  }

  /** The state of one verification. */
  private final class Run {
    private final LedgerReader reader;
    private final ScheduleConformance conformance = new ScheduleConformance();
    private final Set<String> peers = new HashSet<>();
    private String prevHash = LedgerEntry.GENESIS_HASH;
    /** Star: the hash of each round's aggregate (a client update chains to the last one before its round). */
    private final java.util.TreeMap<Integer, String> aggregateHashes = new java.util.TreeMap<>();
    private LedgerEntry first;
    private long entries;
    private long seeded;

    Run(LedgerReader reader) {
      this.reader = reader;
    }

    Verification run() throws IOException {
      while (true) {
        String text;
        try {
          text = reader.next();
        } catch (LedgerFormatException e) {
          return fail(e.line(), null, Check.FORMAT, e.problem());
        }
        if (text == null) {
          break;
        }
        long line = reader.lineNumber();
        entries = line;
        LedgerCodec.Split split;
        LedgerEntry e;
        try {
          split = LedgerCodec.split(text);
          e = LedgerCodec.parse(text);
        } catch (LedgerFormatException ex) {
          return fail(line, null, Check.FORMAT, ex.problem());
        }
        if (first == null) {
          first = e;
        }
        peers.add(e.peer());
        // The ledger's topology (its first entry's) decides the rule; an entry claiming another one
        // fails conformance below.
        boolean starUpdate = first.topology() == Topology.STAR && e.kind() == LedgerEntry.Kind.UPDATE;
        String chainTarget = prevHash;
        if (starUpdate) {
          var before = aggregateHashes.lowerEntry(e.round());
          chainTarget = before == null ? LedgerEntry.GENESIS_HASH : before.getValue();
        }
        if (!e.prevHash().equals(chainTarget)) {
          return fail(line, e.peer(), Check.CHAIN, line == 1
              ? "prev_hash of the first entry must be 64 zeros (entries before it were removed?)"
              : starUpdate
                  ? "prev_hash of a client update does not match the last aggregate before its round (the global"
                      + " model it trained on)"
                  : "prev_hash does not match the previous line (an entry was removed, inserted, reordered or altered)");
        }
        String unsigned = keys.signatureProblem(split, e);
        if (unsigned != null) {
          return fail(line, e.peer(), Check.SIGNATURE, unsigned);
        }
        String hash = LedgerCodec.hash(text);
        String why = conformance.check(e, hash);
        if (why != null) {
          return fail(line, e.peer(), Check.CONFORMANCE, why);
        }
        if (e.source() == Source.SEEDED) {
          seeded++;
        }
        prevHash = hash;
        if (e.kind() == LedgerEntry.Kind.AGGREGATE) {
          aggregateHashes.put(e.round(), hash);
        }
      }
      if (entries == 0) {
        return fail(0, null, Check.FORMAT, "no entries (empty file)");
      }
      return new Verification(true, entries, peers.size(), first.federation(), first.topology(), first.schedule(),
          seeded, conformance.lateUpdates(), conformance.lateNotYetNamed(), 0, null, null, null);
    }

    private Verification fail(long line, String peer, Check check, String why) {
      String federation = first == null ? null : first.federation();
      Topology topology = first == null ? null : first.topology();
      Schedule schedule = first == null ? null : first.schedule();
      return new Verification(false, Math.max(entries, line), peers.size(), federation, topology, schedule, seeded,
          conformance.lateUpdates(), conformance.lateNotYetNamed(), line, peer, check, why);
    }
  }
}
