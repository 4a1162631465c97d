package io.hdfl.sensors.energy;

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.lang.management.ThreadMXBean;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * CPU time consumed by this JVM process, in nanoseconds, summed over all its threads.
 *
 * <p>{@link #system()} uses {@code com.sun.management.OperatingSystemMXBean#getProcessCpuTime}
 * (module {@code jdk.management}); when that is missing or unsupported it falls back to the sum of
 * {@link ThreadMXBean#getThreadCpuTime} over the live threads, and logs why once. The fallback
 * cannot see threads that have ended, so it undercounts; its value is kept from going backwards.
 */
public final class ProcessCpuClock implements LongSupplier {

  private static final System.Logger LOG = System.getLogger("io.hdfl.sensors.energy");

  private final LongSupplier nanos;
  private final String source;
  private long last;

  private ProcessCpuClock(LongSupplier nanos, String source) {
    this.nanos = nanos;
    this.source = source;
  }

  /** The best process CPU clock this JVM offers (logs once when it falls back). */
  public static ProcessCpuClock system() {
    String why;
    try {
      OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
      if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
        if (sun.getProcessCpuTime() >= 0) {
          return new ProcessCpuClock(sun::getProcessCpuTime, "OperatingSystemMXBean.getProcessCpuTime");
        }
        why = "getProcessCpuTime is not supported here";
      } else {
        why = "the OperatingSystemMXBean is not com.sun.management's";
      }
    } catch (LinkageError e) {
      why = "module jdk.management is missing (" + e + ")";
    }
    ProcessCpuClock fallback = threadSum();
    LOG.log(System.Logger.Level.INFO, "hdfl energy: process CPU time from " + fallback.source() + " because " + why
        + "; ended threads are not counted");
    return fallback;
  }

  /** The sum of {@link ThreadMXBean#getThreadCpuTime} over live threads (the fallback). */
  public static ProcessCpuClock threadSum() {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    if (!threads.isThreadCpuTimeSupported()) {
      throw new UnsupportedOperationException("this JVM measures neither process nor thread CPU time");
    }
    if (!threads.isThreadCpuTimeEnabled()) {
      threads.setThreadCpuTimeEnabled(true);
    }
    return new ProcessCpuClock(() -> {
      long sum = 0;
      for (long id : threads.getAllThreadIds()) {
        long t = threads.getThreadCpuTime(id);
        if (t > 0) {
          sum += t;
        }
      }
      return sum;
    }, "ThreadMXBean (sum over live threads)");
  }

  /** A clock over any supplier of CPU nanoseconds, e.g. a test's. */
  public static ProcessCpuClock of(LongSupplier nanos, String source) {
    return new ProcessCpuClock(Objects.requireNonNull(nanos, "nanos"), Objects.requireNonNull(source, "source"));
  }

  /** What is measured, for provenance details. */
  public String source() {
    return source;
  }

  /** CPU nanoseconds consumed so far, never less than a previous value. */
  @Override
  public synchronized long getAsLong() {
    last = Math.max(last, nanos.getAsLong());
    return last;
  }
}
