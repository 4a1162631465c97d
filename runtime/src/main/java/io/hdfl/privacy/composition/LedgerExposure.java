package io.hdfl.privacy.composition;

import io.hdfl.privacy.ledger.LedgerEntry;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The honest composition report of a real run, from the noise its ledger records (rather than from a
 * schedule laid out in advance): ring entries give the variance added at every step, star entries
 * the clients' added variance and the global model's variance per round. A ring entry tells where
 * records entered ({@link LedgerEntry#bundledSamples()}): in round 1, and later where a peer learning
 * from a live source bundled the windows that arrived between its turns, or a restarted one its data
 * (such records have only the incremental noise of their round between two receipts of the next peer).
 */
public final class LedgerExposure {
  private LedgerExposure() {}

  /** The δ of the report: δ0 over every sample the final model absorbed (counted as the schedules do). */
  /**
   * The largest δ an entry's noise was calibrated at, δ0 over the fewest samples any entry's model held:
   * where the classical calibration is furthest from its headline ({@link HeadlineCalibration}).
   */
  public static double calibrationDelta(List<LedgerEntry> entries) {
    long fewest = entries.stream().mapToLong(LedgerEntry::samplesTotal).filter(n -> n > 0).min().orElse(1);
    return Math.min(0.5, entries.get(0).delta0() / fewest);
  }

  public static double reportDelta(List<LedgerEntry> entries) {
    // the final model's samples: the ring's last step, the star's last aggregate (a client update
    // recorded late may come after it, and holds another count)
    LedgerEntry last = entries.get(entries.size() - 1);
    if (last.topology() == LedgerEntry.Topology.STAR) {
      for (int i = entries.size() - 1; i >= 0; i--) {
        if (entries.get(i).kind() == LedgerEntry.Kind.AGGREGATE) {
          last = entries.get(i);
          break;
        }
      }
    }
    return Math.min(0.5, last.delta0() / last.samplesTotal());
  }

  public static List<ObserverGuarantee> observers(List<LedgerEntry> entries, int retrainPassesPerRound,
      boolean wireEncrypted) {
    if (entries.isEmpty()) {
      throw new IllegalArgumentException("the ledger has no entries");
    }
    LedgerEntry first = entries.get(0);
    RecordInfluence influence = new RecordInfluence(first.dim(), retrainPassesPerRound);
    double delta = reportDelta(entries);
    int rounds = entries.stream().mapToInt(LedgerEntry::round).max().orElseThrow();
    if (first.topology() == LedgerEntry.Topology.RING) {
      Set<String> peers = new HashSet<>();
      for (LedgerEntry e : entries) {
        peers.add(e.peer());
      }
      int k = peers.size();
      if (entries.size() != (long) k * rounds) {
        throw new IllegalArgumentException("the ledger has " + entries.size() + " entries, not " + k + " peers x "
            + rounds + " rounds: peers were skipped, and the report needs every step of every round");
      }
      double[] added = new double[entries.size()];
      double[] grid = new double[entries.size()];
      boolean[] bundles = new boolean[entries.size()];
      for (int i = 0; i < added.length; i++) {
        added[i] = entries.get(i).addedVariance();
        grid[i] = grid(entries.get(i));
        // Records entered where an entry says it bundled samples (round 1; later, samples_bundled: live
        // windows, or a restarted peer's data). A ledger written before samples_bundled existed tells
        // them only by a peer's count (every sample it trained on) changing since its previous step;
        // that is taken too, and a count that fell as new records, conservatively.
        long samples = entries.get(i).samplesNew();
        bundles[i] = entries.get(i).bundledSamples() > 0 || i >= k && samples != entries.get(i - k).samplesNew();
      }
      return RingExposure.observers(k, rounds, added, grid, bundles, influence, delta, first.epsilon(),
          wireEncrypted);
    }
    double[] clientAdded = new double[rounds];
    double[] globalPresent = new double[rounds];
    int[] averaged = new int[rounds]; // a round closed on a quorum averaged fewer than K: less dilution
    double[] clientGrid = new double[rounds];
    double[] aggregateGrid = new double[rounds];
    java.util.Arrays.fill(clientAdded, Double.POSITIVE_INFINITY);
    for (LedgerEntry e : entries) {
      if (e.kind() == LedgerEntry.Kind.UPDATE) {
        clientAdded[e.round() - 1] = Math.min(clientAdded[e.round() - 1], e.addedVariance()); // worst client
        clientGrid[e.round() - 1] = Math.max(clientGrid[e.round() - 1], grid(e));
      } else {
        globalPresent[e.round() - 1] = e.presentAfter();
        averaged[e.round() - 1] = e.contributors().size();
        aggregateGrid[e.round() - 1] = grid(e);
      }
    }
    for (int r = 0; r < rounds; r++) {
      if (Double.isInfinite(clientAdded[r]) || averaged[r] == 0) {
        throw new IllegalArgumentException("round " + (r + 1) + " has no client update or no aggregate in the ledger");
      }
    }
    return StarExposure.observers(averaged, clientAdded, globalPresent, clientGrid, aggregateGrid, influence, delta,
        first.epsilon(), wireEncrypted);
  }

  /** The grid an entry's noise was added on: the secure source's, none (0) for seeded continuous noise. */
  private static double grid(LedgerEntry e) {
    return e.source() == LedgerEntry.Source.SECURE ? io.hdfl.privacy.noise.SecureNoiseSource.gridStep(e.addedVariance())
        : 0;
  }
}
