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

  /**
   * √ of the model values in which two neighbouring models can differ after the record's releases over
   * {@code rounds} rounds: snapping to a noise grid g can move each such value apart by g more
   * ({@code SecureNoiseSource#gridStep}). Bundling changes the record's class vector (D values); each
   * retraining pass can change two class vectors, so with E passes a round up to 1 + 2·E·rounds of
   * them (the class count, which a ledger does not record, may be fewer).
   */
  public double snapRoot(int rounds) {
    if (rounds < 1) {
      throw new IllegalArgumentException("rounds must be >= 1, got " + rounds);
    }
    return Math.sqrt((1 + 2.0 * retrainPassesPerRound * rounds) * dim);
  }
}
