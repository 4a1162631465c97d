package io.hdfl.concurrent;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Bounds what a peer's received messages hold while they wait in its worker's queue: a message is
 * admitted while the bytes waiting stay under a cap, and one over it is dropped, counted and logged
 * (the first, then every hundredth). A worker blocked for a while (waiting for an ack, a broker's
 * confirmation or a disk) would otherwise let anyone who can publish to its topics fill the heap. The
 * protocols survive a dropped message: a ring model is not acknowledged and so is sent again (after
 * two unanswered attempts its sender skips this peer for the turn, as for a peer that is down); star
 * updates and global models are sent again while their round waits. Each receiver has its own limit:
 * in {@code simulate}, where many peers share one JVM, they do not add up to one bound.
 */
public final class IntakeLimit {
  private static final System.Logger LOG = System.getLogger("io.hdfl.concurrent");

  private final String owner;
  private final long maxBytes;
  private final AtomicLong waiting = new AtomicLong();
  private final AtomicLong dropped = new AtomicLong();

  /**
   * @param owner who receives, for the log ("aggregator", "peer peer-002")
   * @param maxBytes the most bytes waiting at a time (a message larger than that is still admitted
   *     when nothing waits, so that no single message can be refused for good)
   */
  public IntakeLimit(String owner, long maxBytes) {
    if (maxBytes < 1) {
      throw new IllegalArgumentException("maxBytes must be >= 1, got " + maxBytes);
    }
    this.owner = owner;
    this.maxBytes = maxBytes;
  }

  /** A quarter of the heap this JVM may grow to. */
  public static long quarterOfHeap() {
    return Math.max(1, Runtime.getRuntime().maxMemory() / 4);
  }

  /**
   * Whether a message of {@code bytes} may wait in the queue; if so, {@link #release} it when its
   * task starts.
   */
  public boolean admit(long bytes) {
    while (true) {
      long now = waiting.get();
      if (now > 0 && now + bytes > maxBytes) {
        long n = dropped.incrementAndGet();
        if (n == 1 || n % 100 == 0) {
          LOG.log(System.Logger.Level.WARNING, owner + ": dropped a received message of " + bytes + " bytes: "
              + now + " bytes already wait for its worker (limit " + maxBytes + "); " + n + " dropped so far");
        }
        return false;
      }
      if (waiting.compareAndSet(now, now + bytes)) {
        return true;
      }
    }
  }

  /** Gives back what {@link #admit} took for a message whose task has started. */
  public void release(long bytes) {
    waiting.addAndGet(-bytes);
  }

  /** Bytes waiting now. */
  public long waiting() {
    return waiting.get();
  }

  /** Messages dropped so far. */
  public long dropped() {
    return dropped.get();
  }
}
