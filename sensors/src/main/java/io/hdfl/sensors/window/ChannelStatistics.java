package io.hdfl.sensors.window;

import io.hdfl.sensors.signal.Channel;
import java.util.List;
import java.util.Objects;

/**
 * Running mean and variance of each channel by Welford's algorithm (numerically stable, one pass, in
 * double precision): for each new value x of a channel, {@code n += 1; δ = x − mean;
 * mean += δ / n; m2 += δ · (x − mean)}; variance = m2 / n (population). Not thread-safe.
 */
public final class ChannelStatistics {

  private final List<Channel> channels;
  private long count;
  private final double[] mean;
  private final double[] m2;

  /** Empty statistics for {@code channels}. */
  public ChannelStatistics(List<Channel> channels) {
    this.channels = Channel.checkList(channels);
    this.mean = new double[this.channels.size()];
    this.m2 = new double[this.channels.size()];
  }

  /**
   * Statistics restored from their parts.
   *
   * @throws IllegalArgumentException if the arrays do not match the channels, the count is negative,
   *     a value is not finite or a sum of squares is negative
   */
  public ChannelStatistics(List<Channel> channels, long count, double[] mean, double[] m2) {
    this(channels);
    Objects.requireNonNull(mean, "mean");
    Objects.requireNonNull(m2, "m2");
    if (mean.length != this.mean.length || m2.length != this.m2.length) {
      throw new IllegalArgumentException("statistics for " + this.mean.length + " channels need as many means and"
          + " sums of squares, got " + mean.length + " and " + m2.length);
    }
    if (count < 0) {
      throw new IllegalArgumentException("sample count is negative: " + count);
    }
    for (int c = 0; c < mean.length; c++) {
      if (!Double.isFinite(mean[c]) || !Double.isFinite(m2[c]) || m2[c] < 0) {
        throw new IllegalArgumentException("channel " + this.channels.get(c).name() + ": mean " + mean[c]
            + " and sum of squares " + m2[c] + " must be finite, the sum ≥ 0");
      }
    }
    this.count = count;
    System.arraycopy(mean, 0, this.mean, 0, mean.length);
    System.arraycopy(m2, 0, this.m2, 0, m2.length);
  }

  /** Adds one sample's values (one per channel, all finite). */
  public void add(float[] values) {
    if (values.length != mean.length) {
      throw new IllegalArgumentException(values.length + " values for " + mean.length + " channels");
    }
    count++;
    for (int c = 0; c < values.length; c++) {
      double x = values[c];
      double delta = x - mean[c];
      mean[c] += delta / count;
      m2[c] += delta * (x - mean[c]);
    }
  }

  /** The channels, in value order. */
  public List<Channel> channels() {
    return channels;
  }

  /** Samples added. */
  public long count() {
    return count;
  }

  /** Mean of channel {@code c} (0 before any sample). */
  public double mean(int c) {
    return mean[c];
  }

  /** Sum of squared deviations from the mean of channel {@code c}. */
  public double sumOfSquares(int c) {
    return m2[c];
  }

  /** Population variance m2 / n of channel {@code c} (0 before two samples). */
  public double variance(int c) {
    return count < 2 ? 0 : m2[c] / count;
  }

  /** Standard deviation of channel {@code c}. */
  public double standardDeviation(int c) {
    return Math.sqrt(variance(c));
  }

  /** An independent copy. */
  public ChannelStatistics copy() {
    return new ChannelStatistics(channels, count, mean, m2);
  }
}
