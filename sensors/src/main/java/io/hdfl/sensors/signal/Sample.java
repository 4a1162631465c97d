package io.hdfl.sensors.signal;

import java.util.Arrays;
import java.util.Objects;

/**
 * One multichannel sample: a timestamp, one value per channel of its {@link SignalSource} (in the
 * order of {@link SignalSource#channels()}), and optionally a class label.
 *
 * <p><b>Timestamps</b> are nanoseconds since the Unix epoch (UTC). Within one stream they never go
 * backwards: live sources anchor a monotonic clock ({@link System#nanoTime()}) to the wall clock once
 * when they start, so a clock step (NTP) cannot reorder samples; the synthetic source runs a
 * simulated clock from a configurable start instant; replayed files carry the timestamps recorded.
 * Only differences between timestamps matter to windowing and pacing.
 *
 * <p><b>Labels</b> are class indices ≥ 0, or {@link #NO_LABEL}. Sources that know the class of what
 * they produce (the synthetic generator, a labelled recording) attach it; labels learned later can be
 * attached with {@link #withLabel(int)}.
 *
 * <p>Immutable: the values are copied in and out.
 */
public final class Sample {

  /** The label of a sample whose class is not known. */
  public static final int NO_LABEL = -1;

  private final long timestampNanos;
  private final float[] values;
  private final int label;

  /**
   * A sample with a label (or {@link #NO_LABEL}).
   *
   * @throws IllegalArgumentException if there are no values or the label is below {@link #NO_LABEL}
   */
  public Sample(long timestampNanos, float[] values, int label) {
    this(Objects.requireNonNull(values, "values").clone(), timestampNanos, label);
  }

  /** An unlabelled sample. */
  public Sample(long timestampNanos, float[] values) {
    this(timestampNanos, values, NO_LABEL);
  }

  private Sample(float[] values, long timestampNanos, int label) {
    if (values.length == 0) {
      throw new IllegalArgumentException("a sample needs at least one channel value");
    }
    if (label < NO_LABEL) {
      throw new IllegalArgumentException("label must be ≥ 0 or NO_LABEL (-1), got " + label);
    }
    this.timestampNanos = timestampNanos;
    this.values = values;
    this.label = label;
  }

  /** Takes ownership of {@code values} without copying (for sources that allocate a fresh array). */
  static Sample adopt(long timestampNanos, float[] values, int label) {
    return new Sample(values, timestampNanos, label);
  }

  /** Nanoseconds since the Unix epoch (UTC). */
  public long timestampNanos() {
    return timestampNanos;
  }

  /** Number of values, equal to the number of channels of the source. */
  public int channelCount() {
    return values.length;
  }

  /** The value of channel {@code channel}. */
  public float value(int channel) {
    return values[channel];
  }

  /** A copy of the values, one per channel. */
  public float[] values() {
    return values.clone();
  }

  /** Copies the values into {@code dst} starting at {@code offset}. */
  public void copyValues(float[] dst, int offset) {
    System.arraycopy(values, 0, dst, offset, values.length);
  }

  /** Whether the sample carries a class label. */
  public boolean hasLabel() {
    return label != NO_LABEL;
  }

  /** The class label, or {@link #NO_LABEL}. */
  public int label() {
    return label;
  }

  /** This sample with another label (or {@link #NO_LABEL}). */
  public Sample withLabel(int newLabel) {
    return newLabel == label ? this : new Sample(values, timestampNanos, newLabel);
  }

  /** Whether every value is finite (no NaN, no infinity). */
  public boolean isFinite() {
    for (float v : values) {
      if (!Float.isFinite(v)) {
        return false;
      }
    }
    return true;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Sample s && s.timestampNanos == timestampNanos && s.label == label
        && Arrays.equals(s.values, values);
  }

  @Override
  public int hashCode() {
    return Long.hashCode(timestampNanos) * 31 * 31 + Arrays.hashCode(values) * 31 + label;
  }

  @Override
  public String toString() {
    String v = values.length <= 8 ? Arrays.toString(values)
        : Arrays.toString(Arrays.copyOf(values, 8)).replace("]", ", ... (" + values.length + " values)]");
    return "Sample[t=" + timestampNanos + " ns, " + v + (hasLabel() ? ", label " + label : "") + "]";
  }
}
