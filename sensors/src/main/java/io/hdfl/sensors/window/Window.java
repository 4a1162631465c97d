package io.hdfl.sensors.window;

import io.hdfl.sensors.signal.Sample;
import java.util.Arrays;

/**
 * One window of {@code size} consecutive samples of {@code channels} channels, flattened to
 * {@code size × channels} features in <b>sample-major</b> order: feature {@code t·channels + c} is
 * channel {@code c} of the window's {@code t}-th sample (t = 0 the oldest), i.e. the row-major
 * flattening of the size × channels matrix. FedHDPrivacy: 10 samples × 90 signals = 900 features,
 * the 90 values of the first sample, then the second, and so on. Values are normalized if the
 * {@link Windowing} normalizes.
 *
 * <p>The label is the label all samples of the window share (windows with mixed labels are not
 * emitted), or {@link Sample#NO_LABEL}. Immutable.
 */
public final class Window {

  private final float[] features;
  private final int size;
  private final int channels;
  private final int label;
  private final long startNanos;
  private final long endNanos;
  private final int filled;

  Window(float[] features, int size, int channels, int label, long startNanos, long endNanos, int filled) {
    this.features = features;
    this.size = size;
    this.channels = channels;
    this.label = label;
    this.startNanos = startNanos;
    this.endNanos = endNanos;
    this.filled = filled;
  }

  /** A copy of the features, {@link #featureCount()} long, sample-major. */
  public float[] features() {
    return features.clone();
  }

  /** Copies the features into {@code dst} at {@code offset}. */
  public void copyFeatures(float[] dst, int offset) {
    System.arraycopy(features, 0, dst, offset, features.length);
  }

  /** Feature {@code i}. */
  public float feature(int i) {
    return features[i];
  }

  /** Channel {@code channel} of sample {@code sample} (0 = oldest) of the window. */
  public float value(int sample, int channel) {
    if (sample < 0 || sample >= size || channel < 0 || channel >= channels) {
      throw new IndexOutOfBoundsException("sample " + sample + " of " + size + ", channel " + channel + " of "
          + channels);
    }
    return features[sample * channels + channel];
  }

  /** size × channels. */
  public int featureCount() {
    return features.length;
  }

  /** Samples per window. */
  public int size() {
    return size;
  }

  /** Channels per sample. */
  public int channelCount() {
    return channels;
  }

  /** The shared label of the window's samples, or {@link Sample#NO_LABEL}. */
  public int label() {
    return label;
  }

  /** Whether the window has a label. */
  public boolean hasLabel() {
    return label != Sample.NO_LABEL;
  }

  /** Timestamp of the oldest sample, ns since the Unix epoch. */
  public long startNanos() {
    return startNanos;
  }

  /** Timestamp of the newest sample. */
  public long endNanos() {
    return endNanos;
  }

  /** How many of the window's samples were filled in for missing ones ({@link GapPolicy#FILL_PREVIOUS}). */
  public int filledSamples() {
    return filled;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Window w && w.size == size && w.channels == channels && w.label == label
        && w.startNanos == startNanos && w.endNanos == endNanos && w.filled == filled
        && Arrays.equals(w.features, features);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(features) * 31 + Long.hashCode(startNanos);
  }

  @Override
  public String toString() {
    return "Window[" + size + " × " + channels + ", " + startNanos + ".." + endNanos + " ns"
        + (hasLabel() ? ", label " + label : "") + (filled > 0 ? ", " + filled + " filled" : "") + "]";
  }
}
