package io.hdfl.sensors.window;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hdfl.sensors.signal.Channel;
import io.hdfl.sensors.signal.ListSignalSource;
import io.hdfl.sensors.signal.Sample;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Windowing: flattening order, stride, labels, timing gaps, non-finite values, pull and push. */
class WindowingTest {

  private static final List<Channel> TWO = ListSignalSource.channels(2);
  private static final long MS = 1_000_000L;

  /** Sample {@code i} at i ms (1 kHz) with values {i, 10·i}. */
  private static Sample s(long i, int label) {
    return at(i * MS, i, label);
  }

  private static Sample at(long t, float v, int label) {
    return new Sample(t, new float[] {v, 10 * v}, label);
  }

  private static Windowing.Builder windowing() {
    return Windowing.builder(TWO, 1000);
  }

  private static List<Window> feed(Windowing w, List<Sample> samples) {
    List<Window> out = new ArrayList<>();
    for (Sample x : samples) {
      out.addAll(w.offer(x));
    }
    return out;
  }

  private static List<Sample> run(long from, long to, int label) {
    List<Sample> out = new ArrayList<>();
    for (long i = from; i < to; i++) {
      out.add(s(i, label));
    }
    return out;
  }

  /**
   * A channel that is missing from every message (NaN) stops every window without an error: a warning
   * names it after 1000 such samples in a row, and again at 10 000, 100 000, …; a finite sample starts
   * the count again.
   */
  @Test
  void aLongRunOfNonFiniteSamplesIsWarnedAboutNamingTheChannel() {
    java.util.logging.Logger jul = java.util.logging.Logger.getLogger("io.hdfl.sensors.window");
    List<String> warnings = new java.util.concurrent.CopyOnWriteArrayList<>();
    java.util.logging.Handler h = new java.util.logging.Handler() {
      @Override
      public void publish(java.util.logging.LogRecord r) {
        if (r.getLevel() == java.util.logging.Level.WARNING) {
          warnings.add(r.getMessage());
        }
      }

      @Override
      public void flush() {}

      @Override
      public void close() {}
    };
    jul.addHandler(h);
    try {
      Windowing w = windowing().size(2).stride(2).build();
      long t = 0;
      for (int i = 0; i < 999; i++) {
        w.offer(new Sample(++t * MS, new float[] {1, Float.NaN}, 0));
      }
      assertEquals(List.of(), warnings);
      w.offer(s(++t, 0)); // a finite one: the count starts again
      for (int i = 0; i < 10_000; i++) {
        w.offer(new Sample(++t * MS, new float[] {1, Float.NaN}, 0));
      }
      assertEquals(2, warnings.size(), warnings.toString());
      assertTrue(warnings.get(0).startsWith("windowing: the last 1000 samples all held a missing or non-finite value"
          + " (the latest on channel(s) c1)"), warnings.get(0));
      assertTrue(warnings.get(1).startsWith("windowing: the last 10000 samples"), warnings.get(1));
      assertEquals(10_999, w.stats().nonFiniteSamples());
    } finally {
      jul.removeHandler(h);
    }
  }

  @Test
  void featuresAreSampleMajor() {
    Windowing w = windowing().size(3).stride(3).build();
    assertEquals(6, w.featureCount());
    List<Window> out = feed(w, run(0, 3, 1));
    assertEquals(1, out.size());
    Window win = out.get(0);
    assertArrayEquals(new float[] {0, 0, 1, 10, 2, 20}, win.features());
    assertEquals(20f, win.value(2, 1));
    assertEquals(1, win.label());
    assertEquals(0, win.startNanos());
    assertEquals(2 * MS, win.endNanos());
    assertEquals(0, win.filledSamples());
    assertThrows(IndexOutOfBoundsException.class, () -> win.value(3, 0));
  }

  @Test
  void strideSmallerThanSizeOverlapsLargerSkips() {
    List<Window> overlap = feed(windowing().size(4).stride(2).build(), run(0, 10, 0));
    assertEquals(List.of(0L, 2L, 4L, 6L), overlap.stream().map(x -> x.startNanos() / MS).toList());
    List<Window> skip = feed(windowing().size(2).stride(5).build(), run(0, 12, 0));
    assertEquals(List.of(0L, 5L, 10L), skip.stream().map(x -> x.startNanos() / MS).toList());
    assertArrayEquals(new float[] {5, 50, 6, 60}, skip.get(1).features());
  }

  @Test
  void windowsWithMixedLabelsAreDroppedAndCounted() {
    Windowing w = windowing().size(4).stride(2).build();
    List<Sample> in = new ArrayList<>(run(0, 6, 0));
    in.addAll(run(6, 12, 1));
    in.addAll(run(12, 16, Sample.NO_LABEL));
    List<Window> out = feed(w, in);
    // starts 0,2 (class 0), 4 (0/1: dropped), 6,8 (class 1), 10 (1/none: dropped), 12 (unlabelled)
    assertEquals(List.of(0L, 2L, 6L, 8L, 12L), out.stream().map(x -> x.startNanos() / MS).toList());
    assertEquals(List.of(0, 0, 1, 1, Sample.NO_LABEL), out.stream().map(Window::label).toList());
    assertFalse(out.get(4).hasLabel());
    WindowingStats st = w.stats();
    assertEquals(16, st.samples());
    assertEquals(5, st.windows());
    assertEquals(2, st.mixedLabelWindows());
  }

  @Test
  void dropWindowRestartsAfterAGapSoNoWindowSpansIt() {
    Windowing w = windowing().size(3).stride(3).build();
    List<Sample> in = new ArrayList<>(run(0, 5, 0));
    in.addAll(run(7, 13, 0));   // samples 5 and 6 missing
    List<Window> out = feed(w, in);
    assertEquals(List.of(0L, 7L, 10L), out.stream().map(x -> x.startNanos() / MS).toList());
    for (Window x : out) {
      assertEquals(2 * MS, x.endNanos() - x.startNanos());
    }
    WindowingStats st = w.stats();
    assertEquals(1, st.gaps());
    assertEquals(1, st.discontinuities());
    assertEquals(0, st.filledSamples());
  }

  @Test
  void fillPreviousCopiesTheLastSampleOnTheNominalGrid() {
    Windowing w = windowing().size(4).stride(4).gapPolicy(GapPolicy.FILL_PREVIOUS).build();
    List<Sample> in = new ArrayList<>(run(0, 3, 2));
    in.addAll(run(5, 8, 2));    // samples 3 and 4 missing: 0 1 2 [3] | [4] 5 6 7
    List<Window> out = feed(w, in);
    assertEquals(2, out.size());
    assertArrayEquals(new float[] {0, 0, 1, 10, 2, 20, 2, 20}, out.get(0).features());
    assertEquals(3 * MS, out.get(0).endNanos(), "filled samples sit on the nominal grid");
    assertArrayEquals(new float[] {2, 20, 5, 50, 6, 60, 7, 70}, out.get(1).features());
    assertEquals(4 * MS, out.get(1).startNanos());
    assertEquals(1, out.get(0).filledSamples());
    assertEquals(1, out.get(1).filledSamples());
    assertEquals(2, out.get(1).label());
    WindowingStats st = w.stats();
    assertEquals(2, st.filledSamples());
    assertEquals(1, st.gaps());
    assertEquals(0, st.discontinuities());

    Windowing w2 = windowing().size(4).stride(4).gapPolicy(GapPolicy.FILL_PREVIOUS).build();
    List<Window> two = feed(w2, run(0, 5, 1));
    assertEquals(1, two.size());
    List<Window> more = w2.offer(s(7, 1));   // 4 [5] [6] 7: one offer completes a window holding two fills
    assertEquals(1, more.size());
    assertArrayEquals(new float[] {4, 40, 4, 40, 4, 40, 7, 70}, more.get(0).features());
    assertEquals(2, more.get(0).filledSamples());
    assertEquals(1, more.get(0).label());
  }

  @Test
  void fillPreviousGivesUpBeyondMaxFill() {
    Windowing w = windowing().size(2).stride(2).gapPolicy(GapPolicy.FILL_PREVIOUS).maxFill(2).build();
    List<Window> out = feed(w, List.of(s(0, 0), s(1, 0), s(2, 0), s(6, 0), s(7, 0)));
    assertEquals(List.of(0L, 6L), out.stream().map(x -> x.startNanos() / MS).toList());
    assertEquals(1, w.stats().discontinuities());
    assertEquals(0, w.stats().filledSamples());
  }

  @Test
  void failPolicyNamesTheTimestamps() {
    Windowing w = windowing().size(2).gapPolicy(GapPolicy.FAIL).build();
    w.offer(s(0, 0));
    WindowingException e = assertThrows(WindowingException.class, () -> w.offer(s(4, 0)));
    assertEquals("gap of 3 missing sample(s) between 0 ns and 4000000 ns (4000000 ns; nominal period 1000000 ns"
        + " ± 500000)", e.getMessage());
    Windowing w2 = windowing().size(2).gapPolicy(GapPolicy.FAIL).build();
    w2.offer(s(5, 0));
    e = assertThrows(WindowingException.class, () -> w2.offer(s(5, 0)));
    assertTrue(e.getMessage().startsWith("irregular interval between 5000000 ns and 5000000 ns"), e.getMessage());
  }

  @Test
  void jitterWithinTheToleranceIsOnTimeBeyondItIrregular() {
    Windowing loose = windowing().size(3).stride(3).build();
    List<Window> out = feed(loose, List.of(at(0, 0, 0), at(1_400_000, 1, 0), at(2_050_000, 2, 0)));
    assertEquals(1, out.size());
    Windowing tight = windowing().size(3).stride(3).timingTolerance(0.2).build();
    out = feed(tight, List.of(at(0, 0, 0), at(1_400_000, 1, 0), at(2_400_000, 2, 0), at(3_400_000, 3, 0)));
    assertEquals(1, out.size(), "0.4 ms late is beyond 0.2 ms: windowing restarts at the late sample");
    assertEquals(1_400_000, out.get(0).startNanos());
    assertEquals(1, tight.stats().irregularIntervals());
    assertEquals(1, tight.stats().discontinuities());
    Windowing backwards = windowing().size(2).stride(2).build();
    feed(backwards, List.of(s(5, 0), s(3, 0), s(4, 0)));
    assertEquals(1, backwards.stats().irregularIntervals());
    assertEquals(1, backwards.stats().windows(), "3, 4 after the restart");
    assertThrows(IllegalArgumentException.class, () -> windowing().timingTolerance(0.6));
  }

  @Test
  void nonFiniteSamplesNeverReachAWindow() {
    Windowing w = windowing().size(2).stride(1).build();
    List<Window> out = feed(w, List.of(s(0, 0), s(1, 0), at(2 * MS, Float.NaN, 0), s(3, 0), s(4, 0),
        at(5 * MS, Float.POSITIVE_INFINITY, 0), s(6, 0)));
    assertEquals(List.of(0L, 3L), out.stream().map(x -> x.startNanos() / MS).toList());
    assertEquals(2, w.stats().nonFiniteSamples());
    Windowing strict = windowing().nonFinitePolicy(NonFinitePolicy.FAIL).build();
    WindowingException e = assertThrows(WindowingException.class,
        () -> strict.offer(new Sample(7, new float[] {1, Float.NaN})));
    assertEquals("channel c1 is NaN at 7 ns", e.getMessage());
  }

  @Test
  void normalizedOverflowIsDroppedOrRejectedNeverEmitted() {
    // Channel 0 nearly constant (sd 2e-12, just above the 1e-12 floor): scale 5e11, so 1e30 overflows float.
    ChannelStatistics tight = new ChannelStatistics(TWO, 2, new double[] {0, 0}, new double[] {8e-24, 2});
    Windowing w = windowing().size(1).stride(1).normalization(Normalization.fixed(tight)).build();
    assertEquals(List.of(), w.offer(at(0, 1e30f, 0)));
    assertEquals(1, w.stats().nonFiniteWindows());
    assertEquals(1, w.offer(at(MS, 0, 0)).size());
    Windowing strict = windowing().size(1).nonFinitePolicy(NonFinitePolicy.FAIL)
        .normalization(Normalization.fixed(tight)).build();
    WindowingException e = assertThrows(WindowingException.class, () -> strict.offer(at(0, 1e30f, 0)));
    assertTrue(e.getMessage().startsWith("channel c0 at 0 ns overflows float after normalization"), e.getMessage());
  }

  @Test
  void pullsWindowsFromASourceUntilItEnds() throws Exception {
    List<Sample> in = run(0, 25, 3);
    try (ListSignalSource src = new ListSignalSource(TWO, 1000, in)) {
      Windowing w = Windowing.builder(src).size(5).stride(5).gapPolicy(GapPolicy.FILL_PREVIOUS).build();
      List<Window> out = new ArrayList<>();
      Window x;
      while ((x = w.next(src)) != null) {
        out.add(x);
      }
      assertEquals(5, out.size());
      assertNull(w.next(src));
      assertEquals(new WindowingStats(25, 5, 0, 0, 0, 0, 0, 0, 0, 0), w.stats());
    }
  }

  @Test
  void resetForgetsBufferedSamples() {
    Windowing w = windowing().size(3).stride(3).build();
    feed(w, run(0, 2, 0));
    w.reset();
    assertEquals(0, feed(w, run(100, 102, 0)).size());
    assertEquals(1, feed(w, run(102, 103, 0)).size());
  }

  @Test
  void normalizationIsAppliedWhenAWindowCompletes() {
    Normalization n = Normalization.running(TWO);
    Windowing w = windowing().size(2).stride(2).normalization(n).build();
    List<Window> out = feed(w, run(0, 2, 0));
    // After samples 0 and 1: means 0.5 and 5, population sd 0.5 and 5.
    assertArrayEquals(new float[] {-1, -1, 1, 1}, out.get(0).features());
    assertEquals(2, n.statistics().count());
  }

  @Test
  void warmupWindowsAreNotEmittedAndFrozenStatisticsStayPut() {
    Normalization n = Normalization.frozenAfter(TWO, 4);
    Windowing w = windowing().size(2).stride(2).normalization(n).build();
    List<Window> out = feed(w, run(0, 8, 0));
    // Windows end at samples 1, 3, 5, 7; the warm-up ends with sample 3, so only the first is held back.
    assertEquals(3, out.size());
    assertEquals(1, w.stats().warmupWindows());
    assertTrue(n.isFrozen());
    assertEquals(4, n.statistics().count());
    assertEquals(1.5, n.mean(0), 1e-12);
    // sample 6: (6 − 1.5) / sd(0,1,2,3) = 4.5 / 1.118...
    assertEquals((float) (4.5 / Math.sqrt(1.25)), out.get(2).value(0, 0), 1e-6);
    assertEquals((float) (45 / Math.sqrt(125)), out.get(2).value(0, 1), 1e-6);
  }

  @Test
  void settingsAndShapesAreChecked() {
    assertThrows(IllegalArgumentException.class, () -> windowing().size(0));
    assertThrows(IllegalArgumentException.class, () -> windowing().stride(0));
    assertThrows(IllegalArgumentException.class, () -> windowing().maxFill(-1));
    assertThrows(IllegalArgumentException.class, () -> Windowing.builder(TWO, 0));
    Windowing w = windowing().build();
    assertEquals("sample has 3 values, windowing expects 2 channels",
        assertThrows(IllegalArgumentException.class, () -> w.offer(new Sample(0, new float[3]))).getMessage());
    IllegalArgumentException mismatch = assertThrows(IllegalArgumentException.class,
        () -> windowing().normalization(Normalization.running(ListSignalSource.channels(3))).build());
    assertEquals("normalization is for channels [c0, c1, c2] but the signal has [c0, c1]", mismatch.getMessage());
    assertEquals(10, w.size());
    assertEquals(10, w.stride());
    assertEquals(20, w.featureCount());
  }
}
