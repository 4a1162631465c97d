package io.hdfl.federation;

import io.hdfl.codec.ModelEnvelope;
import io.hdfl.privacy.schedule.ModelNoiseState;
import java.util.List;

/**
 * What the star's aggregator has committed after averaging a round, before any of it leaves: the
 * round it now waits for ({@code global.round()}; past R once the final model is out), the noise state
 * of the new global model, where its seeded noise stream stands, the ledger lines of the aggregation
 * (the clients' entries, then its own aggregate entry, appended to the ledger after this commit) and
 * the global (or final) model to publish. A restarted aggregator completes the ledger from these
 * lines, publishes the model again and waits for that round's updates, which clients re-send when it
 * announces itself online.
 */
public record AggregatorCheckpoint(int round, ModelNoiseState state, long noisePosition, List<String> lines,
    ModelEnvelope global) {
  public AggregatorCheckpoint {
    lines = List.copyOf(lines);
    if (round < 2 || lines.isEmpty()) {
      throw new IllegalArgumentException("an aggregator checkpoint follows an aggregation (round >= 2, ledger lines)");
    }
    if (global == null || (global.kind() != ModelEnvelope.Kind.GLOBAL_MODEL && global.kind() != ModelEnvelope.Kind.FINAL_MODEL)) {
      throw new IllegalArgumentException("an aggregator checkpoint holds the global or final model it publishes");
    }
    java.util.Objects.requireNonNull(state, "state");
  }

  /** The aggregate entry of the last aggregation. */
  public String lastAggregateLine() {
    return lines.get(lines.size() - 1);
  }
}
