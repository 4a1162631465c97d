package io.hdfl.transport;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;

/**
 * A loopback transport's delivery thread and its queue, with queueing and waking apart: the broker
 * queues a message under its lock (which fixes the order of all deliveries) and wakes the thread only
 * after it has released the lock.
 *
 * <p>Waking a parked thread can cost far more than the queueing: on a 2-vCPU VM the waker was often
 * preempted by the thread it woke, and with the wake inside the broker's lock every other publisher
 * then waited for the lock (Fashion-MNIST ring, K=100: 57-62 µs of lock waiting per model hand-off,
 * behind a {@code ThreadPoolExecutor.execute} that took 325 µs on average).
 *
 * <p>The thread starts with the first message and runs the tasks one at a time, in queueing order.
 */
final class DeliveryQueue {
  private static final System.Logger LOG = System.getLogger("io.hdfl.transport");

  private final String threadName;
  private final ConcurrentLinkedQueue<Runnable> tasks = new ConcurrentLinkedQueue<>();
  private volatile Thread thread;
  private volatile boolean stopped;

  DeliveryQueue(String threadName) {
    this.threadName = threadName;
  }

  /** Queues {@code task} without waking the thread (see {@link #wake}); ignored once stopped. */
  void add(Runnable task) {
    if (stopped) {
      return;
    }
    tasks.add(task);
    if (thread == null) {
      start();
    }
  }

  /** Wakes the thread if it waits for a task. */
  void wake() {
    Thread t = thread;
    if (t != null) {
      LockSupport.unpark(t);
    }
  }

  /** Drops the queued tasks and ends the thread; a task that is running is interrupted. Idempotent. */
  void stop() {
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
        LOG.log(System.Logger.Level.ERROR, "delivery on " + threadName + " failed", e);
      }
    }
  }
}
