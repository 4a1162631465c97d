package io.hdfl.sensors.signal.mqtt;

import io.hdfl.sensors.signal.Sample;
import java.util.Arrays;

/**
 * Turns the values one message carried into a full sample by the {@link MissingValuePolicy}, and
 * remembers each channel's last value for {@link MissingValuePolicy#CARRY_FORWARD}. Not thread-safe:
 * used by the MQTT callback thread only.
 */
final class SampleAssembler {

  private final MissingValuePolicy policy;
  private final float[] last;
  private final IngestCounters counters;

  SampleAssembler(int channels, MissingValuePolicy policy, IngestCounters counters) {
    this.policy = policy;
    this.last = new float[channels];
    this.counters = counters;
    Arrays.fill(last, Float.NaN);
  }

  /**
   * The sample for one message; {@code values[c]} counts only where {@code present[c]}. Updates the
   * last values of the present channels.
   *
   * @return the sample, or null if the policy drops it (counted)
   */
  Sample assemble(long timestampNanos, float[] values, boolean[] present, int label) {
    remember(values, present);
    float[] out = new float[last.length];
    boolean missing = false;
    for (int c = 0; c < out.length; c++) {
      if (present[c]) {
        out[c] = values[c];
      } else {
        out[c] = policy == MissingValuePolicy.CARRY_FORWARD ? last[c] : Float.NaN;
        missing |= Float.isNaN(out[c]);
      }
    }
    if (missing) {
      if (policy == MissingValuePolicy.DROP) {
        counters.droppedIncomplete.incrementAndGet();
        return null;
      }
      counters.incomplete.incrementAndGet();
    }
    return new Sample(timestampNanos, out, label);
  }

  /** Records values without producing a sample (a Sparkplug birth's current values). */
  void remember(float[] values, boolean[] present) {
    for (int c = 0; c < last.length; c++) {
      if (present[c]) {
        last[c] = values[c];
      }
    }
  }

  /** Forgets the last value of {@code channel}: its publisher died or its data may have been missed. */
  void forget(int channel) {
    last[channel] = Float.NaN;
  }

  /** Forgets every last value. */
  void forgetAll() {
    Arrays.fill(last, Float.NaN);
  }
}
