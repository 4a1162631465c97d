package io.hdfl.federation;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ThreadCpuTest {
  /** The calling thread's CPU: it grows by about the time spent computing, and not while the thread sleeps. */
  @Test
  void countsTheCallingThreadsWorkAndNotItsSleep() throws Exception {
    long wall0 = System.nanoTime();
    long cpu0 = ThreadCpu.nanos();
    double x = 0;
    while (System.nanoTime() - wall0 < 100_000_000L) {
      x += Math.sqrt(x + 1);
    }
    long busy = ThreadCpu.nanos() - cpu0;
    long wall = System.nanoTime() - wall0;
    assertTrue(x > 0);
    assertTrue(busy > 20_000_000L && busy <= wall + 10_000_000L, "CPU " + busy + " ns over " + wall + " ns of work");
    long cpu1 = ThreadCpu.nanos();
    Thread.sleep(200);
    long slept = ThreadCpu.nanos() - cpu1;
    assertTrue(slept < 50_000_000L, "CPU " + slept + " ns while asleep for 200 ms");
  }
}
