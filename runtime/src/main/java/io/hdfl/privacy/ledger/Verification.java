package io.hdfl.privacy.ledger;

import io.hdfl.privacy.ledger.LedgerEntry.Schedule;
import io.hdfl.privacy.ledger.LedgerEntry.Topology;

/**
 * The outcome of {@link LedgerVerifier#verify}: either every entry passed, or the first entry that
 * did not, with the check that failed and why.
 *
 * @param ok whether every entry passed
 * @param entries entries read (all of them when ok; up to and including the bad one otherwise)
 * @param peers distinct peers among the entries read
 * @param federation the ledger's federation (null if no entry got that far)
 * @param topology the ledger's topology (null if no entry got that far)
 * @param schedule the ledger's schedule (null if no entry got that far)
 * @param seededEntries entries whose noise was seeded (not for deployment)
 * @param lateUpdates star client updates recorded after their round's aggregate (they reached the
 *     aggregator late: noised and sent, averaged in no round)
 * @param lateNotYetNamed of those, the ones after the last aggregate: recorded as they arrived, named by
 *     the next aggregate, which this ledger does not hold yet (its aggregator waits for that round, or
 *     the ledger was cut off there — as for any ledger's end, a hash chain cannot tell)
 * @param badLine 1-based line of the first bad entry, 0 when ok
 * @param badPeer its peer, null when ok or when the line could not be parsed
 * @param failedCheck which check failed, null when ok
 * @param reason why, null when ok
 */
public record Verification(
    boolean ok,
    long entries,
    int peers,
    String federation,
    Topology topology,
    Schedule schedule,
    long seededEntries,
    long lateUpdates,
    long lateNotYetNamed,
    long badLine,
    String badPeer,
    Check failedCheck,
    String reason) {

  /** The checks, in the order they are applied to each entry. */
  public enum Check {
    /** (a) the line is well formed: one JSON object, no duplicate, unknown or missing field. */
    FORMAT,
    /** (b) prev_hash is the hash of the previous line. */
    CHAIN,
    /** (c) the signature verifies under the peer's public key. */
    SIGNATURE,
    /** (d) the numbers follow the schedule, the lineage and the ledger's settings. */
    CONFORMANCE
  }

  /** One line for a person: "ledger OK: …" or "ledger INVALID at line N (peer P): why". */
  public String summary() {
    if (ok) {
      String s = "ledger OK: " + entries + (entries == 1 ? " entry, " : " entries, ") + peers
          + (peers == 1 ? " peer" : " peers") + ", chain intact, signatures valid, schedule "
          + schedule.wire() + " conforms";
      if (lateUpdates > 0) {
        s += "; " + lateUpdates + (lateUpdates == 1 ? " client update recorded late (after its"
            : " client updates recorded late (after their") + " round's aggregate: sent, averaged in no round)";
        if (lateNotYetNamed > 0) {
          s += ", " + lateNotYetNamed + " of them after the last aggregate and not yet named by the next";
        }
      }
      if (seededEntries > 0) {
        s += "; seeded noise in " + seededEntries + (seededEntries == 1 ? " entry" : " entries")
            + ": not for deployment";
      }
      return s;
    }
    if (badLine == 0) {
      return "ledger INVALID: " + reason;
    }
    return "ledger INVALID at line " + badLine + (badPeer != null ? " (peer " + badPeer + ")" : "") + ": " + reason;
  }
}
