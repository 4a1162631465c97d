package io.hdfl.sensors.signal.pi4j;

import com.pi4j.context.Context;
import io.hdfl.sensors.signal.Channel;
import io.hdfl.sensors.signal.Sample;
import io.hdfl.sensors.signal.SignalSource;
import io.hdfl.sensors.signal.SignalTimeoutException;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * A {@link SignalSource} that samples {@link InputDevice}s (ADCs, digital inputs) at a fixed rate:
 * each sample reads every device once, in order, and concatenates their channels; a
 * {@link LabelProvider} may label it.
 *
 * <p><b>Schedule.</b> The first {@link #next()} anchors the schedule: tick k is due
 * {@code k × period} after it, on the monotonic clock, so waiting never accumulates drift. A sample
 * starts when its tick is due and is stamped with its actual start time, in nanoseconds since the
 * Unix epoch: the monotonic clock anchored once to the wall clock, so timestamps never go backwards
 * (an NTP step cannot reorder samples) and show real timing jitter.
 *
 * <p><b>Overruns.</b> The source does not silently drift when it cannot keep up. A cycle longer than
 * the period is an overrun; a tick whose sample would start more than the allowed lateness (a
 * quarter of the period by default) after it is missed, together with every later tick already that
 * late. Under {@link OverrunPolicy#SKIP} (the default) missed ticks are skipped, so samples stay on
 * the period grid within the allowed lateness and a skip shows as a gap of whole periods, which
 * {@link io.hdfl.sensors.window.Windowing} detects; both are counted in {@link #stats()} and the
 * first of each is logged once. Under {@link OverrunPolicy#FAIL} either throws a
 * {@link SamplingOverrunException}. Sampling happens in the consumer's thread (pull): a consumer that
 * calls {@link #next()} late misses ticks too; run the source in a
 * {@link io.hdfl.sensors.signal.SignalPump} for a thread of its own.
 *
 * <p><b>Ownership.</b> The source owns its devices and label switch and closes them in
 * {@link #close()}, then shuts down the Pi4J context if one was given to
 * {@link Builder#shutdownOnClose(Context)}. A failing read is reported as an {@link IOException}
 * and does not end the stream: the next call samples again at the next tick.
 *
 * <pre>{@code
 * Context pi4j = Pi4J.newAutoContext();
 * try (PolledSignalSource source = PolledSignalSource.builder(200)
 *     .device(Ads1115.open(pi4j, adsConfig))
 *     .device(DigitalInputs.open(pi4j, gpioConfig))
 *     .labels(LabelSwitch.open(pi4j, switchConfig))
 *     .shutdownOnClose(pi4j)
 *     .build()) {
 *   Sample s = source.next();
 * }
 * }</pre>
 */
public final class PolledSignalSource implements SignalSource {

  /** Highest sample rate, 20 kHz (a 50 µs period: more than Java polling over I2C or SPI can hold). */
  public static final double MAX_RATE_HZ = 20_000;

  private static final System.Logger LOG = System.getLogger("io.hdfl.sensors.signal");

  private final String name;
  private final List<InputDevice> devices;
  private final int[] offsets;
  private final List<Channel> channels;
  private final double rateHz;
  private final double periodNanos;
  private final long maxLatenessNanos;
  private final LabelProvider labels;
  private final OverrunPolicy policy;
  private final Context context;
  private final MonotonicClock clock;
  private boolean started;
  private long anchorNanos;
  private long anchorEpochNanos;
  private long tick;
  private long samples;
  private long overruns;
  private long missedTicks;
  private long longestCycleNanos;
  private long maxLatenessSeenNanos;
  private boolean overrunLogged;
  private boolean missLogged;
  private boolean closed;

  private PolledSignalSource(Builder b, List<Channel> channels, int[] offsets) {
    this.devices = List.copyOf(b.devices);
    this.offsets = offsets;
    this.channels = channels;
    this.rateHz = b.rateHz;
    this.periodNanos = 1e9 / b.rateHz;
    this.maxLatenessNanos = (long) Math.floor(b.maxLateness * periodNanos);
    this.labels = b.labels;
    this.policy = b.policy;
    this.context = b.context;
    this.clock = b.clock;
    this.name = "polled " + devices.stream().map(InputDevice::name).toList() + " at " + num(rateHz) + " Hz";
  }

  /** A builder for sampling at {@code rateHz} samples per second. */
  public static Builder builder(double rateHz) {
    return new Builder(rateHz);
  }

  @Override
  public List<Channel> channels() {
    return channels;
  }

  @Override
  public double sampleRateHz() {
    return rateHz;
  }

  /** The devices, in sampling order. */
  public List<InputDevice> devices() {
    return devices;
  }

  /** What the policy does when the schedule cannot be kept. */
  public OverrunPolicy overrunPolicy() {
    return policy;
  }

  /** Counts so far: samples, overruns, missed ticks, the longest cycle, the largest lateness. */
  public SamplingStats stats() {
    return new SamplingStats(samples, overruns, missedTicks, longestCycleNanos, maxLatenessSeenNanos);
  }

  @Override
  public Sample next() throws IOException, InterruptedException {
    return take(Long.MAX_VALUE, null);
  }

  @Override
  public Sample next(Duration timeout) throws IOException, InterruptedException {
    Objects.requireNonNull(timeout, "timeout");
    if (timeout.isNegative()) {
      throw new IllegalArgumentException("timeout must be ≥ 0, got " + timeout);
    }
    long nanos;
    try {
      nanos = timeout.toNanos();
    } catch (ArithmeticException e) {
      nanos = Long.MAX_VALUE;
    }
    return take(nanos, timeout);
  }

  private Sample take(long maxWaitNanos, Duration timeout) throws IOException, InterruptedException {
    if (closed) {
      throw new IllegalStateException(name + " is closed");
    }
    if (!started) {
      started = true;
      anchorNanos = clock.nanoTime();
      anchorEpochNanos = clock.epochNanos();
    }
    long waitStart = clock.nanoTime();
    long now;
    while (true) {
      now = clock.nanoTime();
      long late = now - due(tick);
      if (late > maxLatenessNanos) {
        skipTo(firstTickFrom(now - maxLatenessNanos), late);
        continue;
      }
      if (late >= 0) {
        break;
      }
      long waited = now - waitStart;
      if (waited >= maxWaitNanos) {
        throw new SignalTimeoutException(name, timeout);
      }
      clock.sleepNanos(Math.min(-late, maxWaitNanos - waited));
    }
    long start = now; // the reading the lateness was judged on: a sample never starts later than allowed
    maxLatenessSeenNanos = Math.max(maxLatenessSeenNanos, start - due(tick));
    tick++;
    float[] values = new float[channels.size()];
    for (int i = 0; i < devices.size(); i++) {
      devices.get(i).read(values, offsets[i]);
    }
    int label = labels == null ? Sample.NO_LABEL : labels.label();
    long cycle = clock.nanoTime() - start;
    longestCycleNanos = Math.max(longestCycleNanos, cycle);
    if (cycle > periodNanos) {
      overruns++;
      String what = String.format(Locale.ROOT, "%s: a cycle took %.3f ms, longer than the %.3f ms period", name,
          cycle / 1e6, periodNanos / 1e6);
      if (policy == OverrunPolicy.FAIL) {
        throw new SamplingOverrunException(what + " (overrun policy FAIL)");
      }
      if (!overrunLogged) {
        overrunLogged = true;
        LOG.log(System.Logger.Level.WARNING, "hdfl signal: " + what + "; skipping the ticks missed (logged once, "
            + "counted in stats())");
      }
    }
    if (label < Sample.NO_LABEL) {
      throw new IOException(name + ": label provider returned " + label + " (labels are ≥ 0 or -1)");
    }
    samples++;
    return new Sample(anchorEpochNanos + (start - anchorNanos), values, label);
  }

  private long due(long k) {
    return anchorNanos + Math.round(k * periodNanos);
  }

  /** The first tick due at or after {@code nanos}. */
  private long firstTickFrom(long nanos) {
    long k = Math.max(tick, (long) Math.ceil((nanos - anchorNanos) / periodNanos));
    while (due(k) < nanos) {
      k++;
    }
    while (k > tick && due(k - 1) >= nanos) {
      k--;
    }
    return k;
  }

  private void skipTo(long next, long lateNanos) throws SamplingOverrunException {
    long skipped = next - tick;
    missedTicks += skipped;
    String what = String.format(Locale.ROOT, "%s: sample %d would start %.3f ms after its tick (allowed %.3f ms, "
        + "period %.3f ms): %d tick(s) missed", name, tick, lateNanos / 1e6, maxLatenessNanos / 1e6, periodNanos / 1e6,
        skipped);
    tick = next;
    if (policy == OverrunPolicy.FAIL) {
      throw new SamplingOverrunException(what + " (overrun policy FAIL)");
    }
    if (!missLogged) {
      missLogged = true;
      LOG.log(System.Logger.Level.WARNING, "hdfl signal: " + what + "; skipped, the timestamps show the gap (logged "
          + "once, counted in stats())");
    }
  }

  /** Closes the devices, the label provider (when closeable) and the context given to shut down. */
  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    Exception failure = closeAll(devices, labels, context);
    if (failure != null) {
      throw new IOException(name + ": closing failed: " + failure.getMessage(), failure);
    }
  }

  /** Closes everything given (each once), in order, even when one fails; returns the first failure. */
  static Exception closeAll(List<InputDevice> devices, LabelProvider labels, Context context) {
    Exception first = null;
    Set<InputDevice> closed = Collections.newSetFromMap(new IdentityHashMap<>());
    for (InputDevice d : devices) {
      if (!closed.add(d)) {
        continue;
      }
      try {
        d.close();
      } catch (RuntimeException e) {
        first = first == null ? e : first;
      }
    }
    if (labels instanceof AutoCloseable c) {
      try {
        c.close();
      } catch (Exception e) {
        first = first == null ? e : first;
      }
    }
    if (context != null && !context.isShutdown()) {
      try {
        context.shutdown();
      } catch (RuntimeException e) {
        first = first == null ? e : first;
      }
    }
    return first;
  }

  @Override
  public String toString() {
    return name;
  }

  private static String num(double x) {
    return x == Math.rint(x) && Math.abs(x) < 1e15 ? String.valueOf((long) x) : String.valueOf(x);
  }

  /**
   * Options of a {@link PolledSignalSource}. The source owns what is added from {@link #device} and
   * {@link #labels} on: when {@link #build()} fails it closes them (and the context given to
   * {@link #shutdownOnClose}), so a bad configuration leaves no I/O open.
   */
  public static final class Builder {
    private final double rateHz;
    private final List<InputDevice> devices = new ArrayList<>();
    private LabelProvider labels;
    private OverrunPolicy policy = OverrunPolicy.SKIP;
    private double maxLateness = 0.25;
    private Context context;
    private MonotonicClock clock = MonotonicClock.SYSTEM;

    private Builder(double rateHz) {
      this.rateHz = rateHz;
    }

    /** Adds a device; its channels follow those of the devices added before. */
    public Builder device(InputDevice device) {
      devices.add(Objects.requireNonNull(device, "device"));
      return this;
    }

    /** Labels every sample (default: none, {@link Sample#NO_LABEL}). Closed with the source if closeable. */
    public Builder labels(LabelProvider provider) {
      this.labels = Objects.requireNonNull(provider, "provider");
      return this;
    }

    /** What to do when the schedule cannot be kept (default {@link OverrunPolicy#SKIP}). */
    public Builder overrunPolicy(OverrunPolicy policy) {
      this.policy = Objects.requireNonNull(policy, "policy");
      return this;
    }

    /**
     * How late after its tick a sample may start, as a fraction of the period, in (0, 0.5) (default
     * 0.25): consecutive samples are then (1 ± fraction) periods apart, within windowing's default
     * timing tolerance.
     */
    public Builder maxLateness(double fractionOfPeriod) {
      this.maxLateness = fractionOfPeriod;
      return this;
    }

    /** Shuts {@code pi4j} down when the source is closed (after its devices). */
    public Builder shutdownOnClose(Context pi4j) {
      this.context = Objects.requireNonNull(pi4j, "pi4j");
      return this;
    }

    Builder clock(MonotonicClock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * @throws IllegalArgumentException one line naming the problem: a bad rate or lateness, no
     *     devices, channel names used twice, or devices too slow for the rate
     */
    public PolledSignalSource build() {
      try {
        return create();
      } catch (RuntimeException e) {
        closeAll(devices, labels, context);
        throw e;
      }
    }

    private PolledSignalSource create() {
      if (!(rateHz > 0 && rateHz <= MAX_RATE_HZ)) {
        throw new IllegalArgumentException("sample rate must be > 0 and ≤ " + num(MAX_RATE_HZ) + " Hz, got " + rateHz);
      }
      if (!(maxLateness > 0 && maxLateness < 0.5)) {
        throw new IllegalArgumentException("max lateness must be in (0, 0.5) of the period, got " + maxLateness);
      }
      if (devices.isEmpty()) {
        throw new IllegalArgumentException("a polled source needs at least one device");
      }
      List<Channel> all = new ArrayList<>();
      int[] offsets = new int[devices.size()];
      long minCycle = 0;
      StringBuilder slow = new StringBuilder();
      for (int i = 0; i < devices.size(); i++) {
        InputDevice d = devices.get(i);
        if (devices.indexOf(d) != i) {
          throw new IllegalArgumentException("device " + d.name() + " is added twice");
        }
        offsets[i] = all.size();
        all.addAll(d.channels());
        long t = d.minReadNanos();
        minCycle += t;
        if (t > 0) {
          slow.append(slow.length() == 0 ? "" : ", ")
              .append(String.format(Locale.ROOT, "%s %.3f ms", d.name(), t / 1e6));
        }
      }
      for (int i = 0; i < all.size(); i++) {
        for (int j = 0; j < i; j++) {
          if (all.get(i).name().equals(all.get(j).name())) {
            throw new IllegalArgumentException("channel name '" + all.get(i).name() + "' is used by two devices ("
                + owner(offsets, j) + " and " + owner(offsets, i) + ")");
          }
        }
      }
      List<Channel> checked = Channel.checkList(all);
      double period = 1e9 / rateHz;
      if (minCycle > period) {
        throw new IllegalArgumentException(String.format(Locale.ROOT, "sampling at %s Hz leaves %.3f ms per sample, "
            + "but reading the devices takes at least %.3f ms (%s): lower the rate, use fewer channels or a faster "
            + "ADC data rate", num(rateHz), period / 1e6, minCycle / 1e6, slow));
      }
      return new PolledSignalSource(this, checked, offsets);
    }

    private String owner(int[] offsets, int channel) {
      int d = 0;
      while (d + 1 < offsets.length && offsets[d + 1] <= channel) {
        d++;
      }
      return devices.get(d).name();
    }
  }
}
