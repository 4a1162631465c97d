package io.hdfl.sensors.signal.mqtt;

import io.hdfl.sensors.signal.Sample;
import java.util.ArrayDeque;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The bounded hand-over between the MQTT callback thread (producer) and the consumer's
 * {@code next()}. Overflow policy: <b>drop the oldest</b> — when the consumer falls behind, the newest
 * samples are kept (a classifier wants the current state of the machine) and the caller counts what
 * was dropped. The producer never blocks, so a slow consumer cannot stall the MQTT connection (Paho
 * delivers messages on one thread; blocking it would stop keep-alives and acknowledgements).
 */
final class SampleQueue {

  private final int capacity;
  private final ArrayDeque<Sample> samples;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition notEmpty = lock.newCondition();
  private boolean closed;

  SampleQueue(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("queue capacity must be ≥ 1, got " + capacity);
    }
    this.capacity = capacity;
    this.samples = new ArrayDeque<>(Math.min(capacity, 1024));
  }

  /**
   * Appends {@code s}, first dropping the oldest sample if the queue is full.
   *
   * @return true if a sample was dropped to make room (false also when the queue is closed and
   *     {@code s} is discarded)
   */
  boolean offer(Sample s) {
    lock.lock();
    try {
      if (closed) {
        return false;
      }
      boolean dropped = false;
      if (samples.size() == capacity) {
        samples.pollFirst();
        dropped = true;
      }
      samples.addLast(s);
      notEmpty.signal();
      return dropped;
    } finally {
      lock.unlock();
    }
  }

  /**
   * The oldest sample, waiting up to {@code maxWaitNanos} for one.
   *
   * @return the sample, or null if none came in time or the queue was closed
   */
  Sample poll(long maxWaitNanos) throws InterruptedException {
    lock.lockInterruptibly();
    try {
      long remaining = maxWaitNanos;
      while (samples.isEmpty() && !closed) {
        if (remaining <= 0) {
          return null;
        }
        remaining = notEmpty.awaitNanos(remaining);
      }
      return samples.pollFirst();
    } finally {
      lock.unlock();
    }
  }

  /** Discards the queued samples and wakes every waiting {@link #poll}. */
  void close() {
    lock.lock();
    try {
      closed = true;
      samples.clear();
      notEmpty.signalAll();
    } finally {
      lock.unlock();
    }
  }

  boolean isClosed() {
    lock.lock();
    try {
      return closed;
    } finally {
      lock.unlock();
    }
  }

  int size() {
    lock.lock();
    try {
      return samples.size();
    } finally {
      lock.unlock();
    }
  }

  int capacity() {
    return capacity;
  }
}
