package io.hdfl.federation;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * The CPU time of the calling thread, for a round report's CPU figure, or 0 on a JVM that cannot
 * measure it (its reports' CPU is then 0; every JDK on Linux can). Without the check, such a JVM
 * would throw in the middle of a turn.
 */
final class ThreadCpu {
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
  private static final boolean SUPPORTED = THREADS.isCurrentThreadCpuTimeSupported();

  private ThreadCpu() {}

  /** Nanoseconds of CPU the calling thread has used, or 0 where that is not measurable or turned off. */
  static long nanos() {
    return SUPPORTED ? Math.max(0, THREADS.getCurrentThreadCpuTime()) : 0;
  }
}
