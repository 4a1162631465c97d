package io.hdfl.privacy.schedule;

/**
 * One row of a {@link NoiseSchedule}. Variances are per model component.
 *
 * <p>Ring schedules (privatedfl, blackbox, none) have one row per step t = K(r−1)+k, where peer k
 * trains on its shard and noises the model before passing it on. Star schedules (fedhdp) have one row
 * per round for a representative client (all clients are alike) and the server.
 *
 * @param step global step t (ring) or round r (star), from 1
 * @param round round r, from 1
 * @param peer peer k of the step, from 1 (ring); the representative client, 1 (star)
 * @param samples samples the model has absorbed after the step (ring) or the averaged global model
 *     after the round (star), counted with repetition
 * @param required variance required after the step: ξ(t) (ring); the server's ξ_g^r (star)
 * @param present variance present after the step (ring); Ψ_g^r, present in the average of the
 *     clients' models before the server acts (star)
 * @param added variance added at the step (ring); added by each client in the round, Γ_k^r (star)
 * @param blackbox cumulative variance a black-box baseline, which cannot see prior noise and re-adds
 *     the full requirement every time, would have added by this step (ring) or, per client, by this
 *     round (star)
 * @param gamma γ = Ψ_g/ξ_g (star); NaN for ring schedules
 * @param serverAdded variance the server adds to the average, max(0, ξ_g − Ψ_g) (star); NaN for ring
 *     schedules
 */
public record ScheduleRow(long step, int round, int peer, long samples, double required, double present,
    double added, double blackbox, double gamma, double serverAdded) {

  /** Whether this row has the server's γ and added variance (star schedules). */
  public boolean hasServer() {
    return !Double.isNaN(gamma);
  }
}
