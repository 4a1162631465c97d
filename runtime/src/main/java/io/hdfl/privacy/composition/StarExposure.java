package io.hdfl.privacy.composition;

import java.util.ArrayList;
import java.util.List;

/**
 * Per-observer guarantees of a record in a FedHDPrivacy star (K clients, R rounds, L new samples per
 * client per round; each record is learned in one round only). Per round r: {@code averaged[r-1]} is
 * the number k_r of client updates the aggregator averaged (K, or fewer when the round closed on a
 * quorum), {@code clientAdded[r-1]} is Γ_k^r, {@code globalPresent[r-1]} the variance present in the
 * global model after aggregation (server noise included). Observers:
 *
 * <ul>
 *   <li><b>final-model user</b>: the global model of the record's round carries its influence divided
 *       by k_r, with all the noise present in it; later models are post-processing of it;
 *   <li><b>global-model reader</b> (every client, and anyone who may subscribe to the global topic,
 *       where the models are published and retained): it knows the global model of round r−1, which
 *       does not depend on a record learned in round r, so differencing the two leaves the record's
 *       influence divided by k_r with only the noise the k_r updates added (at least k_r·Γ_k^r/k_r²,
 *       the least-noised client's Γ for each; noise the aggregator adds is not counted, which can only
 *       overstate ε). Until the twenty-first session
 *       the final-model user's figure was said to cover these readers too, which understated their ε
 *       in a round whose global model inherited noise (a review of the privacy code found it);
 *   <li><b>aggregator</b> (the clients' next hop): knows the global model it sent, so subtracting it
 *       from a client's update leaves the local update with only Γ_k^r of noise;
 *   <li><b>wire reader</b> (updates not end-to-end encrypted): the global model is published, so it can
 *       do what the aggregator does.
 * </ul>
 *
 * The worst round is reported. The global model's present variance is the papers' Σv_k/K², which
 * undercounts the noise the clients inherited from the same global model, so ε here is, if anything,
 * overstated — never understated.
 */
public final class StarExposure {
  private StarExposure() {}

  /** As {@link #observers(int[], double[], double[], RecordInfluence, double, double, boolean)} with K averaged every round. */
  public static List<ObserverGuarantee> observers(int clients, double[] clientAdded, double[] globalPresent,
      RecordInfluence influence, double delta, double headlineEpsilon, boolean wireEncrypted) {
    int[] averaged = new int[clientAdded.length];
    java.util.Arrays.fill(averaged, clients);
    return observers(averaged, clientAdded, globalPresent, influence, delta, headlineEpsilon, wireEncrypted);
  }

  public static List<ObserverGuarantee> observers(int[] averaged, double[] clientAdded, double[] globalPresent,
      RecordInfluence influence, double delta, double headlineEpsilon, boolean wireEncrypted) {
    return observers(averaged, clientAdded, globalPresent, new double[clientAdded.length],
        new double[clientAdded.length], influence, delta, headlineEpsilon, wireEncrypted);
  }

  /**
   * As above, with the grids the noise was added on in each round (0: continuous): {@code clientGrid}
   * the largest of the round's client updates, {@code aggregateGrid} the aggregator's (0 when it adds
   * none). A client snaps the model to its grid before adding its noise, which can move two
   * neighbouring updates apart by up to g·√n more (n the values a record can change, {@link
   * RecordInfluence#snapRoot}), and an aggregator that adds noise snaps the average.
   */
  public static List<ObserverGuarantee> observers(int[] averaged, double[] clientAdded, double[] globalPresent,
      double[] clientGrid, double[] aggregateGrid, RecordInfluence influence, double delta, double headlineEpsilon,
      boolean wireEncrypted) {
    int rounds = clientAdded.length;
    if (rounds < 1 || globalPresent.length != rounds || averaged.length != rounds || clientGrid.length != rounds
        || aggregateGrid.length != rounds) {
      throw new IllegalArgumentException("need R >= 1 and one value per round");
    }
    for (int k : averaged) {
      if (k < 1) {
        throw new IllegalArgumentException("need k >= 1 updates averaged in every round, got " + k);
      }
    }
    double snapRoot = influence.snapRoot(1); // a record is learned in one round
    // a client's update: the record's influence plus its snapping; the global model: that averaged,
    // plus the aggregator's own snapping
    double[] update = new double[rounds];
    double[] global = new double[rounds];
    for (int r = 0; r < rounds; r++) {
      update[r] = influence.firstRound() + snapRoot * clientGrid[r];
      global[r] = update[r] / averaged[r] + snapRoot * aggregateGrid[r];
    }
    List<ObserverGuarantee> out = new ArrayList<>();
    out.add(ObserverGuarantee.worstOf(rounds, r -> List.of(new GaussianRelease(global[r - 1],
            globalPresent[r - 1], "global model of round " + r + " (" + averaged[r - 1] + " updates averaged)")),
        r -> "a record learned in round " + r,
        "final-model user", "the global model (a record's influence divided by the updates averaged)", delta,
        headlineEpsilon));
    out.add(ObserverGuarantee.worstOf(rounds, r -> List.of(new GaussianRelease(global[r - 1],
            clientAdded[r - 1] / averaged[r - 1], "global model of round " + r + " minus that of round " + (r - 1) + " ("
            + averaged[r - 1] + " updates' noise)")), r -> "a record learned in round " + r,
        "global-model reader", "each global model minus the one before it (every client, and any subscriber to the "
            + "global topic)", delta, headlineEpsilon));
    out.add(ObserverGuarantee.worstOf(rounds, r -> List.of(new GaussianRelease(update[r - 1], clientAdded[r - 1],
            "client update of round " + r + " minus the global model")), r -> "a record learned in round " + r,
        "aggregator", "each client's update, minus the global model it sent", delta, headlineEpsilon));
    if (!wireEncrypted) {
      out.add(ObserverGuarantee.worstOf(rounds, r -> List.of(new GaussianRelease(update[r - 1], clientAdded[r - 1],
              "client update of round " + r + " minus the published global model")),
          r -> "a record learned in round " + r,
          "wire reader", "client updates (not end-to-end encrypted) and the published global model", delta,
          headlineEpsilon));
    }
    return out;
  }
}
