package io.hdfl.sensors.signal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link RepeatableSource} on the sources that replay (a recording, a CSV file, the simulator): a skip
 * lands exactly where reading would have, counts in the position, waits for no pacing, and ends where
 * the stream ends.
 */
class RepeatableSourceTest {
  private static final long MS = 1_000_000L;

  @TempDir
  Path dir;

  /** Opens the same samples again each time. */
  private interface Opener {
    PacedSource open(Pacing pacing, Pacer.Clock clock) throws IOException;
  }

  private Opener synthetic() {
    return (pacing, clock) -> SyntheticMachiningSource.builder().seed(7).machine(1).cycles(2).pacing(pacing)
        .clock(clock).build();
  }

  private Opener recording() throws Exception {
    Path f = dir.resolve("r.hdsg");
    try (SyntheticMachiningSource src = SyntheticMachiningSource.builder().seed(3).cycles(1).build();
        SignalRecorder r = SignalRecorder.create(f, src.channels(), src.sampleRateHz())) {
      for (Sample s; (s = src.next()) != null; ) {
        r.write(s);
      }
    }
    return (pacing, clock) -> RecordedSignalSource.open(f, pacing, clock);
  }

  private Opener csv() throws Exception {
    StringBuilder sb = new StringBuilder("time[ms],a,b[V],label\n");
    for (int i = 0; i < 300; i++) {
      sb.append(i * 2).append(',').append(i * 0.5).append(',').append(-i).append(',').append(i % 3).append('\n');
    }
    Path f = dir.resolve("s.csv");
    Files.writeString(f, sb);
    return (pacing, clock) -> CsvSignalSource.builder(f).pacing(pacing).clock(clock).open();
  }

  private static List<Sample> readAll(SignalSource src) throws Exception {
    List<Sample> out = new ArrayList<>();
    for (Sample s; (s = src.next()) != null; ) {
      out.add(s);
    }
    return out;
  }

  private static void skipLandsWhereReadingWould(Opener opener) throws Exception {
    List<Sample> all;
    try (PacedSource src = opener.open(Pacing.AS_FAST_AS_POSSIBLE, Pacer.SYSTEM)) {
      all = readAll(src);
      assertEquals(all.size(), src.position());
    }
    assertTrue(all.size() > 100, all.size() + " samples");
    int n = all.size();
    for (int k : new int[] {0, 1, 37, n - 1}) {
      try (PacedSource src = opener.open(Pacing.AS_FAST_AS_POSSIBLE, Pacer.SYSTEM)) {
        assertEquals(k, src.skip(k));
        assertEquals(k, src.position());
        assertEquals(all.get(k), src.next(), "sample " + k);
        assertEquals(k + 1, src.position());
        // a skip in the middle of a stream goes on from where it is
        long more = Math.min(5, n - k - 1);
        assertEquals(more, src.skip(more));
        assertEquals(k + 1 + more == n ? null : all.get((int) (k + 1 + more)), src.next());
      }
    }
    try (PacedSource src = opener.open(Pacing.AS_FAST_AS_POSSIBLE, Pacer.SYSTEM)) {
      assertEquals(n, src.skip(n + 1000), "a skip ends where the stream ends");
      assertEquals(n, src.position());
      assertNull(src.next());
      assertEquals(0, src.skip(10));
    }
  }

  @Test
  void aSkippedRecordingGoesOnWithTheSampleAfterTheSkip() throws Exception {
    skipLandsWhereReadingWould(recording());
  }

  @Test
  void aSkippedCsvFileGoesOnWithTheSampleAfterTheSkip() throws Exception {
    skipLandsWhereReadingWould(csv());
  }

  @Test
  void aSkippedSimulatorGoesOnWithTheSampleAfterTheSkip() throws Exception {
    skipLandsWhereReadingWould(synthetic());
  }

  @Test
  void aSkipWaitsForNoPacingAndThePacingStartsAgainAfterIt() throws Exception {
    FakeClock clock = new FakeClock();
    try (PacedSource src = csv().open(Pacing.REAL_TIME, clock)) {
      src.next();
      src.next(); // due 2 ms after the first
      long before = clock.now;
      assertEquals(200, src.skip(200)); // 400 ms of samples
      assertEquals(before, clock.now, "skipped samples are not waited for");
      Sample first = src.next();
      assertEquals(202 * 2 * MS, first.timestampNanos());
      assertEquals(before, clock.now, "the first sample after a skip anchors the schedule");
      src.next();
      assertEquals(before + 2 * MS, clock.now, "then the recording's own intervals");
      assertEquals(204, src.position());
    }
  }

  @Test
  void aSampleKeptAfterATimeoutIsTheFirstOneSkipped() throws Exception {
    FakeClock clock = new FakeClock();
    List<Sample> all;
    try (PacedSource src = csv().open(Pacing.AS_FAST_AS_POSSIBLE, Pacer.SYSTEM)) {
      all = readAll(src);
    }
    try (PacedSource src = csv().open(Pacing.REAL_TIME, clock) ) {
      src.next();
      assertThrows(SignalTimeoutException.class, () -> src.next(Duration.ZERO)); // sample 1 is kept
      assertEquals(1, src.position(), "a kept sample was not delivered");
      assertEquals(3, src.skip(3));
      assertEquals(4, src.position());
      assertEquals(all.get(4), src.next());
    }
  }

  @Test
  void aSkipOverDamagedInputFailsAsReadingDoesAndCountsWhatItPassed() throws Exception {
    Path f = dir.resolve("bad.csv");
    Files.writeString(f, "time[ms],a\n0,1\n2,2\n4,3\n1,4\n8,5\n");
    try (CsvSignalSource src = CsvSignalSource.builder(f).sampleRateHz(500).open()) { // no read-ahead
      SignalFormatException e = assertThrows(SignalFormatException.class, () -> src.skip(10));
      assertEquals(3, src.position(), "the three good samples before the bad line");
      assertSame(e, assertThrows(SignalFormatException.class, src::next), "every later call reports the same");
      assertSame(e, assertThrows(SignalFormatException.class, () -> src.skip(1)));
    }
    try (PacedSource src = synthetic().open(Pacing.AS_FAST_AS_POSSIBLE, Pacer.SYSTEM)) {
      assertThrows(IllegalArgumentException.class, () -> src.skip(-1));
      src.close();
      assertThrows(IllegalStateException.class, () -> src.skip(1));
    }
  }
}
