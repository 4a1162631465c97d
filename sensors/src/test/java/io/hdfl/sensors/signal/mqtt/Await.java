package io.hdfl.sensors.signal.mqtt;

import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** Polls a condition until it holds or a deadline passes. */
final class Await {

  private Await() {}

  static void until(BooleanSupplier condition, Duration timeout, Supplier<String> what) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        fail("not within " + timeout.toMillis() + " ms: " + what.get());
      }
      Thread.sleep(10);
    }
  }
}
