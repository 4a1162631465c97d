package io.hdfl.privacy.schedule;

import io.hdfl.privacy.PrivacyParameters;
import java.util.Objects;

/**
 * How a peer chooses the noise of one update, per schedule mode: the {@link IncrementalAccountant}
 * (privatedfl, fedhdp), the black-box baseline that cannot see earlier noise and re-adds the full
 * requirement, or no noise at all. What federation peers call; schedules lay the same rules out ahead
 * of time.
 */
public interface NoisePolicy {
  /** The decision for a model in state {@code before} absorbing {@code newSamples}. */
  NoiseDecision decide(ModelNoiseState before, long newSamples);

  ScheduleMode mode();

  /** The policy of {@code mode} at sensitivity {@code scale}·√D. */
  static NoisePolicy of(ScheduleMode mode, PrivacyParameters params, double scale) {
    Objects.requireNonNull(mode, "mode");
    switch (mode) {
      case PRIVATEDFL:
      case FEDHDP: {
        IncrementalAccountant accountant = new IncrementalAccountant(params, scale);
        return new NoisePolicy() {
          @Override
          public NoiseDecision decide(ModelNoiseState before, long newSamples) {
            return accountant.decide(before, newSamples);
          }

          @Override
          public ScheduleMode mode() {
            return mode;
          }
        };
      }
      case BLACKBOX: {
        IncrementalAccountant blind = new IncrementalAccountant(params, scale);
        return new NoisePolicy() {
          @Override
          public NoiseDecision decide(ModelNoiseState before, long newSamples) {
            // Blind to the noise present: the full requirement for the new total is added again.
            NoiseDecision d = blind.decide(new ModelNoiseState(0.0, before.samplesAbsorbed()), newSamples);
            double present = before.presentVariance();
            return new NoiseDecision(d.samplesBefore(), d.samplesAdded(), d.samplesTotal(), d.required(), present,
                d.added(), present + d.added(), "black-box: full requirement for " + d.samplesTotal()
                    + " samples added again");
          }

          @Override
          public ScheduleMode mode() {
            return ScheduleMode.BLACKBOX;
          }
        };
      }
      default:
        return new NoisePolicy() {
          @Override
          public NoiseDecision decide(ModelNoiseState before, long newSamples) {
            long total = Math.addExact(before.samplesAbsorbed(), newSamples);
            return new NoiseDecision(before.samplesAbsorbed(), newSamples, total, 0.0, 0.0, 0.0, 0.0,
                "no privacy: no noise");
          }

          @Override
          public ScheduleMode mode() {
            return ScheduleMode.NONE;
          }
        };
    }
  }
}
