package io.hdfl.sensors.window;

import io.hdfl.sensors.signal.Channel;
import io.hdfl.sensors.signal.SignalFormatException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * Per-channel z-score normalization, {@code z = (x − mean) / sd}, with running statistics
 * ({@link ChannelStatistics}, Welford) updated from each sample a {@link Windowing} accepts (samples
 * filled in for gaps are not counted). A channel whose standard deviation is 0 (or below 10⁻¹² of its
 * mean's magnitude) is only centred. Three modes:
 * <ul>
 *   <li>{@link #running}: statistics keep updating; with a warm-up, no window is emitted before that
 *       many samples were seen;
 *   <li>{@link #frozenAfter}: statistics update during the warm-up, then freeze; no window is emitted
 *       during the warm-up, so all emitted windows share one normalization;
 *   <li>{@link #fixed}: given statistics, frozen from the start (e.g. restored with {@link #load}).
 * </ul>
 * The state (statistics and mode) can be {@linkplain #save saved} to a small file, written atomically,
 * and {@linkplain #load loaded} back; the format is on {@link NormalizationFile}. Not thread-safe.
 */
public final class Normalization {

  private final ChannelStatistics stats;
  private final long warmupSamples;
  private final boolean freezeAfterWarmup;
  private boolean frozen;

  Normalization(ChannelStatistics stats, long warmupSamples, boolean freezeAfterWarmup, boolean frozen) {
    if (warmupSamples < 0) {
      throw new IllegalArgumentException("warm-up must be ≥ 0 samples, got " + warmupSamples);
    }
    this.stats = stats;
    this.warmupSamples = warmupSamples;
    this.freezeAfterWarmup = freezeAfterWarmup;
    this.frozen = frozen || (freezeAfterWarmup && stats.count() >= warmupSamples);
  }

  /** Statistics that never freeze; windows are emitted from the start. */
  public static Normalization running(List<Channel> channels) {
    return running(channels, 0);
  }

  /** Statistics that never freeze; no window is emitted before {@code warmupSamples} samples. */
  public static Normalization running(List<Channel> channels, long warmupSamples) {
    return new Normalization(new ChannelStatistics(channels), warmupSamples, false, false);
  }

  /** Statistics of the first {@code warmupSamples} samples (≥ 1), then frozen; no window before that. */
  public static Normalization frozenAfter(List<Channel> channels, long warmupSamples) {
    if (warmupSamples < 1) {
      throw new IllegalArgumentException("warm-up must be ≥ 1 sample, got " + warmupSamples);
    }
    return new Normalization(new ChannelStatistics(channels), warmupSamples, true, false);
  }

  /** The given statistics (copied), frozen. */
  public static Normalization fixed(ChannelStatistics statistics) {
    return new Normalization(statistics.copy(), 0, false, true);
  }

  /**
   * Restores a normalization saved with {@link #save}.
   *
   * @throws SignalFormatException if the file is not a valid, complete normalization file
   */
  public static Normalization load(Path file) throws IOException {
    return NormalizationFile.read(file);
  }

  /** Writes the statistics and mode to {@code file} atomically (temporary file, fsync, rename). */
  public void save(Path file) throws IOException {
    NormalizationFile.write(file, this);
  }

  /** Takes one accepted sample into the statistics, unless frozen. */
  void observe(float[] values) {
    if (frozen) {
      return;
    }
    stats.add(values);
    if (freezeAfterWarmup && stats.count() >= warmupSamples) {
      frozen = true;
    }
  }

  /** Stops updating the statistics. */
  public void freeze() {
    frozen = true;
  }

  /** Whether the statistics no longer change. */
  public boolean isFrozen() {
    return frozen;
  }

  /** Whether the warm-up is over (or the statistics are frozen), so windows may be emitted. */
  public boolean isReady() {
    return frozen || stats.count() >= warmupSamples;
  }

  /** The warm-up length in samples. */
  public long warmupSamples() {
    return warmupSamples;
  }

  /** Whether the statistics freeze when the warm-up ends. */
  public boolean freezesAfterWarmup() {
    return freezeAfterWarmup;
  }

  /** The channels normalized. */
  public List<Channel> channels() {
    return stats.channels();
  }

  /** A copy of the current statistics. */
  public ChannelStatistics statistics() {
    return stats.copy();
  }

  /** The mean subtracted from channel {@code c}. */
  public double mean(int c) {
    return stats.mean(c);
  }

  /** The factor applied after centring channel {@code c}: 1 / sd, or 1 for a constant channel. */
  public double scale(int c) {
    double sd = stats.standardDeviation(c);
    return sd > 1e-12 * Math.max(1, Math.abs(stats.mean(c))) ? 1 / sd : 1;
  }

  /** {@code (x − mean(c)) · scale(c)}. */
  public float apply(int c, float x) {
    return (float) ((x - stats.mean(c)) * scale(c));
  }

  /** Read access for the file codec. */
  ChannelStatistics liveStatistics() {
    return stats;
  }

  @Override
  public String toString() {
    return "Normalization[" + channels().size() + " channels, " + stats.count() + " samples, "
        + (frozen ? "frozen" : freezeAfterWarmup ? "freezes after " + warmupSamples : "running")
        + (warmupSamples > 0 ? ", warm-up " + warmupSamples : "") + "]";
  }
}
