package io.hdfl.sensors.signal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** SignalRecorder and RecordedSignalSource: the HDSG layout, round trips, damage detection, pacing. */
class RecordedSignalSourceTest {

  private static final List<Channel> CHANNELS = List.of(new Channel("spindle.torque", "Nm"), Channel.of("flag"),
      new Channel("temp", "°C"));
  private static final long T0 = 1_700_000_000_000_000_000L;
  private static final long MS = 1_000_000L;

  @TempDir
  Path dir;

  private static List<Sample> samples() {
    return List.of(new Sample(T0, new float[] {1.5f, 0, 20}, 0),
        new Sample(T0 + 2 * MS, new float[] {-1e-30f, Float.NaN, Float.POSITIVE_INFINITY}, 0),
        new Sample(T0 + 4 * MS, new float[] {Float.MAX_VALUE, 1, -0f}, Sample.NO_LABEL),
        new Sample(T0 + 4 * MS, new float[] {3, 2, 1}, 7));
  }

  private Path record(List<Sample> samples) throws IOException {
    Path f = dir.resolve("r" + System.nanoTime() + ".hdsg");
    try (SignalRecorder r = SignalRecorder.create(f, CHANNELS, 500)) {
      for (Sample s : samples) {
        r.write(s);
      }
      assertEquals(samples.size(), r.records());
    }
    return f;
  }

  private static List<Sample> readAll(Path f) throws Exception {
    List<Sample> out = new ArrayList<>();
    try (RecordedSignalSource src = RecordedSignalSource.open(f)) {
      Sample s;
      while ((s = src.next()) != null) {
        out.add(s);
      }
      assertNull(src.next());
    }
    return out;
  }

  @Test
  void roundTripIsExactIncludingNonFiniteValuesAndLabels() throws Exception {
    Path f = record(samples());
    try (RecordedSignalSource src = RecordedSignalSource.open(f)) {
      assertEquals(CHANNELS, src.channels());
      assertEquals(500.0, src.sampleRateHz());
      assertEquals(Pacing.AS_FAST_AS_POSSIBLE, src.pacing());
    }
    List<Sample> back = readAll(f);
    assertEquals(samples(), back);
    assertTrue(Float.isNaN(back.get(1).value(1)));
    assertEquals(Float.floatToRawIntBits(-0f), Float.floatToRawIntBits(back.get(2).value(2)));
  }

  @Test
  void layoutIsTheDocumentedOne() throws Exception {
    byte[] b = Files.readAllBytes(record(samples()));
    ByteBuffer bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
    assertEquals("HDSG", new String(b, 0, 4, java.nio.charset.StandardCharsets.US_ASCII));
    assertEquals(1, bb.getShort(4));
    assertEquals(0, bb.getShort(6));
    assertEquals(3, bb.getInt(8));
    assertEquals(500.0, bb.getDouble(12));
    assertEquals(14, b[20]);
    assertEquals("spindle.torque", new String(b, 21, 14, java.nio.charset.StandardCharsets.UTF_8));
    int header = 20 + (1 + 14 + 1 + 2) + (1 + 4 + 1) + (1 + 4 + 1 + 3) + 4;   // "°" is two bytes
    int record = 1 + 8 + 4 + 3 * 4 + 4;
    assertEquals(header + 4 * record + 13, b.length);
    assertEquals('S', b[header]);
    assertEquals(T0, bb.getLong(header + 1));
    assertEquals(0, bb.getInt(header + 9));
    assertEquals(1.5f, bb.getFloat(header + 13));
    assertEquals(-1, bb.getInt(header + 2 * record + 9));
    assertEquals('E', b[header + 4 * record]);
    assertEquals(4L, bb.getLong(header + 4 * record + 1));
  }

  @Test
  void recorderRefusesToOverwriteAndRejectsBadSamples() throws Exception {
    Path f = record(samples());
    assertThrows(FileAlreadyExistsException.class, () -> SignalRecorder.create(f, CHANNELS, 500));
    try (SignalRecorder r = SignalRecorder.create(dir.resolve("x.hdsg"), CHANNELS, 500)) {
      assertEquals(dir.resolve("x.hdsg") + ": sample has 2 values, the recording 3 channels",
          assertThrows(IllegalArgumentException.class, () -> r.write(new Sample(0, new float[2]))).getMessage());
      r.write(new Sample(10, new float[3]));
      assertThrows(IllegalArgumentException.class, () -> r.write(new Sample(9, new float[3])));
      r.close();
      assertThrows(IllegalStateException.class, () -> r.write(new Sample(11, new float[3])));
    }
    assertThrows(IllegalArgumentException.class, () -> SignalRecorder.create(dir.resolve("y"), CHANNELS, 0));
    assertEquals(1, readAll(dir.resolve("x.hdsg")).size());
  }

  @Test
  void recordCopiesASourceToTheEnd() throws Exception {
    Path f = dir.resolve("copy.hdsg");
    try (ListSignalSource src = new ListSignalSource(CHANNELS, 500, samples())) {
      assertEquals(4, SignalRecorder.record(src, f));
    }
    assertEquals(samples(), readAll(f));
  }

  @Test
  void everyTruncationIsReportedAfterTheCompleteRecords() throws Exception {
    byte[] full = Files.readAllBytes(record(samples()));
    int header = full.length - 4 * 29 - 13;
    for (int len = 0; len < full.length; len++) {
      Path cut = dir.resolve("cut" + len);
      Files.write(cut, Arrays.copyOf(full, len));
      int complete = Math.max(0, (len - header) / 29);
      List<Sample> got = new ArrayList<>();
      SignalFormatException e = assertThrows(SignalFormatException.class, () -> {
        try (RecordedSignalSource src = RecordedSignalSource.open(cut)) {
          Sample s;
          while ((s = src.next()) != null) {
            got.add(s);
          }
        }
      }, "cut at " + len);
      assertEquals(samples().subList(0, Math.min(complete, 4)), got, "cut at " + len);
      if (len > header) {
        try (RecordedSignalSource src = RecordedSignalSource.open(cut)) {
          for (int i = 0; i < got.size(); i++) {
            src.next();
          }
          SignalFormatException first = assertThrows(SignalFormatException.class, src::next);
          assertEquals(first, assertThrows(SignalFormatException.class, src::next), "the failure sticks");
        }
      }
      assertTrue(e.getMessage().startsWith(cut.toString()), e.getMessage());
      if (len == header + 29) {
        assertEquals(cut + ": ends at offset " + len + " after 1 records without an end record (the recording was"
            + " cut short)", e.getMessage());
      }
    }
  }

  @Test
  void everySingleByteCorruptionIsDetected() throws Exception {
    byte[] full = Files.readAllBytes(record(samples()));
    for (int i = 0; i < full.length; i++) {
      for (int bit : new int[] {0x01, 0x80}) {
        byte[] bad = full.clone();
        bad[i] ^= (byte) bit;
        Path f = dir.resolve("bad" + i + "_" + bit);
        Files.write(f, bad);
        try {
          readAll(f);
          fail("flipping bit " + bit + " of byte " + i + " went unnoticed");
        } catch (SignalFormatException expected) {
          assertTrue(expected.getMessage().startsWith(f.toString()), expected.getMessage());
        }
      }
    }
  }

  @Test
  void hostileHeadersFailBeforeAllocating() throws Exception {
    ByteBuffer h = ByteBuffer.allocate(24).order(ByteOrder.LITTLE_ENDIAN);
    h.put(new byte[] {'H', 'D', 'S', 'G'}).putShort((short) 1).putShort((short) 0).putInt(-1).putDouble(500);
    Path f = dir.resolve("huge");
    Files.write(f, h.array());
    assertEquals(f + ": channel count 4294967295 at offset 8 is outside 1..4096",
        assertThrows(SignalFormatException.class, () -> RecordedSignalSource.open(f)).getMessage());
    h.putInt(8, 2).putDouble(12, Double.NaN);
    Files.write(f, h.array());
    assertEquals(f + ": sample rate NaN Hz at offset 12 is not in (0, 1e9]",
        assertThrows(SignalFormatException.class, () -> RecordedSignalSource.open(f)).getMessage());
    h.putShort(4, (short) 2);
    Files.write(f, h.array());
    assertEquals(f + ": HDSG version 2 is not supported (this reader knows 1)",
        assertThrows(SignalFormatException.class, () -> RecordedSignalSource.open(f)).getMessage());
    Files.writeString(f, "time,a\n0,1\n");
    assertEquals(f + ": not an HDSG signal recording (bad magic bytes at offset 0)",
        assertThrows(SignalFormatException.class, () -> RecordedSignalSource.open(f)).getMessage());
  }

  @Test
  void bytesAfterTheEndRecordAreRejected() throws Exception {
    Path f = record(samples());
    Files.write(f, new byte[] {0}, java.nio.file.StandardOpenOption.APPEND);
    SignalFormatException e = assertThrows(SignalFormatException.class, () -> readAll(f));
    assertTrue(e.getMessage().contains("unexpected bytes after the end record"), e.getMessage());
  }

  @Test
  void pacedReplayFollowsTimestampsAndTimeoutsKeepTheSample() throws Exception {
    Path f = record(samples());
    FakeClock clock = new FakeClock();
    long start = clock.now;
    try (RecordedSignalSource src = RecordedSignalSource.open(f, Pacing.REAL_TIME, clock)) {
      assertEquals(T0, src.next().timestampNanos());
      SignalTimeoutException timeout = assertThrows(SignalTimeoutException.class,
          () -> src.next(Duration.ofMillis(1)));
      assertEquals(Duration.ofMillis(1), timeout.timeout());
      assertEquals("recording " + f + ": no sample within 1 ms", timeout.getMessage());
      assertEquals(start + MS, clock.now);
      assertEquals(T0 + 2 * MS, src.next(Duration.ofMillis(5)).timestampNanos());
      assertEquals(start + 2 * MS, clock.now);
      assertEquals(T0 + 4 * MS, src.next().timestampNanos());
      assertEquals(T0 + 4 * MS, src.next().timestampNanos());
      assertEquals(start + 4 * MS, clock.now);
      assertNull(src.next(Duration.ZERO));
      src.close();
      assertThrows(IllegalStateException.class, src::next);
    }
  }

  @Test
  void acceleratedReplayOnTheRealClockTakesTheScaledTime() throws Exception {
    List<Sample> s = new ArrayList<>();
    for (int i = 0; i <= 20; i++) {
      s.add(new Sample(T0 + i * 20 * MS, new float[] {i, 0, 0}));
    }
    Path f = record(s);
    try (RecordedSignalSource src = RecordedSignalSource.open(f, Pacing.accelerated(8))) {
      src.next();
      long begin = System.nanoTime();
      int n = 1;
      while (src.next() != null) {
        n++;
      }
      long elapsed = System.nanoTime() - begin;
      assertEquals(21, n);
      // 400 ms of signal at ×8 = 50 ms; never early, and well below real time (400 ms) even on a busy machine.
      assertTrue(elapsed >= 50 * MS, elapsed + " ns");
      assertTrue(elapsed < 300 * MS, elapsed + " ns");
    }
  }
}
