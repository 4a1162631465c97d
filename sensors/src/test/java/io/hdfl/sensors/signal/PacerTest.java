package io.hdfl.sensors.signal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Pacing schedules against an injected clock, so they are checked exactly. */
class PacerTest {

  private static final long MS = 1_000_000L;

  @Test
  void unpacedNeverWaits() throws Exception {
    FakeClock clock = new FakeClock();
    Pacer p = new Pacer(Pacing.AS_FAST_AS_POSSIBLE, clock);
    assertTrue(p.awaitDue(0, Long.MAX_VALUE));
    assertTrue(p.awaitDue(3_600_000 * MS, Long.MAX_VALUE));
    assertEquals(List.of(), clock.sleeps);
  }

  @Test
  void realTimeDeliversEachSampleWhenItsOffsetFromTheFirstHasElapsed() throws Exception {
    FakeClock clock = new FakeClock();
    Pacer p = new Pacer(Pacing.REAL_TIME, clock);
    long start = clock.now;
    long t0 = 1_700_000_000_000L * MS;
    assertTrue(p.awaitDue(t0, Long.MAX_VALUE));
    assertEquals(start, clock.now);
    assertTrue(p.awaitDue(t0 + 2 * MS, Long.MAX_VALUE));
    assertEquals(start + 2 * MS, clock.now);
    clock.advance(5 * MS);                       // a slow consumer: 7 ms elapsed, sample 3 was due at 4 ms
    assertTrue(p.awaitDue(t0 + 4 * MS, Long.MAX_VALUE));
    assertEquals(start + 7 * MS, clock.now);     // delivered at once, nothing dropped
    assertTrue(p.awaitDue(t0 + 10 * MS, Long.MAX_VALUE));
    assertEquals(start + 10 * MS, clock.now);    // schedule still anchored at the first sample: no drift
    assertEquals(List.of(2 * MS, 3 * MS), clock.sleeps);
  }

  @Test
  void acceleratedDividesIntervals() throws Exception {
    FakeClock clock = new FakeClock();
    Pacer p = new Pacer(Pacing.accelerated(4), clock);
    long start = clock.now;
    p.awaitDue(0, Long.MAX_VALUE);
    p.awaitDue(100 * MS, Long.MAX_VALUE);
    assertEquals(start + 25 * MS, clock.now);
    Pacer slow = new Pacer(Pacing.accelerated(0.5), clock);
    long s2 = clock.now;
    slow.awaitDue(0, Long.MAX_VALUE);
    slow.awaitDue(3 * MS, Long.MAX_VALUE);
    assertEquals(s2 + 6 * MS, clock.now);
  }

  @Test
  void boundedWaitGivesUpAfterTheTimeoutAndTheSampleStaysDue() throws Exception {
    FakeClock clock = new FakeClock();
    Pacer p = new Pacer(Pacing.REAL_TIME, clock);
    long start = clock.now;
    p.awaitDue(0, 0);
    assertFalse(p.awaitDue(50 * MS, 20 * MS));
    assertEquals(start + 20 * MS, clock.now);
    assertTrue(p.awaitDue(50 * MS, 100 * MS));
    assertEquals(start + 50 * MS, clock.now);
  }
}
