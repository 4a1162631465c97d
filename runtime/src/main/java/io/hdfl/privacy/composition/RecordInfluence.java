package io.hdfl.privacy.composition;

/**
 * How far one training record can move a model (L2), per the HD training rules. Bundling a sample
 * once adds its hypervector H to one prototype: ‖H‖ ≤ √D. One perceptron retraining pass over it can
 * add H to one prototype and subtract it from another: √(2D). With E passes per round, a round in
 * which the record is bundled moves the model by at most √D + E·√(2D), and a later round in which it
 * is only revisited by retraining by at most E·√(2D) (triangle inequality: a worst case).
 */
public record RecordInfluence(int dim, int retrainPassesPerRound) {
  public RecordInfluence {
    if (dim < 1 || retrainPassesPerRound < 0) {
      throw new IllegalArgumentException("need D >= 1 and retraining passes >= 0");
    }
  }

  /** The sensitivity the papers' schedules assume: a sample bundled once, √D. */
  public double headline() {
    return Math.sqrt(dim);
  }

  /** Round in which the record is bundled: √D + E·√(2D). */
  public double firstRound() {
    return Math.sqrt(dim) + retrainPassesPerRound * Math.sqrt(2.0 * dim);
  }

  /** A later round that only retrains on it: E·√(2D). */
  public double laterRound() {
    return retrainPassesPerRound * Math.sqrt(2.0 * dim);
  }
}
