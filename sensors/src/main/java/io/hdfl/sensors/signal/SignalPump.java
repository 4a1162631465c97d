package io.hdfl.sensors.signal;

import java.io.IOException;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Push adapter: a daemon thread pulls a {@link SignalSource} and hands each sample to a
 * {@link SampleListener}, then {@code onEnd()} or {@code onError(e)}. The pump owns the source: it
 * closes it when the stream ends, fails, or the pump is closed.
 *
 * <pre>{@code
 * try (SignalPump pump = SignalPump.start(source, sample -> windows.addAll(windowing.offer(sample)))) {
 *   pump.await(Duration.ofMinutes(1));
 * }
 * }</pre>
 */
public final class SignalPump implements AutoCloseable {

  private static final System.Logger LOG = System.getLogger("io.hdfl.sensors.signal");
  private static final long CLOSE_WAIT_MILLIS = 5_000;

  private final SignalSource source;
  private final SampleListener listener;
  private final Thread thread;
  private final CountDownLatch done = new CountDownLatch(1);
  private volatile boolean stopping;
  private volatile long delivered;
  private volatile Exception failure;

  private SignalPump(SignalSource source, SampleListener listener, String name) {
    this.source = source;
    this.listener = listener;
    this.thread = new Thread(this::run, name);
    thread.setDaemon(true);
  }

  /** Starts pumping {@code source} into {@code listener} on a new daemon thread. */
  public static SignalPump start(SignalSource source, SampleListener listener) {
    SignalPump pump = new SignalPump(Objects.requireNonNull(source, "source"),
        Objects.requireNonNull(listener, "listener"), "hdfl-signal-pump-" + source);
    pump.thread.start();
    return pump;
  }

  private void run() {
    try {
      Sample s;
      while (!stopping && (s = source.next()) != null) {
        listener.onSample(s);
        delivered++;
      }
      if (!stopping) {
        listener.onEnd();
      }
    } catch (InterruptedException e) {
      if (!stopping) {
        failure = e;
        listener.onError(e);
      }
    } catch (Exception e) {
      failure = e;
      if (!stopping) {
        listener.onError(e);
      }
    } finally {
      try {
        source.close();
      } catch (IOException e) {
        LOG.log(System.Logger.Level.WARNING, "hdfl signal: closing " + source + " failed: " + e.getMessage());
      }
      done.countDown();
    }
  }

  /**
   * Waits until the stream has ended or failed.
   *
   * @return true if the pump finished within the timeout
   */
  public boolean await(Duration timeout) throws InterruptedException {
    return done.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
  }

  /** Whether the pump has stopped (end, failure or close). */
  public boolean isDone() {
    return done.getCount() == 0;
  }

  /** Samples delivered to the listener so far. */
  public long delivered() {
    return delivered;
  }

  /** The failure that stopped the pump, or null. */
  public Exception failure() {
    return failure;
  }

  /**
   * Stops the pump (a sample being delivered finishes first), waits up to 5 s for the thread, and
   * lets it close the source. Neither {@code onEnd} nor {@code onError} is called after this.
   */
  @Override
  public void close() throws InterruptedException {
    stopping = true;
    thread.interrupt();
    if (!done.await(CLOSE_WAIT_MILLIS, TimeUnit.MILLISECONDS)) {
      LOG.log(System.Logger.Level.WARNING, "hdfl signal: pump of " + source + " did not stop within "
          + CLOSE_WAIT_MILLIS + " ms (source blocked and not interruptible)");
    }
  }
}
