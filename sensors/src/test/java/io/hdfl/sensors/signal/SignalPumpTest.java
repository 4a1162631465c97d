package io.hdfl.sensors.signal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** SignalPump: push delivery, end and error callbacks, ownership of the source, prompt close. */
class SignalPumpTest {

  private static List<Sample> three() {
    return List.of(new Sample(0, new float[] {1}), new Sample(1, new float[] {2}), new Sample(2, new float[] {3}));
  }

  @Test
  void pushesEverySampleThenEndsAndClosesTheSource() throws Exception {
    ListSignalSource src = new ListSignalSource(ListSignalSource.channels(1), 1e9, three());
    List<String> events = new CopyOnWriteArrayList<>();
    try (SignalPump pump = SignalPump.start(src, new SampleListener() {
      @Override
      public void onSample(Sample s) {
        events.add("sample " + s.value(0));
      }

      @Override
      public void onEnd() {
        events.add("end");
      }

      @Override
      public void onError(Exception e) {
        events.add("error");
      }
    })) {
      assertTrue(pump.await(Duration.ofSeconds(10)));
      assertEquals(List.of("sample 1.0", "sample 2.0", "sample 3.0", "end"), events);
      assertEquals(3, pump.delivered());
      assertNull(pump.failure());
      assertEquals(1, src.closes());
    }
    assertEquals(1, src.closes());
  }

  @Test
  void aFailingListenerStopsThePumpAndGetsItsError() throws Exception {
    ListSignalSource src = new ListSignalSource(ListSignalSource.channels(1), 1e9, three());
    RuntimeException boom = new IllegalStateException("boom");
    AtomicReference<Exception> seen = new AtomicReference<>();
    try (SignalPump pump = SignalPump.start(src, new SampleListener() {
      @Override
      public void onSample(Sample s) {
        if (s.value(0) == 2) {
          throw boom;
        }
      }

      @Override
      public void onError(Exception e) {
        seen.set(e);
      }
    })) {
      assertTrue(pump.await(Duration.ofSeconds(10)));
      assertSame(boom, seen.get());
      assertSame(boom, pump.failure());
      assertEquals(1, pump.delivered());
      assertEquals(1, src.closes());
    }
  }

  @Test
  void closeStopsAnEndlessPacedSourcePromptlyWithoutCallbacks() throws Exception {
    SyntheticMachiningSource src = SyntheticMachiningSource.builder().pacing(Pacing.REAL_TIME).build();
    List<String> callbacks = new CopyOnWriteArrayList<>();
    SignalPump pump = SignalPump.start(src, new SampleListener() {
      @Override
      public void onSample(Sample s) {}

      @Override
      public void onEnd() {
        callbacks.add("end");
      }

      @Override
      public void onError(Exception e) {
        callbacks.add("error " + e);
      }
    });
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (pump.delivered() < 5 && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
    assertTrue(pump.delivered() >= 5, "real-time delivery at 500 Hz");
    long begin = System.nanoTime();
    pump.close();
    assertTrue(pump.isDone());
    assertTrue(System.nanoTime() - begin < 2_000_000_000L);
    assertEquals(List.of(), callbacks);
    assertTrue(org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class, src::next)
        .getMessage().endsWith("is closed"));
  }
}
