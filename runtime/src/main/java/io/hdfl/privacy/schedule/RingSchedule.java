package io.hdfl.privacy.schedule;

import io.hdfl.privacy.PrivacyParameters;

/** What every ring schedule shares: its parameters, its K·N·R shape and the accessors over them. */
abstract class RingSchedule implements NoiseSchedule {
  final PrivacyParameters params;
  final RingShape shape;
  private final boolean describeDelta0;

  RingSchedule(PrivacyParameters params, RingShape shape, boolean describeDelta0) {
    this.params = params;
    this.shape = shape;
    this.describeDelta0 = describeDelta0;
  }

  @Override
  public final PrivacyParameters parameters() {
    return params;
  }

  @Override
  public final int peers() {
    return shape.peers();
  }

  @Override
  public final long samplesPerUpdate() {
    return shape.samplesPerPeer();
  }

  @Override
  public final int rounds() {
    return shape.rounds();
  }

  @Override
  public final long rowCount() {
    return shape.steps();
  }

  @Override
  public String description() {
    return shape.describe(mode(), params, describeDelta0);
  }
}
