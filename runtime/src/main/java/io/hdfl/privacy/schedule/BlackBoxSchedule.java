package io.hdfl.privacy.schedule;

import io.hdfl.privacy.PrivacyParameters;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Objects;

/**
 * The black-box ring baseline: a peer that cannot see the noise already in the model re-adds the
 * full requirement ξ(t) = c·ln(1.25·t·N/δ0) at every step, so the variance present grows to
 * Ξ(t) = Σ ξ(i) = c·[t·ln(1.25N/δ0) + ln t!]. Rows come from the {@link IncrementalAccountant} shown a
 * model with no noise; {@link #cumulative} is the closed form.
 */
public final class BlackBoxSchedule extends RingSchedule {
  private BlackBoxSchedule(PrivacyParameters params, RingShape shape) {
    super(params, shape, true);
  }

  /** Same arguments as {@link PrivateDflSchedule#of}. */
  public static BlackBoxSchedule of(PrivacyParameters params, int peers, long samplesPerPeer, int rounds) {
    Objects.requireNonNull(params, "params");
    RingShape shape = new RingShape(peers, samplesPerPeer, rounds);
    RingShape.requireDelta0Below1(params, ScheduleMode.BLACKBOX);
    return new BlackBoxSchedule(params, shape);
  }

  /** Closed form of the variance added at step t: the full requirement ξ(t). */
  public static double added(PrivacyParameters params, long samplesPerPeer, long step) {
    return PrivateDflSchedule.required(params, samplesPerPeer, step);
  }

  /** Closed form Ξ(t) = c·[t·ln(1.25N/δ0) + ln t!]: variance present after step t ≥ 1. */
  public static double cumulative(PrivacyParameters params, long samplesPerPeer, long step) {
    if (step < 1) {
      throw new IllegalArgumentException("step must be >= 1, got " + step);
    }
    return params.c() * (step * Math.log(1.25 * samplesPerPeer / params.delta0()) + LogGamma.lnFactorial(step));
  }

  @Override
  public Iterator<ScheduleRow> iterator() {
    return new Iterator<>() {
      private final IncrementalAccountant accountant = new IncrementalAccountant(params, 1.0);
      private final CompensatedSum present = new CompensatedSum();
      private long samples;
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
        // Blind: the peer sees the samples but not the noise already in the model.
        NoiseDecision d = accountant.decide(new ModelNoiseState(0.0, samples), shape.samplesPerPeer());
        samples = d.samplesTotal();
        present.add(d.added());
        double cumulative = present.value();
        return new ScheduleRow(step, shape.round(step), shape.peer(step), samples, d.required(), cumulative,
            d.added(), cumulative, Double.NaN, Double.NaN);
      }
    };
  }

  @Override
  public ScheduleMode mode() {
    return ScheduleMode.BLACKBOX;
  }
}
