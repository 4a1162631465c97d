package io.hdfl.privacy.schedule;

import io.hdfl.privacy.PrivacyParameters;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Objects;

/**
 * PrivateDFL's ring schedule (DESIGN §4): at step t = K(r−1)+k peer k absorbs its N samples and adds
 * the variance the {@link IncrementalAccountant} decides (sensitivity √D). With equal shards this is
 * ξ(t) = c·ln(1.25·t·N/δ0) required and present, Γ(1) = ξ(1), Γ(t) = c·ln(t/(t−1)) added; the static
 * methods give these closed forms.
 */
public final class PrivateDflSchedule extends RingSchedule {
  private PrivateDflSchedule(PrivacyParameters params, RingShape shape) {
    super(params, shape, true);
  }

  /**
   * @param params D, ε and δ0 ∈ (0, 1)
   * @param peers K ≥ 1
   * @param samplesPerPeer N ≥ 1, absorbed by a peer at each of its steps
   * @param rounds R ≥ 1
   */
  public static PrivateDflSchedule of(PrivacyParameters params, int peers, long samplesPerPeer, int rounds) {
    Objects.requireNonNull(params, "params");
    RingShape shape = new RingShape(peers, samplesPerPeer, rounds);
    RingShape.requireDelta0Below1(params, ScheduleMode.PRIVATEDFL);
    return new PrivateDflSchedule(params, shape);
  }

  /** Closed form ξ(t) = c·ln(1.25·t·N/δ0): required and present after step t ≥ 1. */
  public static double required(PrivacyParameters params, long samplesPerPeer, long step) {
    return params.c() * Math.log(1.25 * ((double) step * samplesPerPeer) / params.delta0());
  }

  /** Closed form Γ(t): c·ln(1.25·N/δ0) at t = 1, c·ln(t/(t−1)) after (evaluated as log1p(1/(t−1))). */
  public static double added(PrivacyParameters params, long samplesPerPeer, long step) {
    if (step < 1) {
      throw new IllegalArgumentException("step must be >= 1, got " + step);
    }
    if (step == 1) {
      return required(params, samplesPerPeer, 1);
    }
    return params.c() * Math.log1p(1.0 / (step - 1));
  }

  @Override
  public Iterator<ScheduleRow> iterator() {
    return new Iterator<>() {
      private final IncrementalAccountant accountant = new IncrementalAccountant(params, 1.0);
      private ModelNoiseState state = ModelNoiseState.EMPTY;
      private long step;

      @Override
      public boolean hasNext() {
        return step < shape.steps();
      }

      @Override
      public ScheduleRow next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        step++;
        NoiseDecision d = accountant.decide(state, shape.samplesPerPeer());
        state = d.after();
        return new ScheduleRow(step, shape.round(step), shape.peer(step), d.samplesTotal(), d.required(),
            d.presentAfter(), d.added(), BlackBoxSchedule.cumulative(params, shape.samplesPerPeer(), step),
            Double.NaN, Double.NaN);
      }
    };
  }

  @Override
  public ScheduleMode mode() {
    return ScheduleMode.PRIVATEDFL;
  }
}
