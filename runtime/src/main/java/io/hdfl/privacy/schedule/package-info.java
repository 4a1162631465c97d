/**
 * Noise schedules and the incremental accountant behind them (DESIGN §4). Pure arithmetic, no I/O.
 *
 * <p>A model carries a {@link io.hdfl.privacy.schedule.ModelNoiseState} (variance present, samples
 * absorbed). Before a model is released, the {@link io.hdfl.privacy.schedule.IncrementalAccountant}
 * decides how much variance to add: what the Gaussian mechanism requires for all the samples absorbed,
 * minus what is already present ({@link io.hdfl.privacy.schedule.NoiseDecision}, with its reason).
 * The {@link io.hdfl.privacy.schedule.NoiseSchedule}s lay a whole run out row by row with that rule:
 * {@link io.hdfl.privacy.schedule.PrivateDflSchedule} (ring), {@link
 * io.hdfl.privacy.schedule.FedHdPrivacySchedule} (star), and the baselines {@link
 * io.hdfl.privacy.schedule.BlackBoxSchedule} and {@link io.hdfl.privacy.schedule.NoPrivacySchedule}.
 * Their static methods are the papers' closed forms, which the tests check the accountant against.
 */
package io.hdfl.privacy.schedule;
