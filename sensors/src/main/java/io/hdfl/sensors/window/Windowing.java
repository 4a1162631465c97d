package io.hdfl.sensors.window;

import io.hdfl.sensors.signal.Channel;
import io.hdfl.sensors.signal.Sample;
import io.hdfl.sensors.signal.SignalSource;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Cuts a sample stream into sliding windows of {@code size} samples, one every {@code stride}
 * samples, flattened to {@code size × channels} features in sample-major order (see {@link Window}).
 * Push samples with {@link #offer}, or pull windows from a source with {@link #next}.
 *
 * <p>Rules, each counted in {@link #stats()}:
 * <ul>
 *   <li><b>Timing</b>: each sample's interval since the previous one is compared with the nominal
 *       period P = 1 / rate; within τ·P of P it is on time, within τ·P of k·P (k ≥ 2) it is a gap of
 *       k − 1 samples, anything else (including a duplicate or backwards timestamp) is irregular.
 *       Gaps and irregular intervals are handled by the {@link GapPolicy} (default
 *       {@link GapPolicy#DROP_WINDOW}; τ defaults to 0.5).
 *   <li><b>Non-finite values</b>: a sample with NaN or an infinity is handled by the
 *       {@link NonFinitePolicy} (default {@link NonFinitePolicy#DROP_WINDOW}); it never reaches a
 *       window or the normalization statistics. So is a window whose normalized features would
 *       overflow float.
 *   <li><b>Labels</b>: a window's label is the label of its samples if they all agree (all
 *       unlabelled gives an unlabelled window); a window whose samples disagree is not emitted and is
 *       counted in {@link WindowingStats#mixedLabelWindows()}.
 *   <li><b>Normalization</b> (optional): each accepted sample updates the {@link Normalization}; a
 *       window's features are z-scored with the statistics as they are when the window completes;
 *       windows completing during the warm-up are not emitted (counted).
 * </ul>
 * Not thread-safe.
 */
public final class Windowing {

  private final List<Channel> channels;
  private final int width;
  private final int size;
  private final int stride;
  private final double periodNanos;
  private final double tolerance;
  private final GapPolicy gapPolicy;
  private final int maxFill;
  private final NonFinitePolicy nonFinitePolicy;
  private final Normalization normalization;
  private final float[] ring;
  private final long[] times;
  private final int[] labels;
  private final boolean[] filled;
  private final double[] mean;
  private final double[] scale;
  private final ArrayDeque<Window> ready = new ArrayDeque<>();
  private int head;
  private long run;
  private boolean hasPrevious;
  private long previousTime;
  private long samples;
  private long windows;
  private long mixed;
  private long warmup;
  private long gaps;
  private long irregular;
  private long discontinuities;
  private long filledSamples;
  private long nonFinite;
  private long nonFiniteWindows;
  /** Non-finite samples in a row (a warning at 1000, 10 000, 100 000, …). */
  private long nonFiniteRun;
  static final long NON_FINITE_WARNING = 1000;
  private static final System.Logger LOG = System.getLogger("io.hdfl.sensors.window");

  private Windowing(Builder b) {
    this.channels = b.channels;
    this.width = channels.size();
    this.size = b.size;
    this.stride = b.stride;
    this.periodNanos = 1e9 / b.sampleRateHz;
    this.tolerance = b.tolerance;
    this.gapPolicy = b.gapPolicy;
    this.maxFill = b.maxFill < 0 ? size : b.maxFill;
    this.nonFinitePolicy = b.nonFinitePolicy;
    this.normalization = b.normalization;
    if (normalization != null && !normalization.channels().equals(channels)) {
      throw new IllegalArgumentException("normalization is for channels " + summary(normalization.channels())
          + " but the signal has " + summary(channels));
    }
    if ((long) size * width > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException("window of " + size + " × " + width + " values is too large");
    }
    this.ring = new float[size * width];
    this.times = new long[size];
    this.labels = new int[size];
    this.filled = new boolean[size];
    this.mean = new double[width];
    this.scale = new double[width];
  }

  /** A builder for windows over samples of {@code channels} at a nominal {@code sampleRateHz}. */
  public static Builder builder(List<Channel> channels, double sampleRateHz) {
    return new Builder(channels, sampleRateHz);
  }

  /** A builder for windows over {@code source}'s channels and nominal rate. */
  public static Builder builder(SignalSource source) {
    return new Builder(source.channels(), source.sampleRateHz());
  }

  /**
   * Takes one sample and returns the windows it completes: none, one, or (when missing samples are
   * filled in) several.
   *
   * @throws IllegalArgumentException if the sample has the wrong number of values
   * @throws WindowingException if a FAIL policy is triggered
   */
  public List<Window> offer(Sample sample) {
    if (sample.channelCount() != width) {
      throw new IllegalArgumentException("sample has " + sample.channelCount() + " values, windowing expects "
          + width + " channels");
    }
    samples++;
    if (!sample.isFinite()) {
      nonFinite(sample);
      return List.of();
    }
    nonFiniteRun = 0;
    List<Window> out = List.of();
    if (hasPrevious) {
      long missing = checkTiming(sample.timestampNanos());
      if (missing > 0) {
        out = fill(missing);
      }
    }
    Window w = push(sample.timestampNanos(), sample, sample.label(), false);
    if (w != null) {
      if (out.isEmpty()) {
        return List.of(w);
      }
      out.add(w);
    }
    return out;
  }

  /**
   * Pulls samples from {@code source} until a window completes.
   *
   * @return the window, or null when the source has ended
   */
  public Window next(SignalSource source) throws IOException, InterruptedException {
    while (ready.isEmpty()) {
      Sample s = source.next();
      if (s == null) {
        return null;
      }
      ready.addAll(offer(s));
    }
    return ready.poll();
  }

  /** Forgets the buffered samples (the next sample starts a new run); counters are kept. */
  public void reset() {
    run = 0;
    hasPrevious = false;
    ready.clear();
  }

  /** The counters so far. */
  public WindowingStats stats() {
    return new WindowingStats(samples, windows, mixed, warmup, gaps, irregular, discontinuities, filledSamples,
        nonFinite, nonFiniteWindows);
  }

  /** Features per window: size × channels. */
  public int featureCount() {
    return size * width;
  }

  /** Samples per window. */
  public int size() {
    return size;
  }

  /** Samples between the starts of consecutive windows. */
  public int stride() {
    return stride;
  }

  /** The channels of the samples, in feature order within each sample. */
  public List<Channel> channels() {
    return channels;
  }

  /** The normalization in use, or null. */
  public Normalization normalization() {
    return normalization;
  }

  private void nonFinite(Sample s) {
    if (nonFinitePolicy == NonFinitePolicy.FAIL) {
      for (int c = 0; c < width; c++) {
        if (!Float.isFinite(s.value(c))) {
          throw new WindowingException("channel " + channels.get(c).name() + " is " + s.value(c) + " at "
              + s.timestampNanos() + " ns");
        }
      }
    }
    nonFinite++;
    run = 0;
    hasPrevious = false;
    nonFiniteRun++;
    if (nonFiniteRun % NON_FINITE_WARNING == 0 && isPowerOfTen(nonFiniteRun / NON_FINITE_WARNING)) {
      List<String> bad = new ArrayList<>();
      for (int c = 0; c < width; c++) {
        if (!Float.isFinite(s.value(c))) {
          bad.add(channels.get(c).name());
        }
      }
      LOG.log(System.Logger.Level.WARNING, "windowing: the last " + nonFiniteRun + " samples all held a missing or"
          + " non-finite value (the latest on channel(s) " + String.join(", ", bad) + "), so no window can"
          + " complete: is a channel's field missing from the messages, or a sensor failing?");
    }
  }

  private static boolean isPowerOfTen(long n) {
    while (n >= 10 && n % 10 == 0) {
      n /= 10;
    }
    return n == 1;
  }

  /**
   * Classifies the interval since the previous sample, counts a gap or irregularity and applies the
   * policy: returns how many missing samples to fill (0 when on time or after a restart).
   */
  private long checkTiming(long t) {
    long delta;
    try {
      delta = Math.subtractExact(t, previousTime);
    } catch (ArithmeticException e) {
      delta = -1;
    }
    double dt = delta;
    long k = Math.round(dt / periodNanos);
    boolean onGrid = k >= 1 && Math.abs(dt - k * periodNanos) <= tolerance * periodNanos;
    if (onGrid && k == 1) {
      return 0;
    }
    if (onGrid) {
      gaps++;
    } else {
      irregular++;
    }
    if (gapPolicy == GapPolicy.FAIL) {
      throw new WindowingException((onGrid ? "gap of " + (k - 1) + " missing sample(s)" : "irregular interval")
          + " between " + previousTime + " ns and " + t + " ns (" + delta + " ns; nominal period "
          + Math.round(periodNanos) + " ns ± " + Math.round(tolerance * periodNanos) + ")");
    }
    if (gapPolicy == GapPolicy.FILL_PREVIOUS && onGrid && k - 1 <= maxFill) {
      return k - 1;
    }
    discontinuities++;
    run = 0;
    hasPrevious = false;
    return 0;
  }

  /** Appends {@code missing} copies of the newest sample on the nominal grid after it. */
  private List<Window> fill(long missing) {
    int last = (head + size - 1) % size;
    long start = previousTime;
    List<Window> out = new ArrayList<>();
    for (long i = 1; i <= missing; i++) {
      Window w = push(start + Math.round(i * periodNanos), null, labels[last], true);
      if (w != null) {
        out.add(w);
      }
    }
    filledSamples += missing;
    return out;
  }

  /** Appends a sample (or, when {@code sample} is null, a copy of the newest one) and emits if due. */
  private Window push(long t, Sample sample, int label, boolean fill) {
    int slot = head;
    if (sample == null) {
      System.arraycopy(ring, ((head + size - 1) % size) * width, ring, slot * width, width);
    } else {
      sample.copyValues(ring, slot * width);
    }
    times[slot] = t;
    labels[slot] = label;
    filled[slot] = fill;
    head = (head + 1) % size;
    run++;
    hasPrevious = true;
    previousTime = t;
    if (normalization != null && !fill) {
      normalization.observe(sample.values());
    }
    return run >= size && (run - size) % stride == 0 ? emit() : null;
  }

  private Window emit() {
    int oldest = head;
    int label = labels[oldest];
    int fills = 0;
    for (int i = 0; i < size; i++) {
      if (labels[i] != label) {
        mixed++;
        return null;
      }
      fills += filled[i] ? 1 : 0;
    }
    if (normalization != null && !normalization.isReady()) {
      warmup++;
      return null;
    }
    float[] features = new float[size * width];
    if (normalization != null) {
      for (int c = 0; c < width; c++) {
        mean[c] = normalization.mean(c);
        scale[c] = normalization.scale(c);
      }
    }
    for (int t = 0; t < size; t++) {
      int from = ((oldest + t) % size) * width;
      if (normalization == null) {
        System.arraycopy(ring, from, features, t * width, width);
        continue;
      }
      for (int c = 0; c < width; c++) {
        float z = (float) ((ring[from + c] - mean[c]) * scale[c]);
        if (!Float.isFinite(z)) {
          return overflow(c, times[(oldest + t) % size]);
        }
        features[t * width + c] = z;
      }
    }
    windows++;
    return new Window(features, size, width, label, times[oldest], times[(oldest + size - 1) % size], fills);
  }

  /** A normalized value beyond float range (a near-constant channel hit by an outlier). */
  private Window overflow(int c, long t) {
    if (nonFinitePolicy == NonFinitePolicy.FAIL) {
      throw new WindowingException("channel " + channels.get(c).name() + " at " + t + " ns overflows float after"
          + " normalization (mean " + mean[c] + ", scale " + scale[c] + ")");
    }
    nonFiniteWindows++;
    return null;
  }

  private static String summary(List<Channel> list) {
    return list.size() <= 3 ? list.toString() : "[" + list.get(0) + ", " + list.get(1) + ", ... (" + list.size()
        + " channels)]";
  }

  /** Options for a {@link Windowing}; defaults: size 10, stride 10, DROP_WINDOW, τ 0.5, no normalization. */
  public static final class Builder {
    private final List<Channel> channels;
    private final double sampleRateHz;
    private int size = 10;
    private int stride = 10;
    private double tolerance = 0.5;
    private GapPolicy gapPolicy = GapPolicy.DROP_WINDOW;
    private int maxFill = -1;
    private NonFinitePolicy nonFinitePolicy = NonFinitePolicy.DROP_WINDOW;
    private Normalization normalization;

    private Builder(List<Channel> channels, double sampleRateHz) {
      this.channels = Channel.checkList(channels);
      if (!(sampleRateHz > 0) || sampleRateHz > 1e9) {
        throw new IllegalArgumentException("nominal sample rate must be > 0 and ≤ 1e9 Hz, got " + sampleRateHz);
      }
      this.sampleRateHz = sampleRateHz;
    }

    /** Samples per window, 1..65536 (default 10). */
    public Builder size(int size) {
      if (size < 1 || size > 65_536) {
        throw new IllegalArgumentException("window size must be 1..65536 samples, got " + size);
      }
      this.size = size;
      return this;
    }

    /** Samples between the starts of consecutive windows, ≥ 1 (default 10; less than size overlaps). */
    public Builder stride(int stride) {
      if (stride < 1) {
        throw new IllegalArgumentException("stride must be ≥ 1 sample, got " + stride);
      }
      this.stride = stride;
      return this;
    }

    /** What to do with gaps and irregular intervals (default DROP_WINDOW). */
    public Builder gapPolicy(GapPolicy policy) {
      this.gapPolicy = Objects.requireNonNull(policy, "policy");
      return this;
    }

    /** Timing tolerance τ as a fraction of the nominal period, in (0, 0.5] (default 0.5). */
    public Builder timingTolerance(double fractionOfPeriod) {
      if (!(fractionOfPeriod > 0 && fractionOfPeriod <= 0.5)) {
        throw new IllegalArgumentException("timing tolerance must be in (0, 0.5] of the period, got "
            + fractionOfPeriod);
      }
      this.tolerance = fractionOfPeriod;
      return this;
    }

    /** Longest gap, in missing samples, that FILL_PREVIOUS fills (default: the window size). */
    public Builder maxFill(int samples) {
      if (samples < 0) {
        throw new IllegalArgumentException("max fill must be ≥ 0 samples, got " + samples);
      }
      this.maxFill = samples;
      return this;
    }

    /** What to do with NaN or infinite values (default DROP_WINDOW). */
    public Builder nonFinitePolicy(NonFinitePolicy policy) {
      this.nonFinitePolicy = Objects.requireNonNull(policy, "policy");
      return this;
    }

    /** Normalize features with {@code normalization}, whose channels must equal the signal's. */
    public Builder normalization(Normalization normalization) {
      this.normalization = Objects.requireNonNull(normalization, "normalization");
      return this;
    }

    /** @throws IllegalArgumentException naming the first bad setting */
    public Windowing build() {
      return new Windowing(this);
    }
  }
}
