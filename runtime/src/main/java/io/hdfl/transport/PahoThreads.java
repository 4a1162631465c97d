package io.hdfl.transport;

import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.eclipse.paho.client.mqttv3.internal.CommsCallback;
import org.eclipse.paho.client.mqttv3.internal.CommsReceiver;
import org.eclipse.paho.client.mqttv3.internal.CommsSender;

/**
 * The threads of one Paho client, each task on a new thread of its own as Paho starts them without an
 * executor, minus Paho's start-up sleeps. Paho 1.2.5 starts its receiver, sender and callback threads
 * each inside a lock that the new thread must take to say it runs, then releases the lock and polls
 * {@code isRunning()} with 100 ms sleeps. The new thread all but never runs before the first poll, so
 * every connect (and reconnect) slept 300 ms: a connect to the local Mosquitto took 305–330 ms once
 * warm. Given an executor, Paho submits the same three tasks to it, from its connect task, which it
 * also runs on the executor. So here, when a thread of this executor submits one of those tasks, a
 * waker (one of a shared pool of daemon threads) waits for the task to say it runs (looking at
 * doubling intervals up to {@link #MAX_PAUSE_NANOS}, for at most {@link #START_WAIT_NANOS}) and then
 * interrupts the submitting thread: its sleep ends, and it polls again. That thread is Paho's connect
 * task and nothing else; after the three starts it only queues the CONNECT packet (no wait an
 * interrupt could cut short) and ends. An interrupt that comes before its sleep makes one later sleep
 * of the same start sequence end at once.
 *
 * <p>Otherwise this behaves as Paho's threads without an executor: a task's thread inherits the
 * submitter's daemon status, and cancelling the future of {@link #submit(Runnable)} (Paho's {@code
 * stop()} calls {@code cancel(true)}) never interrupts it. An interrupt there would differ: it would
 * reach whatever the callback thread runs, a handler of this transport included, and close a file
 * channel that handler writes to. Paho 1.2.5 calls only {@code submit(Runnable)} and {@code execute}
 * on it (it has a method that would shut its executor down, but never calls it); the scheduling
 * methods are for a {@code ScheduledExecutorPingSender}, which hdfl does not use, and are refused, as
 * is asking whether the threads have ended (they are not tracked once started).
 */
final class PahoThreads extends AbstractExecutorService implements ScheduledExecutorService {
  /** The longest a waker waits for a task to start; then Paho's own 100 ms polls go on, as without one. */
  static final long START_WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
  /** The longest pause between a waker's looks: it looks after 20 µs, 40 µs, 80 µs … then every 1 ms. */
  static final long MAX_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
  /** Set on the threads this class starts: a comms task submitted from one of them gets a waker. */
  private static final ThreadLocal<Boolean> OURS = ThreadLocal.withInitial(() -> false);
  /** The wakers: threads made as connects need them, gone a second after their last (none idle after a run). */
  private static final ExecutorService WAKERS = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 1, TimeUnit.SECONDS,
      new SynchronousQueue<>(), r -> {
        Thread t = new Thread(r, "hdfl-paho-start");
        t.setDaemon(true);
        return t;
      });

  private volatile boolean shutdown;

  @Override
  public Future<?> submit(Runnable task) {
    CompletableFuture<Void> done = start(task);
    BooleanSupplier running = running(task);
    if (running != null && OURS.get()) {
      Thread starter = Thread.currentThread();
      WAKERS.execute(() -> {
        long deadline = System.nanoTime() + START_WAIT_NANOS;
        long pause = 20_000;
        while (!running.getAsBoolean() && !done.isDone() && System.nanoTime() - deadline < 0) {
          LockSupport.parkNanos(pause);
          pause = Math.min(2 * pause, MAX_PAUSE_NANOS); // few wake-ups when a hundred clients connect at once
        }
        if (running.getAsBoolean()) {
          starter.interrupt();
        }
      });
    }
    return done;
  }

  @Override
  public void execute(Runnable task) {
    start(task);
  }

  /** Runs {@code task} on a new thread; the future completes when it ends. */
  private CompletableFuture<Void> start(Runnable task) {
    if (shutdown) {
      throw new RejectedExecutionException("the MQTT client's threads were shut down");
    }
    CompletableFuture<Void> done = new CompletableFuture<>();
    new Thread(() -> {
      OURS.set(true);
      try {
        task.run();
        done.complete(null);
      } catch (Throwable t) {
        done.completeExceptionally(t);
        throw t;
      }
    }).start();
    return done;
  }

  /** Whether {@code task}, one of Paho's comms tasks, says it runs; null for another task. */
  private static BooleanSupplier running(Runnable task) {
    if (task instanceof CommsReceiver r) {
      return r::isRunning;
    }
    if (task instanceof CommsSender s) {
      return s::isRunning;
    }
    if (task instanceof CommsCallback c) {
      return c::isRunning;
    }
    return null;
  }

  @Override
  public void shutdown() {
    shutdown = true;
  }

  /** Refuses new tasks; running ones go on (they end when Paho stops them), and none is interrupted. */
  @Override
  public List<Runnable> shutdownNow() {
    shutdown = true;
    return List.of();
  }

  @Override
  public boolean isShutdown() {
    return shutdown;
  }

  @Override
  public boolean isTerminated() {
    throw new UnsupportedOperationException("an MQTT client's threads are not tracked once started");
  }

  @Override
  public boolean awaitTermination(long timeout, TimeUnit unit) {
    throw new UnsupportedOperationException("an MQTT client's threads are not tracked once started");
  }

  @Override
  public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
    throw unscheduled();
  }

  @Override
  public <V> ScheduledFuture<V> schedule(Callable<V> callable, long delay, TimeUnit unit) {
    throw unscheduled();
  }

  @Override
  public ScheduledFuture<?> scheduleAtFixedRate(Runnable command, long initialDelay, long period, TimeUnit unit) {
    throw unscheduled();
  }

  @Override
  public ScheduledFuture<?> scheduleWithFixedDelay(Runnable command, long initialDelay, long delay, TimeUnit unit) {
    throw unscheduled();
  }

  private static UnsupportedOperationException unscheduled() {
    return new UnsupportedOperationException(
        "an MQTT client's threads schedule nothing (its pings use a TimerPingSender)");
  }
}
