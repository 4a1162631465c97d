package io.hdfl.privacy.composition;

import java.util.ArrayList;
import java.util.List;

/**
 * Per-observer guarantees of a record in a PrivateDFL ring (K peers, R rounds, global step t =
 * K(r−1)+k, {@code added[t-1]} the variance added at step t). A record held by peer k enters the model
 * at steps t_k(r). Observers:
 *
 * <ul>
 *   <li><b>final-model user</b>: one release, the final model, with all the noise in it and the
 *       record's total influence over R rounds;
 *   <li><b>another peer</b> j ≠ k: it knows each model it sent and receives the model again K−1 steps
 *       later (or the final model, if the run ends first). Differencing a receipt and its own send
 *       before it isolates the steps in between, and only their noise protects the record — R
 *       releases. For the peer d steps before the holder (j = k − d), the window around step t is
 *       steps max(1, t−d+1) .. min(KR, t−d+K−1): the next hop (d = K−1) sees steps t−K+2..t, with the
 *       large round-1 noise of step 1 in its first release (unless it drew it itself); the previous
 *       peer (d = 1) sees steps t..t+K−2, which never hold step 1's noise for k ≥ 2, and in the last
 *       round of a peer just before the end only steps t..KR (the final model less its own last
 *       model). Every d is evaluated and the worst reported. Until the twenty-first session only
 *       the next hop was, which understated this observer's ε (2.00 against 5.49 in the README's
 *       example, E = 0);
 *   <li><b>wire reader</b> (when payloads are not end-to-end encrypted): sees every hop, so differencing
 *       consecutive hops isolates peer k's own step with only that step's noise — R releases. With
 *       incremental schedules a step's noise is c·ln(t/(t−1)), far below a full requirement.
 * </ul>
 *
 * Each observer is evaluated for every k and the worst k is reported. A record need not enter in
 * round 1: a peer learning from a live source bundles the windows that arrived since its previous turn,
 * and a peer that missed round 1 bundles its data at its first turn. Such a record, bundled at peer
 * k's step in round r₀, has no influence on anything released before that step, its bundling
 * influence in round r₀ and its retraining influence after; another peer's round-r₀ release is a
 * difference of models with only the K−1 steps' incremental noise between them, far less than a
 * round-1 record's. So every (k, r₀) in which peer k bundled records is a case, and the worst is
 * reported.
 */
public final class RingExposure {
  private RingExposure() {}

  /**
   * @param peers K
   * @param rounds R
   * @param added variance added at steps 1..K·R
   * @param influence record influence per round
   * @param delta δ at which ε is reported
   * @param headlineEpsilon the configured ε
   * @param wireEncrypted whether hop payloads are end-to-end encrypted (then the wire shows nothing)
   */
  public static List<ObserverGuarantee> observers(int peers, int rounds, double[] added, RecordInfluence influence,
      double delta, double headlineEpsilon, boolean wireEncrypted) {
    boolean[] bundles = new boolean[added.length];
    java.util.Arrays.fill(bundles, 0, Math.min(peers, bundles.length), true);
    return observers(peers, rounds, added, bundles, influence, delta, headlineEpsilon, wireEncrypted);
  }

  /**
   * As {@link #observers(int, int, double[], RecordInfluence, double, double, boolean)}, with the steps
   * that bundled new records: {@code bundles[t-1]} for step t (a real run's ledger tells them by its
   * entries' {@code samples_new}; a schedule bundles every peer's data in round 1). Each record enters
   * at one such step; with none at all, every peer is taken to bundle in round 1.
   */
  public static List<ObserverGuarantee> observers(int peers, int rounds, double[] added, boolean[] bundles,
      RecordInfluence influence, double delta, double headlineEpsilon, boolean wireEncrypted) {
    return observers(peers, rounds, added, new double[added.length], bundles, influence, delta, headlineEpsilon,
        wireEncrypted);
  }

  /**
   * As {@link #observers(int, int, double[], boolean[], RecordInfluence, double, double, boolean)}, with
   * the grid each step's noise was added on ({@code grid[t-1]}, 0 for continuous noise; the secure
   * source's {@code 2^(⌊log2 σ⌋−20)}). Before adding its noise a step snaps the model to its grid,
   * moving each value by at most half a step: a deterministic, non-linear change that can move two
   * neighbouring models apart by up to g·√n more each time, n the values the record can make differ
   * ({@link RecordInfluence#snapRoot}: D without retraining). So a release adds √n·Σ g over the steps
   * from the record's step to the release's end to the record's influence (when the record influences
   * it at all): for the final model of a long ring that is every step after the record's.
   */
  public static List<ObserverGuarantee> observers(int peers, int rounds, double[] added, double[] grid,
      boolean[] bundles, RecordInfluence influence, double delta, double headlineEpsilon, boolean wireEncrypted) {
    if (peers < 1 || rounds < 1 || added.length != peers * rounds || bundles.length != added.length
        || grid.length != added.length) {
      throw new IllegalArgumentException("need K, R >= 1 and K*R added variances, grid steps and bundling flags, got "
          + added.length + ", " + grid.length + " and " + bundles.length);
    }
    int steps = added.length;
    List<Integer> cases = new ArrayList<>(); // the steps at which records entered
    for (int t = 1; t <= steps; t++) {
      if (bundles[t - 1]) {
        cases.add(t);
      }
    }
    if (cases.isEmpty()) {
      for (int t = 1; t <= peers; t++) {
        cases.add(t);
      }
    }
    double[] prefix = prefixSums(added);
    double[] gridPrefix = prefixSums(grid);
    double snapRoot = influence.snapRoot(rounds); // the values a record can make differ, over the whole run
    double total = prefix[steps];
    List<ObserverGuarantee> out = new ArrayList<>();
    // the final model holds all the noise: the earliest bundled record has the most influence on it
    int earliest = cases.get(0);
    int r0 = roundOf(earliest, peers);
    out.add(ObserverGuarantee.compose("final-model user", "the final model only",
        List.of(new GaussianRelease(influence.firstRound() + (rounds - r0) * influence.laterRound()
            + snapRoot * (gridPrefix[steps] - gridPrefix[earliest - 1]), total, "final model after " + rounds + " rounds")),
        delta, headlineEpsilon, r0 == 1 ? "" : "a record bundled in round " + r0));
    // A ring's ledger may bundle at every step: each case's μ² comes from sums over the rounds after
    // it (O(K·R) in all per observer), and only the worst case's releases are composed (ε grows with μ²).
    if (peers > 1) {
      double[] window = new double[steps + 1];
      double[] snap = new double[steps + 1];
      int worstD = 0;
      Case worst = null;
      for (int d = 1; d < peers; d++) { // the observer is the peer d steps before the record holder
        for (int t = 1; t <= steps; t++) {
          int end = windowEnd(t, d, peers, steps);
          window[t] = Math.max(0, prefix[end] - prefix[windowStart(t, d) - 1]);
          snap[t] = snapRoot * (gridPrefix[end] - gridPrefix[t - 1]);
        }
        Case c = worstCase(cases, peers, window, snap, influence);
        if (worst == null || c.muSquared() > worst.muSquared()) {
          worst = c;
          worstD = d;
        }
      }
      int k = peerOf(worst.step(), peers);
      out.add(ObserverGuarantee.compose("another peer",
          "each model it receives less the one it sent before; the worst of the K−1 others",
          seenByPeer(k, roundOf(worst.step(), peers), worstD, peers, rounds, prefix, gridPrefix, influence), delta,
          headlineEpsilon, caseName(worst.step(), peers) + ", seen by peer " + ((k - worstD - 1 + peers) % peers + 1)));
    }
    if (!wireEncrypted) {
      double[] wireVariance = new double[steps + 1];
      double[] wireSnap = new double[steps + 1];
      for (int t = 1; t <= steps; t++) {
        wireVariance[t] = added[t - 1];
        wireSnap[t] = snapRoot * grid[t - 1];
      }
      int worst = worstCase(cases, peers, wireVariance, wireSnap, influence).step();
      out.add(ObserverGuarantee.compose("wire reader",
          "every hop (payloads not end-to-end encrypted), differenced hop to hop",
          wire(peerOf(worst, peers), roundOf(worst, peers), peers, rounds, added, grid, influence), delta,
          headlineEpsilon, caseName(worst, peers)));
    }
    return out;
  }

  /** A bundling step and the μ² of its releases to one observer. */
  private record Case(int step, double muSquared) {}

  /**
   * The case (bundling step) of largest μ² for an observer whose release of step t's round has noise
   * {@code variance[t]} and snapping sensitivity {@code snap[t]}: the bundling release at the case's
   * step, then retraining releases at the same peer's steps of every later round. The first of equal
   * cases wins.
   */
  private static Case worstCase(List<Integer> cases, int peers, double[] variance, double[] snap,
      RecordInfluence inf) {
    int steps = variance.length - 1;
    double[] later = new double[steps + 1 + peers]; // later[t]: Σ μ² of retraining releases after step t
    for (int t = steps; t >= 1; t--) {
      int next = t + peers;
      later[t] = next <= steps ? release(inf.laterRound(), snap[next], variance[next], "").muSquared() + later[next] : 0;
    }
    Case worst = null;
    for (int t : cases) {
      double mu2 = release(inf.firstRound(), snap[t], variance[t], "").muSquared() + later[t];
      if (worst == null || mu2 > worst.muSquared()) {
        worst = new Case(t, mu2);
      }
    }
    return worst;
  }

  /**
   * The first step of the window around step t seen by the peer d steps before its holder: the step
   * after that peer's last send before t, or step 1 if it has not sent yet (its first receipt holds
   * everything from the start).
   */
  private static int windowStart(int t, int d) {
    return Math.max(1, t - d + 1);
  }

  /** The last step of that window: the model it receives next, or the final model if the run ends first. */
  private static int windowEnd(int t, int d, int peers, int steps) {
    return Math.min(steps, t - d + peers - 1);
  }

  private static int peerOf(int step, int peers) {
    return (step - 1) % peers + 1;
  }

  private static int roundOf(int step, int peers) {
    return (step - 1) / peers + 1;
  }

  private static String caseName(int step, int peers) {
    int r = roundOf(step, peers);
    return "a record of peer " + peerOf(step, peers) + (r == 1 ? "" : " bundled in round " + r);
  }

  /** prefix[t] = variance added in steps 1..t, summed with Kahan compensation. */
  private static double[] prefixSums(double[] added) {
    double[] prefix = new double[added.length + 1];
    double sum = 0;
    double comp = 0;
    for (int i = 0; i < added.length; i++) {
      double y = added[i] - comp;
      double t = sum + y;
      comp = (t - sum) - y;
      sum = t;
      prefix[i + 1] = sum;
    }
    return prefix;
  }

  /**
   * A release in which the record moves the model by {@code influence}, plus the snapping of the steps
   * after it ({@code snap}); nothing when the record does not move it (a round without retraining: the
   * observer knows the model before, and the steps in between do not depend on the record).
   */
  private static GaussianRelease release(double influence, double snap, double variance, String what) {
    return new GaussianRelease(influence > 0 ? influence + snap : 0, variance, what);
  }

  /** The releases of a record of peer k bundled in round r₀ to the peer d steps before it. */
  private static List<GaussianRelease> seenByPeer(int k, int bundledIn, int d, int peers, int rounds, double[] prefix,
      double[] gridPrefix, RecordInfluence inf) {
    int steps = peers * rounds;
    List<GaussianRelease> rel = new ArrayList<>();
    // receipts before the record's step do not depend on it: from its round on, one release a round
    for (int r = bundledIn; r <= rounds; r++) {
      int t = peers * (r - 1) + k;
      int from = windowStart(t, d);
      int to = windowEnd(t, d, peers, steps);
      double v = Math.max(0, prefix[to] - prefix[from - 1]);
      String what = to == steps && t - d + peers - 1 > steps ? "the final model" : "the model of step " + to;
      rel.add(release(r == bundledIn ? inf.firstRound() : inf.laterRound(),
          inf.snapRoot(rounds) * (gridPrefix[to] - gridPrefix[t - 1]), v, "round " + r + ": " + what
          + (from == 1 ? "" : " less its own of step " + (from - 1)) + " (steps " + from + ".." + to + ")"
          + (r == bundledIn && r > 1 ? ", the record's bundling" : "")));
    }
    return rel;
  }

  private static List<GaussianRelease> wire(int k, int bundledIn, int peers, int rounds, double[] added,
      double[] grid, RecordInfluence inf) {
    List<GaussianRelease> rel = new ArrayList<>();
    for (int r = bundledIn; r <= rounds; r++) {
      int t = peers * (r - 1) + k;
      rel.add(release(r == bundledIn ? inf.firstRound() : inf.laterRound(), inf.snapRoot(rounds) * grid[t - 1],
          added[t - 1], "step " + t + ": this hop minus the previous one"));
    }
    return rel;
  }
}
