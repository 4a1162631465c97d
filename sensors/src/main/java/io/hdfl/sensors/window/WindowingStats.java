package io.hdfl.sensors.window;

/**
 * Counters of a {@link Windowing}, so nothing it drops goes unnoticed.
 *
 * @param samples samples offered
 * @param windows windows emitted
 * @param mixedLabelWindows windows not emitted because their samples' labels differ (a class change
 *     inside the window, or labelled and unlabelled samples together)
 * @param warmupWindows windows not emitted because normalization was still warming up
 * @param gaps timing gaps (missing samples) detected
 * @param irregularIntervals intervals not near any multiple of the nominal period
 * @param discontinuities restarts of windowing after a gap or irregular interval (all buffered
 *     samples discarded)
 * @param filledSamples samples filled in by {@link GapPolicy#FILL_PREVIOUS}
 * @param nonFiniteSamples samples discarded for NaN or infinite values
 * @param nonFiniteWindows windows dropped because a normalized feature overflowed float
 */
public record WindowingStats(long samples, long windows, long mixedLabelWindows, long warmupWindows, long gaps,
    long irregularIntervals, long discontinuities, long filledSamples, long nonFiniteSamples, long nonFiniteWindows) {}
