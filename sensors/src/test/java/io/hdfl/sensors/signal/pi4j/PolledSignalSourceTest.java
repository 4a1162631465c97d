package io.hdfl.sensors.signal.pi4j;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.pi4j.Pi4J;
import com.pi4j.context.Context;
import io.hdfl.sensors.signal.Channel;
import io.hdfl.sensors.signal.Sample;
import io.hdfl.sensors.signal.SignalTimeoutException;
import io.hdfl.sensors.window.Windowing;
import io.hdfl.sensors.window.WindowingStats;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The sampler's schedule, timestamps, overruns and ownership, on a fake clock. */
class PolledSignalSourceTest {

  static final long MS = 1_000_000;
  final FakeClock clock = new FakeClock();

  private PolledSignalSource.Builder at100Hz(InputDevice... devices) {
    PolledSignalSource.Builder b = PolledSignalSource.builder(100).clock(clock);
    for (InputDevice d : devices) {
      b.device(d);
    }
    return b;
  }

  private static long relative(Sample s) {
    return s.timestampNanos() - FakeClock.EPOCH;
  }

  @Test
  void samplesFollowTheScheduleStampedFromTheEpochAnchor() throws Exception {
    FakeDevice a = new FakeDevice("a", clock, MS, "a0[V]", "a1[V]");
    FakeDevice b = new FakeDevice("b", clock, 0, "b0");
    try (PolledSignalSource s = at100Hz(a, b).build()) {
      assertEquals(List.of(new Channel("a0", "V"), new Channel("a1", "V"), Channel.of("b0")), s.channels());
      assertEquals(100, s.sampleRateHz());
      assertEquals("polled [a, b] at 100 Hz", s.toString());
      for (int k = 0; k < 5; k++) {
        Sample x = s.next();
        assertEquals(k * 10 * MS, relative(x), "sample " + k + " starts at its tick");
        assertArrayEquals(new float[] {(k + 1) * 10, (k + 1) * 10 + 1, (k + 1) * 10}, x.values());
        assertEquals(Sample.NO_LABEL, x.label());
      }
      assertEquals(List.of(9 * MS, 9 * MS, 9 * MS, 9 * MS), clock.sleeps, "waits the rest of each period");
      assertEquals(new SamplingStats(5, 0, 0, MS, 0), s.stats());
    }
  }

  @Test
  void ticksOfAFractionalPeriodStayOnTheGrid() throws Exception {
    try (PolledSignalSource s = PolledSignalSource.builder(3).clock(clock)
        .device(new FakeDevice("a", clock, 0, "x")).build()) {
      long[] expected = {0, 333_333_333, 666_666_667, 1_000_000_000, 1_333_333_333};
      for (long t : expected) {
        assertEquals(t, relative(s.next()));
      }
    }
  }

  @Test
  void overrunsAreCountedAndTheTicksTheyMissAreSkipped() throws Exception {
    FakeDevice slow = new FakeDevice("slow", clock, 11 * MS, "x");
    try (PolledSignalSource s = at100Hz(slow).build()) {
      List<Long> t = new ArrayList<>();
      for (int k = 0; k < 4; k++) {
        t.add(relative(s.next()));
      }
      // 0..11 ms; tick 1 (10 ms) 1 ms late: allowed (2.5 ms); tick 2 (20 ms) 2 ms late: allowed;
      // tick 3 (30 ms) would start at 33 ms, 3 ms late: skipped, the next sample waits for tick 4
      assertEquals(List.of(0L, 11 * MS, 22 * MS, 40 * MS), t);
      assertEquals(new SamplingStats(4, 4, 1, 11 * MS, 2 * MS), s.stats());
      assertEquals("4 samples, 4 overrun(s), 1 missed tick(s), longest cycle 11.000 ms, max lateness 2.000 ms",
          s.stats().toString());
    }
  }

  @Test
  void aLateConsumerMissesTicksAndWindowingSeesTheGap() throws Exception {
    FakeDevice d = new FakeDevice("d", clock, MS, "x");
    Windowing windowing = Windowing.builder(List.of(Channel.of("x")), 100).size(2).stride(1).build();
    try (PolledSignalSource s = at100Hz(d).build()) {
      windowing.offer(s.next());
      windowing.offer(s.next());
      clock.advance(35 * MS); // now 46 ms: ticks 2 (20), 3 (30) and 4 (40) are more than 2.5 ms late
      Sample late = s.next();
      assertEquals(50 * MS, relative(late), "resumes at the next tick, on the grid");
      windowing.offer(late);
      assertEquals(3, s.stats().missedTicks());
      assertEquals(0, s.stats().overruns());
      WindowingStats w = windowing.stats();
      assertEquals(1, w.gaps());
      assertEquals(0, w.irregularIntervals());
    }
  }

  @Test
  void underTheFailPolicyOverrunsAndMissedTicksThrow() throws Exception {
    FakeDevice d = new FakeDevice("d", clock, 15 * MS, "x");
    try (PolledSignalSource s = at100Hz(d).overrunPolicy(OverrunPolicy.FAIL).build()) {
      SamplingOverrunException e = assertThrows(SamplingOverrunException.class, s::next);
      assertEquals("polled [d] at 100 Hz: a cycle took 15.000 ms, longer than the 10.000 ms period (overrun policy "
          + "FAIL)", e.getMessage());
      d.readNanos = MS;
      e = assertThrows(SamplingOverrunException.class, s::next);
      assertEquals("polled [d] at 100 Hz: sample 1 would start 5.000 ms after its tick (allowed 2.500 ms, period "
          + "10.000 ms): 1 tick(s) missed (overrun policy FAIL)", e.getMessage());
      assertEquals(20 * MS, relative(s.next()), "the schedule goes on after the error");
      assertEquals(new SamplingStats(1, 1, 1, 15 * MS, 0), s.stats());
    }
  }

  @Test
  void aTimeoutKeepsTheTickForTheNextCall() throws Exception {
    try (PolledSignalSource s = at100Hz(new FakeDevice("d", clock, MS, "x")).build()) {
      s.next();
      SignalTimeoutException e = assertThrows(SignalTimeoutException.class, () -> s.next(Duration.ofMillis(5)));
      assertEquals("polled [d] at 100 Hz: no sample within 5 ms", e.getMessage());
      assertEquals(10 * MS, relative(s.next(Duration.ofMillis(5))));
      assertEquals(List.of(5 * MS, 4 * MS), clock.sleeps);
      assertEquals(20 * MS, relative(s.next(Duration.ofDays(365_000_000L * 100))), "huge timeouts saturate");
      assertThrows(IllegalArgumentException.class, () -> s.next(Duration.ofMillis(-1)));
    }
  }

  @Test
  void labelsComeFromTheProvider() throws Exception {
    AtomicInteger label = new AtomicInteger(Sample.NO_LABEL);
    try (PolledSignalSource s = at100Hz(new FakeDevice("d", clock, 0, "x")).labels(label::get).build()) {
      assertEquals(Sample.NO_LABEL, s.next().label());
      label.set(2);
      assertEquals(2, s.next().label());
      label.set(-5);
      assertEquals("polled [d] at 100 Hz: label provider returned -5 (labels are ≥ 0 or -1)",
          assertThrows(IOException.class, s::next).getMessage());
    }
  }

  @Test
  void aFailedReadIsReportedAndSamplingGoesOn() throws Exception {
    FakeDevice d = new FakeDevice("d", clock, MS, "x");
    try (PolledSignalSource s = at100Hz(d).build()) {
      s.next();
      d.failNext = new IOException("d: bus error");
      assertEquals("d: bus error", assertThrows(IOException.class, s::next).getMessage());
      assertEquals(20 * MS, relative(s.next()));
    }
  }

  @Test
  void closeReleasesDevicesLabelSwitchAndContext() throws Exception {
    Context pi4j = Pi4J.newAutoContext();
    FakeDevice a = new FakeDevice("a", clock, 0, "x");
    FakeDevice b = new FakeDevice("b", clock, 0, "y");
    ClosingLabels labels = new ClosingLabels();
    PolledSignalSource s = at100Hz(a, b).labels(labels).shutdownOnClose(pi4j).build();
    s.next();
    s.close();
    s.close();
    assertEquals(1, a.closes);
    assertEquals(1, b.closes);
    assertEquals(1, labels.closes);
    assertTrue(pi4j.isShutdown());
    assertThrows(IllegalStateException.class, s::next);
  }

  @Test
  void badSettingsAreRejectedAndCloseWhatWasGiven() {
    FakeDevice a = new FakeDevice("a", clock, 0, "x");
    assertEquals("sample rate must be > 0 and ≤ 20000 Hz, got 0.0", assertThrows(IllegalArgumentException.class,
        () -> PolledSignalSource.builder(0).device(a).build()).getMessage());
    assertThrows(IllegalArgumentException.class, () -> PolledSignalSource.builder(Double.NaN).device(a).build());
    assertThrows(IllegalArgumentException.class, () -> PolledSignalSource.builder(30_000).device(a).build());
    assertEquals("max lateness must be in (0, 0.5) of the period, got 0.5", assertThrows(IllegalArgumentException.class,
        () -> at100Hz(a).maxLateness(0.5).build()).getMessage());
    assertEquals("a polled source needs at least one device",
        assertThrows(IllegalArgumentException.class, () -> at100Hz().build()).getMessage());
    assertEquals("device a is added twice", assertThrows(IllegalArgumentException.class,
        () -> at100Hz(a, a).build()).getMessage());
    FakeDevice b = new FakeDevice("b", clock, 0, "y", "x[V]");
    assertEquals("channel name 'x' is used by two devices (a and b)", assertThrows(IllegalArgumentException.class,
        () -> at100Hz(a, b).build()).getMessage());
    assertEquals(6, a.closes, "every failed build closed the devices it was given, each once");
    assertEquals(1, b.closes);

    Context pi4j = Pi4J.newAutoContext();
    ClosingLabels labels = new ClosingLabels();
    FakeDevice adc = new FakeDevice("ads1115:i2c-1/0x48", clock, 0, "c");
    adc.minReadNanos = 4 * 7_812_500;
    FakeDevice gpio = new FakeDevice("gpio:17", clock, 0, "d");
    assertEquals("sampling at 100 Hz leaves 10.000 ms per sample, but reading the devices takes at least 31.250 ms "
        + "(ads1115:i2c-1/0x48 31.250 ms): lower the rate, use fewer channels or a faster ADC data rate",
        assertThrows(IllegalArgumentException.class,
            () -> at100Hz(adc, gpio).labels(labels).shutdownOnClose(pi4j).build()).getMessage());
    assertEquals(1, adc.closes);
    assertEquals(1, gpio.closes);
    assertEquals(1, labels.closes);
    assertTrue(pi4j.isShutdown());
  }

  @Test
  void theSystemClockSamplesNeverBeforeTheirTick() throws Exception {
    FakeDevice d = new FakeDevice("d", new FakeClock(), 0, "x");
    try (PolledSignalSource s = PolledSignalSource.builder(1000).device(d).build()) {
      long previous = Long.MIN_VALUE;
      for (int k = 0; k < 30; k++) {
        Sample x = s.next();
        if (k > 0) {
          // a sample starts at or after its tick and at most a quarter period late (or skips ticks)
          assertTrue(x.timestampNanos() - previous >= 750_000, "interval " + (x.timestampNanos() - previous));
        }
        previous = x.timestampNanos();
      }
      SamplingStats st = s.stats();
      assertEquals(30, st.samples());
      assertTrue(st.maxLatenessNanos() <= 250_000, st.toString());
    }
    long t0 = System.nanoTime();
    MonotonicClock.SYSTEM.sleepNanos(300_000);
    assertTrue(System.nanoTime() - t0 >= 300_000);
    MonotonicClock.SYSTEM.sleepNanos(-1);
    Thread.currentThread().interrupt();
    assertThrows(InterruptedException.class, () -> MonotonicClock.SYSTEM.sleepNanos(1_000_000));
    assertTrue(Math.abs(MonotonicClock.SYSTEM.epochNanos() / 1_000_000 - System.currentTimeMillis()) < 1000);
  }

  /** A closeable label provider. */
  static final class ClosingLabels implements LabelProvider, AutoCloseable {
    int closes;

    @Override
    public int label() {
      return 0;
    }

    @Override
    public void close() {
      closes++;
    }
  }
}
