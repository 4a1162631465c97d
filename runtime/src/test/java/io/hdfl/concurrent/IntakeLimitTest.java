package io.hdfl.concurrent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class IntakeLimitTest {
  @Test
  void admitsWhileTheBytesWaitingStayUnderTheCapAndAgainOnceReleased() {
    IntakeLimit limit = new IntakeLimit("peer p", 100);
    assertTrue(limit.admit(60));
    assertTrue(limit.admit(40));
    assertFalse(limit.admit(1), "100 bytes wait");
    assertEquals(1, limit.dropped());
    limit.release(60);
    assertTrue(limit.admit(50));
    assertEquals(90, limit.waiting());
    limit.release(90);
    assertTrue(limit.admit(1000), "a message larger than the cap is admitted when nothing waits");
    assertFalse(limit.admit(1));
    assertThrows(IllegalArgumentException.class, () -> new IntakeLimit("x", 0));
  }

  /** A flood from many threads while the worker is blocked: what waits never exceeds the cap. */
  @Test
  void aFloodFromManyThreadsNeverOverfillsIt() throws Exception {
    IntakeLimit limit = new IntakeLimit("aggregator", 1000);
    AtomicInteger admitted = new AtomicInteger();
    CountDownLatch go = new CountDownLatch(1);
    Thread[] threads = new Thread[4];
    for (int t = 0; t < threads.length; t++) {
      threads[t] = new Thread(() -> {
        try {
          go.await();
        } catch (InterruptedException e) {
          return;
        }
        for (int i = 0; i < 1000; i++) {
          if (limit.admit(30)) {
            admitted.incrementAndGet();
          }
        }
      });
      threads[t].start();
    }
    go.countDown();
    for (Thread t : threads) {
      t.join();
    }
    assertEquals(33, admitted.get(), "33 messages of 30 bytes fit in 1000");
    assertEquals(4000 - 33, limit.dropped());
    assertEquals(990, limit.waiting());
  }
}
