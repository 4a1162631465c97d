/**
 * Windowing (DESIGN §7): {@link io.hdfl.sensors.window.Windowing} cuts a sample stream into sliding
 * {@link io.hdfl.sensors.window.Window}s (size, stride) flattened sample-major to feature vectors
 * (FedHDPrivacy: 10 samples × 90 signals = 900 features), with explicit policies for timing gaps
 * ({@link io.hdfl.sensors.window.GapPolicy}) and NaN/infinite values
 * ({@link io.hdfl.sensors.window.NonFinitePolicy}), label agreement, counters of everything dropped
 * ({@link io.hdfl.sensors.window.WindowingStats}), and per-channel z-score
 * {@link io.hdfl.sensors.window.Normalization} with Welford running statistics that can be frozen,
 * saved atomically and restored.
 */
package io.hdfl.sensors.window;
