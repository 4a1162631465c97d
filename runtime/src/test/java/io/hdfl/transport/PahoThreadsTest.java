package io.hdfl.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class PahoThreadsTest {
  /**
   * Paho 1.2.5 sleeps at least 100 ms after starting each of its three threads when they start the
   * usual way, so a connect then takes at least 300 ms whatever the machine; without the sleeps a
   * warm connect to a local broker takes a few milliseconds. The fastest of five is compared.
   */
  @Test
  void aConnectDoesNotWaitForPahosStartUpSleeps() throws Exception {
    String uri = SharedEmbeddedBroker.uri();
    long fastest = Long.MAX_VALUE;
    for (int i = 0; i < 6; i++) {
      long t0 = System.nanoTime();
      try (MqttTransport t = MqttTransport.connect(MqttSettings.builder(uri).clientId("paho-threads-" + i).build())) {
        long took = System.nanoTime() - t0;
        assertTrue(t.isConnected());
        if (i > 0) { // the first one loads and compiles the client's classes
          fastest = Math.min(fastest, took);
        }
        // the wake-ups reach Paho's connect task only: neither the caller nor a handler is interrupted
        assertFalse(Thread.interrupted(), "the thread that connected was interrupted");
        CompletableFuture<Boolean> handlerInterrupted = new CompletableFuture<>();
        t.subscribe("paho-threads/" + i, 1, (topic, payload, retained) ->
            handlerInterrupted.complete(Thread.currentThread().isInterrupted()));
        publishOnceConnected(t, "paho-threads/" + i);
        assertFalse(handlerInterrupted.get(10, TimeUnit.SECONDS), "a message handler ran interrupted");
      }
    }
    assertTrue(fastest < TimeUnit.MILLISECONDS.toNanos(300),
        "the fastest of five connects took " + fastest / 1_000_000
            + " ms: Paho's three 100 ms start-up sleeps are back");
  }

  /**
   * Publishes, retrying while the connection is being made again: Moquette 0.17 now and then closes a
   * connection whose SUBSCRIBE follows its CONNACK closely ("SUBSCRIBE received on already closed
   * connection", seen once in CI); the transport reconnects and subscribes again, but a publish meanwhile
   * fails fast.
   */
  private static void publishOnceConnected(MqttTransport t, String topic) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (true) {
      try {
        t.publish(topic, new byte[] {1}, 1, false);
        return;
      } catch (TransportException e) {
        if (System.nanoTime() > deadline) {
          throw e;
        }
        Thread.sleep(20);
      }
    }
  }

  /** What Paho's {@code stop()} does to its threads' futures must not reach the task: it may be running a handler. */
  @Test
  void cancellingATaskNeverInterruptsIt() throws Exception {
    PahoThreads threads = new PahoThreads();
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    AtomicBoolean interrupted = new AtomicBoolean();
    Future<?> f = threads.submit(() -> {
      started.countDown();
      try {
        release.await();
      } catch (InterruptedException e) {
        interrupted.set(true);
      }
    });
    assertTrue(started.await(10, TimeUnit.SECONDS));
    f.cancel(true); // what Paho's stop() does
    Thread.sleep(50);
    release.countDown();
    Thread.sleep(50);
    assertFalse(interrupted.get(), "a task was interrupted: Paho's callback thread runs the transport's handlers");
  }

  @Test
  void aTaskRunsOnANewThreadThatInheritsTheSubmittersDaemonStatus() throws Exception {
    PahoThreads threads = new PahoThreads();
    for (boolean daemon : new boolean[] {false, true}) {
      AtomicBoolean seen = new AtomicBoolean(!daemon);
      Thread submitter = new Thread(() -> {
        try {
          threads.submit(() -> seen.set(Thread.currentThread().isDaemon())).get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      });
      submitter.setDaemon(daemon);
      submitter.start();
      submitter.join(10_000);
      assertEquals(daemon, seen.get());
    }
    threads.shutdown();
    assertThrows(java.util.concurrent.RejectedExecutionException.class, () -> threads.execute(() -> { }));
    assertThrows(UnsupportedOperationException.class, () -> threads.schedule(() -> { }, 1, TimeUnit.SECONDS));
    assertThrows(UnsupportedOperationException.class, () -> threads.awaitTermination(1, TimeUnit.SECONDS));
  }
}
