package io.hdfl.federation;

import io.hdfl.hd.EncodedSet;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.function.Supplier;

/**
 * Collects a live stream's windows in the background so that a ring peer can learn, at its turn,
 * from what arrived since its previous one ({@link RingPeer#learningFrom}). Keeps at most {@code
 * cap} windows; {@link #get} takes them all. When full, it drops the oldest batches (counted) to read
 * on (a sensor, whose samples pass whether read or not: the freshest are kept), or, if it {@linkplain
 * #WindowCollector(LocalStream, int, int, String, boolean) holds when full}, waits for the next
 * {@code get} (a replayed recording or the synthetic machine, which wait to be read: reading them
 * ahead only to drop windows would burn the processor and use a recording up between two turns).
 */
public final class WindowCollector implements Supplier<EncodedSet>, AutoCloseable {
  private static final System.Logger LOG = System.getLogger("io.hdfl.federation");

  private final ArrayDeque<EncodedSet> batches = new ArrayDeque<>();
  private final int cap;
  private final boolean holdWhenFull;
  private final Thread thread;
  private int held;
  private long dropped;

  /**
   * @param batch windows taken from {@code stream} at a time (balanced per batch)
   * @param cap most windows held between two turns
   */
  public WindowCollector(LocalStream stream, int batch, int cap, String name) {
    this(stream, batch, cap, name, false);
  }

  /**
   * @param holdWhenFull whether to stop reading while {@code cap} windows wait (a source that waits
   *     to be read), rather than drop the oldest
   */
  public WindowCollector(LocalStream stream, int batch, int cap, String name, boolean holdWhenFull) {
    if (batch < 1 || cap < batch) {
      throw new IllegalArgumentException("need 1 <= batch <= cap, got batch " + batch + ", cap " + cap);
    }
    this.cap = cap;
    this.holdWhenFull = holdWhenFull;
    this.thread = new Thread(() -> run(stream, batch), "hdfl-collector-" + name);
    thread.setDaemon(true);
    thread.start();
  }

  private void run(LocalStream stream, int batch) {
    try {
      while (!Thread.currentThread().isInterrupted()) {
        int want = batch;
        if (holdWhenFull) {
          synchronized (this) {
            while (held >= cap) {
              wait(); // until get takes what is held
            }
            want = Math.min(batch, cap - held);
          }
        }
        EncodedSet b = stream.next(want);
        synchronized (this) {
          batches.addLast(b);
          held += b.size();
          while (held > cap) {
            EncodedSet old = batches.removeFirst();
            held -= old.size();
            dropped += old.size();
          }
        }
      }
    } catch (InterruptedException e) {
      // closed
    } catch (UncheckedIOException e) {
      LOG.log(System.Logger.Level.WARNING, "live windows stopped: " + e.getMessage());
    }
  }

  /** Every window collected since the previous call, oldest first, or null if none. */
  @Override
  public synchronized EncodedSet get() {
    EncodedSet all = null;
    for (EncodedSet b : batches) {
      all = all == null ? b : all.concat(b);
    }
    batches.clear();
    held = 0;
    notifyAll();
    return all;
  }

  /** Windows dropped because more than {@code cap} arrived between two turns. */
  public synchronized long dropped() {
    return dropped;
  }

  @Override
  public void close() {
    thread.interrupt();
  }
}
