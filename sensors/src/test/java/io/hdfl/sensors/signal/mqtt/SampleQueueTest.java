package io.hdfl.sensors.signal.mqtt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hdfl.sensors.signal.Sample;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class SampleQueueTest {

  private static Sample s(long t) {
    return new Sample(t, new float[] {t});
  }

  @Test
  void dropsTheOldestWhenFull() throws Exception {
    SampleQueue q = new SampleQueue(3);
    for (int t = 1; t <= 3; t++) {
      assertFalse(q.offer(s(t)));
    }
    assertTrue(q.offer(s(4)));
    assertTrue(q.offer(s(5)));
    assertEquals(3, q.size());
    assertEquals(3, q.poll(0).timestampNanos());
    assertEquals(4, q.poll(0).timestampNanos());
    assertEquals(5, q.poll(0).timestampNanos());
    assertNull(q.poll(1_000_000));
  }

  @Test
  void closeWakesAWaitingConsumerAndDiscards() throws Exception {
    SampleQueue q = new SampleQueue(2);
    CompletableFuture<Sample> waiting = CompletableFuture.supplyAsync(() -> {
      try {
        return q.poll(Long.MAX_VALUE);
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      }
    });
    Thread.sleep(50);
    q.close();
    assertNull(waiting.get(5, TimeUnit.SECONDS));
    assertTrue(q.isClosed());
    assertFalse(q.offer(s(1)));
    assertEquals(0, q.size());
  }
}
