package io.hdfl.sensors.signal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** CsvSignalSource: header forms, time units, labels, rate inference, and one-line errors with line numbers. */
class CsvSignalSourceTest {

  private static final long MS = 1_000_000L;

  @TempDir
  Path dir;

  private Path csv(String text) throws IOException {
    Path f = dir.resolve("s" + System.nanoTime() + ".csv");
    Files.writeString(f, text);
    return f;
  }

  private static List<Sample> readAll(SignalSource src) throws Exception {
    List<Sample> out = new ArrayList<>();
    Sample s;
    while ((s = src.next()) != null) {
      out.add(s);
    }
    return out;
  }

  @Test
  void readsChannelsUnitsTimestampsAndLabels() throws Exception {
    Path f = csv("time[ms],spindle.torque[Nm],\"z, current[A]\",label,flag\n"
        + "0,12.5,3.1,0,1\n"
        + "2,12.75,-3e-2,0,\n"
        + "\n"
        + "4.5,NaN,inf,,0\r\n");
    try (CsvSignalSource src = CsvSignalSource.open(f)) {
      assertEquals(List.of(new Channel("spindle.torque", "Nm"), new Channel("z, current", "A"), Channel.of("flag")),
          src.channels());
      List<Sample> s = readAll(src);
      assertEquals(3, s.size());
      assertEquals(new Sample(0, new float[] {12.5f, 3.1f, 1f}, 0), s.get(0));
      assertEquals(2 * MS, s.get(1).timestampNanos());
      assertEquals(-0.03f, s.get(1).value(1));
      assertTrue(Float.isNaN(s.get(1).value(2)), "an empty cell is a missing reading");
      assertEquals(4_500_000L, s.get(2).timestampNanos());
      assertTrue(Float.isNaN(s.get(2).value(0)));
      assertEquals(Float.POSITIVE_INFINITY, s.get(2).value(1));
      assertFalse(s.get(2).hasLabel());
      assertEquals(500.0, src.sampleRateHz(), "median interval 2 ms");
    }
  }

  @Test
  void secondsAreConvertedToNanosecondsExactly() throws Exception {
    Path f = csv("\uFEFFtimestamp,a\n1700000000.000000001,1\n1700000000.0020000005,2\n1700000000.004,3\n");
    try (CsvSignalSource src = CsvSignalSource.open(f)) {
      List<Sample> s = readAll(src);
      assertEquals(1_700_000_000_000_000_001L, s.get(0).timestampNanos());
      assertEquals(1_700_000_000_002_000_000L, s.get(1).timestampNanos(), "half-even rounding of 0.5 ns");
      assertEquals(1_700_000_000_004_000_000L, s.get(2).timestampNanos());
      assertEquals(List.of(Channel.of("a")), src.channels());
    }
    Path ns = csv("Time[ns];x[V]\n5;1\n7;2\n");
    try (CsvSignalSource src = CsvSignalSource.builder(ns).delimiter(';').sampleRateHz(1000).open()) {
      assertEquals(List.of(5L, 7L), readAll(src).stream().map(Sample::timestampNanos).toList());
      assertEquals(1000.0, src.sampleRateHz(), "explicit rate wins");
    }
    Path us = csv("t_us[us],x,cls\n10,1,2\n20,2,2\n");
    try (CsvSignalSource src = CsvSignalSource.builder(us).timestampColumn("t_us").labelColumn("cls").open()) {
      List<Sample> s = readAll(src);
      assertEquals(20_000L, s.get(1).timestampNanos());
      assertEquals(2, s.get(1).label());
      assertEquals(List.of(Channel.of("x")), src.channels());
      assertEquals(100_000.0, src.sampleRateHz());
    }
  }

  @Test
  void rateIsTheMedianOfTheFirstIntervals() throws Exception {
    StringBuilder sb = new StringBuilder("time[ms],a\n");
    long t = 0;
    for (int i = 0; i < 100; i++) {
      sb.append(t).append(",").append(i).append('\n');
      t += i % 10 == 9 ? 7 : 2;   // an occasional gap does not move the median
    }
    try (CsvSignalSource src = CsvSignalSource.open(csv(sb.toString()))) {
      assertEquals(500.0, src.sampleRateHz());
      assertEquals(100, readAll(src).size(), "look-ahead rows are delivered too");
    }
    assertEquals("cannot infer the sample rate (fewer than two distinct timestamps); set it explicitly",
        message(csv("time,a\n1,1\n1,2\n")));
  }

  @Test
  void badRowsNameFileLineAndProblem() throws Exception {
    assertEquals("line 3: 2 fields, the header has 3", message(csv("time,a,b\n0,1,2\n1,2\n")));
    assertEquals("line 2: more than 3 fields, the header has 3", message(csv("time,a,b\n0,1,2,3,4\n")));
    assertEquals("line 2: column 2 (a): value '1,5' is not a decimal number",
        message(csv("time;a;b\n0;1,5;2\n"), ';'));
    assertEquals("line 3: column 3 (b): value '0x10' is not a decimal number", message(csv("time,a,b\n0,1,2\n1,1,0x10\n")));
    assertEquals("line 2: column 2 (a): value '2f' is not a decimal number", message(csv("time,a\n0,2f\n")));
    assertEquals("line 2: column 2 (a): value '1e39' overflows float32", message(csv("time,a\n0,1e39\n")));
    assertEquals("line 3: timestamp goes back (1000000000 ns after 2000000000 ns)", message(csv("time,a\n2,1\n1,1\n")));
    assertEquals("line 2: timestamp 'abc' is not a decimal number", message(csv("time,a\nabc,1\n")));
    assertEquals("line 2: empty timestamp", message(csv("time,a\n,1\n")));
    assertEquals("line 2: timestamp '1e100' is out of range", message(csv("time,a\n1e100,1\n")));
    assertEquals("line 2: timestamp '10000000000' is out of range", message(csv("time,a\n10000000000,1\n")));
    assertEquals("line 2: label '-1' is not an integer ≥ 0 (or empty for none)", message(csv("time,a,label\n0,1,-1\n")));
    assertEquals("line 2: unterminated quote starting at column 3", message(csv("time,a\n0,\"1\n")));
    assertEquals("line 2: text after the closing quote at column 6", message(csv("time,a\n0,\"1\"x\n")));
  }

  @Test
  void badHeadersAndFilesAreRejected() throws Exception {
    assertEquals("empty file (no header row)", message(csv("")));
    assertEquals("line 1 (header): no timestamp column: name one 'timestamp' or 'time', optionally with a unit"
        + " (time[ms]; default s)", message(csv("a,b\n1,2\n")));
    assertEquals("line 1 (header): channel name 'a' appears twice", message(csv("time,a,a\n")));
    assertEquals("line 1 (header): column 2 has an empty name", message(csv("time,,b\n")));
    assertEquals("line 1 (header): column 2 header 'a[V' is not name or name[unit]", message(csv("time,a[V\n")));
    assertEquals("line 1 (header): timestamp column 'time[h]': unit must be s, ms, us or ns", message(csv("time[h],a\n")));
    assertEquals("line 1 (header): no channel columns besides the timestamp and label", message(csv("time,label\n")));
    Path f = csv("time,a\n0,1\n");
    IOException noLabel = assertThrows(SignalFormatException.class,
        () -> CsvSignalSource.builder(f).labelColumn("class").open());
    assertEquals(f + ": line 1 (header): no label column named 'class'", noLabel.getMessage());
  }

  @Test
  void hostileInputIsBounded() throws Exception {
    Path longLine = csv("time,a\n0," + "1".repeat(5000) + "\n");
    IOException e = assertThrows(SignalFormatException.class,
        () -> readAll(CsvSignalSource.builder(longLine).maxLineBytes(1000).sampleRateHz(1).open()));
    assertEquals(longLine + ": line 2 is longer than 1000 bytes", e.getMessage());
    Path wide = csv("time," + "c,".repeat(4200) + "x\n");
    e = assertThrows(SignalFormatException.class, () -> CsvSignalSource.open(wide));
    assertTrue(e.getMessage().contains("a signal has 1..4096 channels"), e.getMessage());
    Path binary = dir.resolve("bin.csv");
    Files.write(binary, new byte[] {'t', 'i', 'm', 'e', ',', 'a', '\n', '0', ',', (byte) 0xC3, (byte) 0x28, '\n'});
    e = assertThrows(SignalFormatException.class,
        () -> readAll(CsvSignalSource.builder(binary).sampleRateHz(1).open()));
    assertEquals(binary + ": line 2 is not valid UTF-8", e.getMessage());
  }

  @Test
  void pacedReplayUsesTheTimestamps() throws Exception {
    FakeClock clock = new FakeClock();
    long start = clock.now;
    Path f = csv("time[ms],a\n0,1\n10,2\n30,3\n");
    try (CsvSignalSource src = CsvSignalSource.builder(f).pacing(Pacing.accelerated(2)).clock(clock).open()) {
      assertEquals(3, readAll(src).size());
      assertEquals(start + 15 * MS, clock.now);
      assertNull(src.next());
    }
  }

  /**
   * A pause longer than a minute in the timestamps is not waited for at real speed (a recording
   * across a night's stop, or a damaged timestamp): the samples keep their timestamps, and a damaged
   * one that is followed by an earlier one fails at once instead of after centuries.
   */
  @Test
  void aLongPauseIsNotWaitedForAndADamagedTimestampFailsAtOnce() throws Exception {
    FakeClock clock = new FakeClock();
    long start = clock.now;
    Path f = csv("time[s],a\n0,1\n0.01,2\n36000,3\n36000.01,4\n");
    try (CsvSignalSource src = CsvSignalSource.builder(f).sampleRateHz(100).pacing(Pacing.REAL_TIME).clock(clock)
        .open()) {
      List<Sample> all = readAll(src);
      assertEquals(36_000L * 1_000_000_000L, all.get(2).timestampNanos(), "the pause stays in the timestamps");
      assertEquals(start + 20 * MS, clock.now, "two 10 ms steps waited for, not ten hours");
    }
    Path damaged = csv("time[s],a\n0,1\n0.01,2\n9000000000,3\n0.03,4\n");
    FakeClock c2 = new FakeClock();
    long start2 = c2.now;
    IOException e = assertThrows(SignalFormatException.class, () -> {
      try (CsvSignalSource src = CsvSignalSource.builder(damaged).sampleRateHz(100).pacing(Pacing.REAL_TIME).clock(c2)
          .open()) {
        readAll(src);
      }
    });
    assertTrue(e.getMessage().contains("timestamp goes back"), e.getMessage());
    assertTrue(c2.now - start2 < 1_000 * MS, "failed without waiting: " + (c2.now - start2) + " ns");
  }

  /** A .csv.gz file is read decompressed, as a stream; a file that is not gzip, or cut short, is named. */
  @Test
  void aGzippedCsvIsReadAndDamagedGzipIsNamed() throws Exception {
    String text = "time[ms],a\n0,1\n10,2\n20,3\n30,4\n";
    Path plain = csv(text);
    Path gz = dir.resolve("session.csv.gz");
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    try (java.util.zip.GZIPOutputStream out = new java.util.zip.GZIPOutputStream(bytes)) {
      out.write(text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
    Files.write(gz, bytes.toByteArray());
    List<Sample> expected;
    try (CsvSignalSource src = CsvSignalSource.open(plain)) {
      expected = readAll(src);
    }
    try (CsvSignalSource src = CsvSignalSource.open(gz)) {
      List<Sample> got = readAll(src);
      assertEquals(expected.size(), got.size());
      for (int i = 0; i < got.size(); i++) {
        assertEquals(expected.get(i).timestampNanos(), got.get(i).timestampNanos());
        assertArrayEquals(expected.get(i).values(), got.get(i).values());
      }
    }
    Path notGz = Files.writeString(dir.resolve("plain.csv.gz"), text);
    IOException e = assertThrows(SignalFormatException.class, () -> CsvSignalSource.open(notGz).close());
    assertTrue(e.getMessage().startsWith(notGz + ": not a gzip file"), e.getMessage());
    Path cut = Files.write(dir.resolve("cut.csv.gz"), java.util.Arrays.copyOf(bytes.toByteArray(),
        bytes.size() - 12));
    e = assertThrows(SignalFormatException.class, () -> {
      try (CsvSignalSource src = CsvSignalSource.builder(cut).sampleRateHz(100).open()) {
        readAll(src);
      }
    });
    assertTrue(e.getMessage().startsWith(cut + ": damaged gzip data"), e.getMessage());
  }

  private String message(Path f) {
    return message(f, ',');
  }

  private String message(Path f, char delimiter) {
    IOException e = assertThrows(SignalFormatException.class, () -> {
      try (CsvSignalSource src = CsvSignalSource.builder(f).delimiter(delimiter).open()) {
        readAll(src);
      }
    });
    assertTrue(e.getMessage().startsWith(f + ": "), e.getMessage());
    return e.getMessage().substring(f.toString().length() + 2);
  }

  @Test
  void fieldSplittingHandlesQuotesAndBounds() {
    assertEquals(List.of("a", "b c", "", "d\"e"), CsvFields.split(" a , \"b c\",,\"d\"\"e\" ", ',', 10));
    assertEquals(List.of("", ""), CsvFields.split(",", ',', 10));
    assertEquals(3, CsvFields.split("1,2,3,4,5,6", ',', 2).size());
    assertEquals(List.of("x"), CsvFields.split("x", ';', 1));
    assertEquals(new String(new byte[] {'o', 'k'}, StandardCharsets.US_ASCII), CsvFields.split("ok", ',', 1).get(0));
  }
}
