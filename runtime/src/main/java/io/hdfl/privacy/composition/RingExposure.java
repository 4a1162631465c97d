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
 *   <li><b>next-hop peer</b> (k+1, or 1 for k = K): receives the model after each of peer k's steps.
 *       Differencing consecutive receipts isolates the K steps in between; it knows its own step's
 *       noise, so only the other K−1 steps' noise protects the record — R releases (in round 1 the
 *       steps 1..k, less step 1 when the observer is peer 1);
 *   <li><b>wire reader</b> (when payloads are not end-to-end encrypted): sees every hop, so differencing
 *       consecutive hops isolates peer k's own step with only that step's noise — R releases. With
 *       incremental schedules a step's noise is c·ln(t/(t−1)), far below a full requirement.
 * </ul>
 *
 * Each observer is evaluated for every k and the worst k is reported.
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
    if (peers < 1 || rounds < 1 || added.length != peers * rounds) {
      throw new IllegalArgumentException("need K, R >= 1 and K*R added variances, got " + added.length);
    }
    List<ObserverGuarantee> out = new ArrayList<>();
    double[] prefix = prefixSums(added);
    double total = prefix[added.length];
    double totalInfluence = influence.firstRound() + (rounds - 1) * influence.laterRound();
    out.add(ObserverGuarantee.compose("final-model user", "the final model only",
        List.of(new GaussianRelease(totalInfluence, total, "final model after " + rounds + " rounds")),
        delta, headlineEpsilon, ""));
    if (peers > 1) {
      out.add(ObserverGuarantee.worstOf(peers, k -> nextHop(k, peers, rounds, prefix, influence), k -> "a record of peer " + k,
          "next-hop peer",
          "the model after each of the record holder's steps, differenced round to round", delta, headlineEpsilon));
    }
    if (!wireEncrypted) {
      out.add(ObserverGuarantee.worstOf(peers, k -> wire(k, peers, rounds, added, influence), k -> "a record of peer " + k,
          "wire reader",
          "every hop (payloads not end-to-end encrypted), differenced hop to hop", delta, headlineEpsilon));
    }
    return out;
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

  private static List<GaussianRelease> nextHop(int k, int peers, int rounds, double[] prefix, RecordInfluence inf) {
    List<GaussianRelease> rel = new ArrayList<>();
    // Round 1: steps 1..k; the last peer's next hop is peer 1, which knows its own step 1's noise (the
    // largest of the run). Until the sixteenth session it was counted, overstating the guarantee.
    double first = k == peers ? Math.max(0, prefix[k] - prefix[1]) : prefix[k];
    rel.add(new GaussianRelease(inf.firstRound(), first, "round 1: model after step " + k
        + (k == peers ? ", less step 1's noise (the observer's own)" : "")));
    for (int r = 2; r <= rounds; r++) {
      int prev = peers * (r - 2) + k;
      int now = peers * (r - 1) + k;
      // Steps prev+2 .. now; the observer's own step prev+1 is known to it.
      double v = Math.max(0, prefix[now] - prefix[prev + 1]);
      rel.add(new GaussianRelease(inf.laterRound(), v, "round " + r + ": difference of receipts"));
    }
    return rel;
  }

  private static List<GaussianRelease> wire(int k, int peers, int rounds, double[] added, RecordInfluence inf) {
    List<GaussianRelease> rel = new ArrayList<>();
    for (int r = 1; r <= rounds; r++) {
      int t = peers * (r - 1) + k;
      rel.add(new GaussianRelease(r == 1 ? inf.firstRound() : inf.laterRound(), added[t - 1],
          "step " + t + ": this hop minus the previous one"));
    }
    return rel;
  }
}
