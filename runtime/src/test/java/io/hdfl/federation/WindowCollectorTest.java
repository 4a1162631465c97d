package io.hdfl.federation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hdfl.hd.EncodedSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/** WindowCollector: a sensor's windows are read on and the oldest dropped; a replayed source's wait. */
class WindowCollectorTest {
  private static final int DIM = 4;

  /** Hands out batches whose windows are numbered in order (the number in every component). */
  private static final class Numbered implements LocalStream {
    final AtomicInteger handedOut = new AtomicInteger();

    @Override
    public EncodedSet next(long count) {
      int n = (int) count;
      float[] v = new float[n * DIM];
      for (int i = 0; i < n; i++) {
        java.util.Arrays.fill(v, i * DIM, (i + 1) * DIM, handedOut.getAndIncrement());
      }
      return EncodedSet.of(v, n, DIM, new int[n], 2);
    }
  }

  private static void await(BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (!condition.getAsBoolean()) {
      assertTrue(System.nanoTime() < deadline, "timed out");
      Thread.sleep(5);
    }
  }

  @Test
  void aSourceThatWaitsToBeReadIsReadNoFurtherThanTheCapAhead() throws Exception {
    Numbered stream = new Numbered();
    try (WindowCollector c = new WindowCollector(stream, 5, 20, "replay", true)) {
      await(() -> stream.handedOut.get() >= 20);
      Thread.sleep(200);
      assertEquals(20, stream.handedOut.get(), "held at the cap");
      EncodedSet first = c.get();
      assertEquals(20, first.size());
      assertEquals(0f, first.row(0)[0]);
      await(() -> stream.handedOut.get() >= 40);
      Thread.sleep(100);
      assertEquals(40, stream.handedOut.get());
      EncodedSet second = c.get();
      assertEquals(20f, second.row(0)[0], "goes on where it stopped: nothing dropped");
      assertEquals(0, c.dropped());
    }
    Numbered odd = new Numbered();
    try (WindowCollector c = new WindowCollector(odd, 10, 25, "replay", true)) {
      await(() -> odd.handedOut.get() >= 25);
      Thread.sleep(100);
      assertEquals(25, odd.handedOut.get(), "a cap that is no multiple of the batch is filled, not overrun");
      assertEquals(25, c.get().size());
    }
  }

  @Test
  void aSensorIsReadOnAndItsOldestWindowsDropped() throws Exception {
    Numbered stream = new Numbered();
    try (WindowCollector c = new WindowCollector(stream, 5, 20, "sensor")) {
      await(() -> c.dropped() >= 100);
      EncodedSet kept = c.get();
      assertTrue(kept.size() <= 20, kept.size() + " windows");
      assertTrue(kept.row(0)[0] >= 100, "the freshest are kept");
    }
  }
}
