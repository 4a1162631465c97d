package io.hdfl.concurrent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class SerialWorkerTest {

  @Test
  void runsTasksOneAtATimeInQueueingOrderOnceWoken() throws Exception {
    SerialWorker q = new SerialWorker("test-delivery");
    List<Integer> seen = Collections.synchronizedList(new ArrayList<>());
    List<String> threads = Collections.synchronizedList(new ArrayList<>());
    CountDownLatch done = new CountDownLatch(1000);
    for (int i = 0; i < 1000; i++) {
      int n = i;
      q.add(() -> {
        seen.add(n);
        threads.add(Thread.currentThread().getName());
        done.countDown();
      });
      if (i % 7 == 0) {
        q.wake();
      }
    }
    q.wake();
    assertTrue(done.await(10, TimeUnit.SECONDS));
    for (int i = 0; i < 1000; i++) {
      assertEquals(i, seen.get(i));
    }
    assertTrue(threads.stream().allMatch("test-delivery"::equals), "one thread of that name");
    q.stop();
  }

  @Test
  void noWakeIsLostBetweenProducersAndTheThread() throws Exception {
    // each task is queued and woken on its own, from two threads, while the thread parks in between
    SerialWorker q = new SerialWorker("test-delivery-race");
    int perProducer = 20_000;
    AtomicInteger ran = new AtomicInteger();
    CountDownLatch all = new CountDownLatch(2 * perProducer);
    Runnable producer = () -> {
      for (int i = 0; i < perProducer; i++) {
        q.add(() -> {
          ran.incrementAndGet();
          all.countDown();
        });
        q.wake();
      }
    };
    Thread a = new Thread(producer);
    Thread b = new Thread(producer);
    a.start();
    b.start();
    a.join();
    b.join();
    assertTrue(all.await(20, TimeUnit.SECONDS), "ran " + ran.get() + " of " + 2 * perProducer);
    q.stop();
  }

  @Test
  void stopDropsWhatIsQueuedInterruptsTheRunningTaskAndEndsTheThread() throws Exception {
    SerialWorker q = new SerialWorker("test-delivery-stop");
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch interrupted = new CountDownLatch(1);
    AtomicInteger later = new AtomicInteger();
    Thread[] worker = new Thread[1];
    q.add(() -> {
      worker[0] = Thread.currentThread();
      started.countDown();
      try {
        Thread.sleep(60_000);
      } catch (InterruptedException e) {
        interrupted.countDown();
      }
    });
    q.add(later::incrementAndGet);
    q.wake();
    assertTrue(started.await(10, TimeUnit.SECONDS));
    q.stop();
    assertTrue(interrupted.await(10, TimeUnit.SECONDS), "the running task was interrupted");
    worker[0].join(10_000);
    assertFalse(worker[0].isAlive(), "the thread ended");
    q.add(later::incrementAndGet); // ignored once stopped
    q.wake();
    assertEquals(0, later.get(), "queued tasks were dropped");
  }

  @Test
  void aTaskThatThrowsDoesNotStopTheOthers() throws Exception {
    SerialWorker q = new SerialWorker("test-delivery-throws");
    CountDownLatch after = new CountDownLatch(1);
    q.add(() -> {
      throw new IllegalStateException("handler bug (expected in this test)");
    });
    q.add(after::countDown);
    q.wake();
    assertTrue(after.await(10, TimeUnit.SECONDS));
    q.stop();
  }

  @Test
  void executeQueuesAndWakes() throws Exception {
    SerialWorker w = new SerialWorker("test-worker-execute");
    List<Integer> seen = Collections.synchronizedList(new ArrayList<>());
    CountDownLatch done = new CountDownLatch(200);
    for (int i = 0; i < 200; i++) {
      int n = i;
      w.execute(() -> {
        seen.add(n);
        done.countDown();
      });
      if (i % 50 == 0) {
        Thread.sleep(5); // the thread parks in between: each execute must wake it
      }
    }
    assertTrue(done.await(10, TimeUnit.SECONDS), "ran " + seen.size());
    for (int i = 0; i < 200; i++) {
      assertEquals(i, seen.get(i));
    }
    w.stop();
  }
}
