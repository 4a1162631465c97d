package io.hdfl.privacy.schedule;

/**
 * One decision of the {@link IncrementalAccountant}: how much noise variance an update adds and why.
 * A ledger records it as is.
 *
 * @param samplesBefore samples the model had absorbed before the update
 * @param samplesAdded new samples the update absorbs (0 for a skipped peer or an aggregation)
 * @param samplesTotal {@code samplesBefore + samplesAdded}
 * @param required variance the Gaussian mechanism requires for {@code samplesTotal} samples (0 if none)
 * @param presentBefore variance present before the update
 * @param added variance of the noise to add, never negative
 * @param presentAfter variance present after the update, {@code max(presentBefore, required)}
 * @param reason why {@code added} has this value, for people reading the ledger
 */
public record NoiseDecision(long samplesBefore, long samplesAdded, long samplesTotal, double required,
    double presentBefore, double added, double presentAfter, String reason) {

  /** The model's state after the update. */
  public ModelNoiseState after() {
    return new ModelNoiseState(presentAfter, samplesTotal);
  }
}
