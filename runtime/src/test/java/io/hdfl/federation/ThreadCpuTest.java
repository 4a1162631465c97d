package io.hdfl.federation;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

class ThreadCpuTest {
  /**
   * The calling thread's CPU: it grows while the thread computes (by no more than the wall time
   * passed), and not while it sleeps. Bounded by wall time, not by CPU, so a loaded machine only makes
   * it slower: a clock that stayed at 0 fails after 10 s.
   */
  @Test
  void countsTheCallingThreadsWorkAndNotItsSleep() throws Exception {
    Assumptions.assumeTrue(ManagementFactory.getThreadMXBean().isCurrentThreadCpuTimeSupported(),
        "this JVM cannot measure a thread's CPU (ThreadCpu gives 0)");
    long wall0 = System.nanoTime();
    long cpu0 = ThreadCpu.nanos();
    double x = 0;
    while (ThreadCpu.nanos() - cpu0 < 50_000_000L && System.nanoTime() - wall0 < 10_000_000_000L) {
      for (int i = 0; i < 10_000; i++) {
        x += Math.sqrt(x + i);
      }
    }
    long busy = ThreadCpu.nanos() - cpu0;
    long wall = System.nanoTime() - wall0;
    assertTrue(x > 0);
    assertTrue(busy >= 50_000_000L && busy <= wall + 10_000_000L, "CPU " + busy + " ns over " + wall + " ns of work");
    long cpu1 = ThreadCpu.nanos();
    Thread.sleep(200);
    long slept = ThreadCpu.nanos() - cpu1;
    assertTrue(slept < 50_000_000L, "CPU " + slept + " ns while asleep for 200 ms");
  }
}
