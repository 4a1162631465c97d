/**
 * Signal sources (DESIGN §7): timestamped multichannel {@link io.hdfl.sensors.signal.Sample}s from a
 * {@link io.hdfl.sensors.signal.SignalSource}, pulled with {@code next()} or pushed to a
 * {@link io.hdfl.sensors.signal.SampleListener} by a {@link io.hdfl.sensors.signal.SignalPump}.
 *
 * <ul>
 *   <li>{@link io.hdfl.sensors.signal.SyntheticMachiningSource}: a deterministic CNC drilling simulator,
 *       90 channels at 500 Hz, 3 quality classes, per-machine (non-IID) behaviour;
 *   <li>{@link io.hdfl.sensors.signal.SignalRecorder} and
 *       {@link io.hdfl.sensors.signal.RecordedSignalSource}: hdfl's compact binary recording format
 *       (HDSG, checksummed records, layout on the recorder);
 *   <li>{@link io.hdfl.sensors.signal.CsvSignalSource}: CSV files with a header of {@code name[unit]}
 *       columns, a timestamp column and an optional label column;
 *   <li>{@link io.hdfl.sensors.signal.pi4j}: hardware sources through Pi4J (ADS1115 and MCP3008 ADCs,
 *       GPIO inputs, a label switch) sampled at a fixed rate by
 *       {@link io.hdfl.sensors.signal.pi4j.PolledSignalSource}.
 * </ul>
 *
 * <p>Replays and the simulator deliver as fast as possible, at real time or accelerated
 * ({@link io.hdfl.sensors.signal.Pacing}). Untrusted files are bounded (at most
 * {@value io.hdfl.sensors.signal.Channel#MAX_CHANNELS} channels, bounded names and lines) and damage is
 * reported as a {@link io.hdfl.sensors.signal.SignalFormatException} naming the file and position.
 */
package io.hdfl.sensors.signal;
