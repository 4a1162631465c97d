package io.hdfl.sensors.signal;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Base of the sources that can produce their samples at any speed (files, the simulator): they read
 * unpaced with {@link #read()}, and this class delivers by a {@link Pacing} and keeps a sample that is
 * not due within a {@link #next(Duration)} timeout for the next call. After a read fails, every later
 * call throws the same exception (reading on past damaged input would deliver garbage). They give the
 * same samples each time they are opened, so they can {@link #skip} what a previous run read.
 */
abstract class PacedSource implements RepeatableSource {

  private final String name;
  private final List<Channel> channels;
  private final double sampleRateHz;
  /** The longest wait between two paced samples: a longer pause in the samples is not waited for. */
  static final long MAX_PAUSE_NANOS = 60_000_000_000L;
  private static final System.Logger LOG = System.getLogger("io.hdfl.sensors.signal");

  private final Pacer pacer;
  private Sample pending;
  private boolean ended;
  private boolean closed;
  private IOException failure;
  /** Samples delivered or skipped; written by the one consumer, read by any thread. */
  private volatile long position;

  PacedSource(String name, List<Channel> channels, double sampleRateHz, Pacing pacing, Pacer.Clock clock) {
    this.name = Objects.requireNonNull(name, "name");
    this.channels = Channel.checkList(channels);
    this.sampleRateHz = sampleRateHz;
    this.pacer = new Pacer(Objects.requireNonNull(pacing, "pacing"), Objects.requireNonNull(clock, "clock"));
  }

  /** The next sample without pacing, or null at the end. */
  abstract Sample read() throws IOException;

  /** Releases what the source holds; called once. */
  abstract void release() throws IOException;

  @Override
  public final List<Channel> channels() {
    return channels;
  }

  @Override
  public final double sampleRateHz() {
    return sampleRateHz;
  }

  /** The pacing samples are delivered with. */
  public final Pacing pacing() {
    return pacer.pacing();
  }

  @Override
  public final Sample next() throws IOException, InterruptedException {
    return take(Long.MAX_VALUE, null);
  }

  @Override
  public final Sample next(Duration timeout) throws IOException, InterruptedException {
    Objects.requireNonNull(timeout, "timeout");
    if (timeout.isNegative()) {
      throw new IllegalArgumentException("timeout must be ≥ 0, got " + timeout);
    }
    return take(saturatedNanos(timeout), timeout);
  }

  private Sample take(long maxWaitNanos, Duration timeout) throws IOException, InterruptedException {
    checkReadable();
    if (pending == null) {
      if (ended) {
        return null;
      }
      try {
        pending = read();
      } catch (IOException e) {
        failure = e;   // the input is damaged or unreadable from here on: every later call reports the same
        throw e;
      }
      if (pending == null) {
        ended = true;
        return null;
      }
    }
    if (pacer.remainingNanos(pending.timestampNanos()) > MAX_PAUSE_NANOS) {
      // a recorded pause (or a damaged timestamp) longer than a minute is not waited for: the samples
      // keep their timestamps, so windowing still sees the gap; a timestamp that then goes back fails
      LOG.log(System.Logger.Level.INFO, name + ": the samples pause for more than " + MAX_PAUSE_NANOS / 1_000_000_000L
          + " s of " + pacer.pacing() + " replay before the one stamped " + pending.timestampNanos()
          + " ns; going on without waiting");
      pacer.restart();
    }
    if (!pacer.awaitDue(pending.timestampNanos(), maxWaitNanos)) {
      throw new SignalTimeoutException(name, timeout);
    }
    Sample s = pending;
    pending = null;
    position++;
    return s;
  }

  /** Throws if the source is closed, or the failure of an earlier read. */
  private void checkReadable() throws IOException {
    if (closed) {
      throw new IllegalStateException(name + " is closed");
    }
    if (failure != null) {
      throw failure;
    }
  }

  @Override
  public final long position() {
    return position;
  }

  @Override
  public final long skip(long samples) throws IOException {
    if (samples < 0) {
      throw new IllegalArgumentException("samples to skip must be ≥ 0, got " + samples);
    }
    checkReadable();
    long skipped = 0;
    if (pending != null && samples > 0) {
      pending = null;
      skipped++;
    }
    try {
      while (skipped < samples && !ended) {
        if (read() == null) {
          ended = true;
        } else {
          skipped++;
        }
      }
    } catch (IOException e) {
      failure = e;
      throw e;
    } finally {
      position += skipped;
    }
    if (skipped > 0) {
      pacer.restart(); // the skipped samples' time is not waited for
    }
    return skipped;
  }

  @Override
  public final void close() throws IOException {
    if (!closed) {
      closed = true;
      pending = null;
      release();
    }
  }

  @Override
  public String toString() {
    return name;
  }

  private static long saturatedNanos(Duration d) {
    try {
      return d.toNanos();
    } catch (ArithmeticException e) {
      return Long.MAX_VALUE;
    }
  }
}
