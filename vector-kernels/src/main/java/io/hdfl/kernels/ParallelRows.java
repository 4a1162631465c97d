package io.hdfl.kernels;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/** Splits a range of rows across a small, cached pool of daemon threads (shared by kernels and callers). */
public final class ParallelRows {
  /** A task over rows {@code [from, to)}. */
  @FunctionalInterface
  public interface RowTask {
    void run(int from, int to);
  }

  private static final ConcurrentHashMap<Integer, ExecutorService> POOLS = new ConcurrentHashMap<>();

  private ParallelRows() {}

  /**
   * Runs {@code task} over {@code [0, n)} split into at most {@code threads} contiguous slices whose
   * bounds are multiples of {@code align} (except the last). Runs inline when one slice suffices.
   */
  public static void run(int n, int threads, int align, int minRowsPerThread, RowTask task) {
    int t = Math.max(1, Math.min(threads, (n + minRowsPerThread - 1) / Math.max(1, minRowsPerThread)));
    if (t <= 1) {
      task.run(0, n);
      return;
    }
    int per = (n + t - 1) / t;
    per = (per + align - 1) / align * align;
    ExecutorService pool = POOLS.computeIfAbsent(t, ParallelRows::newPool);
    List<Future<?>> futures = new ArrayList<>(t);
    int firstTo = Math.min(n, per);
    for (int from = firstTo; from < n; from += per) {
      int lo = from;
      int hi = Math.min(n, from + per);
      futures.add(pool.submit(() -> task.run(lo, hi)));
    }
    task.run(0, firstTo); // the calling thread takes the first slice
    for (Future<?> f : futures) {
      try {
        f.get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for kernel threads", e);
      } catch (ExecutionException e) {
        Throwable cause = e.getCause();
        if (cause instanceof RuntimeException) {
          throw (RuntimeException) cause;
        }
        if (cause instanceof Error) {
          throw (Error) cause;
        }
        throw new IllegalStateException(cause);
      }
    }
  }

  private static ExecutorService newPool(int threads) {
    AtomicInteger seq = new AtomicInteger();
    ThreadFactory tf =
        r -> {
          Thread th = new Thread(r, "hdfl-kernels-" + threads + "-" + seq.incrementAndGet());
          th.setDaemon(true);
          return th;
        };
    return Executors.newFixedThreadPool(Math.max(1, threads - 1), tf);
  }
}
