package io.hdfl.federation;

import io.hdfl.codec.ModelEnvelope;

/**
 * What a ring peer has committed, so that a restarted device continues where it stopped (README
 * "Crash safety"): the last step it produced, whether its data are bundled into the model, where its
 * seeded noise stream stands, and — until the next peer acknowledged it — the model it is handing on,
 * already trained and noised, whose last ledger line is this peer's signed entry for the step.
 *
 * @param noisePosition the noise source's {@link io.hdfl.privacy.noise.NoiseSource#position()} after
 *     this step's draw (-1: a CSPRNG, not resumed)
 * @param outgoing the model of {@code lastStep} with every ledger line this peer has seen since its
 *     previous turn; null once it was delivered (acknowledged, or published as the final model)
 */
public record RingCheckpoint(long lastStep, boolean bundled, long noisePosition, ModelEnvelope outgoing) {
  public RingCheckpoint {
    if (lastStep < 1) {
      throw new IllegalArgumentException("a ring checkpoint's step must be >= 1, got " + lastStep);
    }
    if (outgoing != null && outgoing.step() != lastStep) {
      throw new IllegalArgumentException("outgoing model of step " + outgoing.step() + " in a checkpoint of step " + lastStep);
    }
  }

  /** Whether the model of {@link #lastStep} has been delivered. */
  public boolean delivered() {
    return outgoing == null;
  }

  /** This checkpoint once its model was delivered (the model itself is no longer kept). */
  public RingCheckpoint asDelivered() {
    return new RingCheckpoint(lastStep, bundled, noisePosition, null);
  }
}
