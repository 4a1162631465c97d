package io.hdfl.federation;

import io.hdfl.codec.ModelEnvelope;

/**
 * What a star client has committed before publishing the update of {@code round}: the update itself
 * (trained, noised, with its signed ledger line), the aggregator it is sealed for, how many samples its
 * stream has handed out, and where its seeded noise stream stands. A restarted client re-publishes the
 * update (the aggregator takes one update per client and round) and answers no global model of this
 * round or earlier again.
 */
public record ClientCheckpoint(int round, long noisePosition, long samplesTaken, String aggregator,
    ModelEnvelope update) {
  public ClientCheckpoint {
    if (round < 1 || samplesTaken < 0) {
      throw new IllegalArgumentException("a client checkpoint needs round >= 1 and samples >= 0, got round " + round
          + ", samples " + samplesTaken);
    }
    if (update == null || update.kind() != ModelEnvelope.Kind.CLIENT_UPDATE || update.round() != round) {
      throw new IllegalArgumentException("a client checkpoint holds its update of round " + round);
    }
    java.util.Objects.requireNonNull(aggregator, "aggregator");
  }
}
