package io.hdfl.concurrent;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;

/**
 * One thread that runs tasks one at a time, in queueing order, with queueing and waking apart: a
 * loopback broker queues a message under its lock (which fixes the order of all deliveries) and wakes
 * the thread only after it has released the lock; a peer's worker is given work with {@link #execute}.
 *
 * <p>Waking a parked thread can cost far more than the queueing: on a 2-vCPU VM the waker was often
 * preempted by the thread it woke, and with the wake inside the broker's lock every other publisher
 * then waited for the lock (Fashion-MNIST ring, K=100: 57-62 µs of lock waiting per model hand-off,
 * behind a {@code ThreadPoolExecutor.execute} that took 325 µs on average). For the same reason a ring
 * peer's worker is one of these rather than a single-thread {@code ThreadPoolExecutor}, whose queue
 * wakes its thread while holding the queue's lock, which the woken thread then waits for: every hop of
 * a ring hands a model to the next peer's worker.
 *
 * <p>The thread starts with the first task. A task that throws is logged and the next one runs.
 */
public final class SerialWorker {
  private static final System.Logger LOG = System.getLogger("io.hdfl.concurrent");

  private final String threadName;
  private final ConcurrentLinkedQueue<Runnable> tasks = new ConcurrentLinkedQueue<>();
  private volatile Thread thread;
  private volatile boolean stopped;

  /** @param threadName the name of the thread, which starts with the first task */
  public SerialWorker(String threadName) {
    this.threadName = threadName;
  }

  /** Queues {@code task} and wakes the thread; ignored once stopped. */
  public void execute(Runnable task) {
    add(task);
    wake();
  }

  /** Queues {@code task} without waking the thread (see {@link #wake}); ignored once stopped. */
  public void add(Runnable task) {
    if (stopped) {
      return;
    }
    tasks.add(task);
    if (thread == null) {
      start();
    }
  }

  /** Wakes the thread if it waits for a task. */
  public void wake() {
    Thread t = thread;
    if (t != null) {
      LockSupport.unpark(t);
    }
  }

  /**
   * Waits up to {@code max} for the task running now and those queued before this call to end;
   * returns whether they did (false too once stopped).
   */
  public boolean drain(java.time.Duration max) throws InterruptedException {
    java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(1);
    execute(done::countDown);
    return !stopped && done.await(max.toNanos(), java.util.concurrent.TimeUnit.NANOSECONDS);
  }

  /** Drops the queued tasks and ends the thread; a task that is running is interrupted. Idempotent. */
  public void stop() {
    stopped = true;
    tasks.clear();
    Thread t = thread;
    if (t != null) {
      t.interrupt();
      LockSupport.unpark(t);
    }
  }

  private synchronized void start() {
    if (thread != null || stopped) {
      return;
    }
    Thread t = new Thread(this::run, threadName);
    t.setDaemon(true);
    thread = t;
    t.start();
  }

  private void run() {
    while (!stopped) {
      Runnable task = tasks.poll();
      if (task == null) {
        // a wake() between the poll and here leaves a permit: park returns at once
        LockSupport.park(this);
        Thread.interrupted(); // an interrupt meant for a task that had already returned
        continue;
      }
      try {
        task.run();
      } catch (VirtualMachineError e) {
        throw e;
      } catch (Throwable e) {
        LOG.log(System.Logger.Level.ERROR, "task on " + threadName + " failed", e);
      }
    }
  }
}
