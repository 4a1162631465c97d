package io.hdfl.federation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hdfl.hd.EncodedSet;
import io.hdfl.hd.Encoder;
import io.hdfl.hd.EncoderKind;
import io.hdfl.hd.EncoderSpec;
import io.hdfl.kernels.VectorKernelsProvider;
import io.hdfl.sensors.signal.Channel;
import io.hdfl.sensors.signal.Sample;
import io.hdfl.sensors.signal.SignalSource;
import io.hdfl.sensors.window.Windowing;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;
import org.junit.jupiter.api.Test;

class LiveStreamTest {
  /** A 2-channel source at 100 Hz whose label sequence the test scripts, one label per sample. */
  static final class Scripted implements SignalSource {
    private final ArrayDeque<Integer> labels;
    private long t = 1_000_000_000L;

    Scripted(List<Integer> labels) {
      this.labels = new ArrayDeque<>(labels);
    }

    @Override
    public List<Channel> channels() {
      return List.of(new Channel("a", "V"), new Channel("b", "V"));
    }

    @Override
    public double sampleRateHz() {
      return 100;
    }

    @Override
    public Sample next() {
      Integer label = labels.poll();
      if (label == null) {
        return null;
      }
      t += 10_000_000L;
      float v = label < 0 ? 0f : label;
      return label < 0 ? new Sample(t, new float[] {v, -v}) : new Sample(t, new float[] {v, -v}, label);
    }

    @Override
    public Sample next(Duration timeout) {
      return next();
    }

    @Override
    public void close() {}
  }

  private static LiveStream stream(List<Integer> perSampleLabels) {
    Scripted src = new Scripted(perSampleLabels);
    Windowing w = Windowing.builder(src).size(2).stride(2).build();
    Encoder enc = new Encoder(new EncoderSpec(EncoderKind.COS, 4, 64, 1L), VectorKernelsProvider.get(), 1);
    return new LiveStream(src, w, enc, 3);
  }

  /** Labels for {@code windows} windows of 2 samples each. */
  private static List<Integer> windows(int... windowLabels) {
    java.util.List<Integer> out = new java.util.ArrayList<>();
    for (int l : windowLabels) {
      out.add(l);
      out.add(l);
    }
    return out;
  }

  @Test
  void roundsAreBalancedAcrossClassesAndUseEachWindowOnce() throws Exception {
    // class 0 is common, 1 and 2 rarer: a balanced round of 6 waits for two windows of each
    LiveStream s = stream(windows(0, 0, 0, 0, 1, 0, 2, 0, 1, 2, 0, 0, 1, 2));
    EncodedSet first = s.next(6);
    assertEquals(6, first.size());
    int[] per = new int[3];
    for (int i = 0; i < first.size(); i++) {
      per[first.label(i)]++;
    }
    assertEquals(List.of(2, 2, 2), List.of(per[0], per[1], per[2]));
    // left waiting: four 0s; the source then gives 0, 0, 1, 2 and ends, so the round takes what there is
    EncodedSet second = s.next(6);
    int zeros = 0;
    for (int i = 0; i < second.size(); i++) {
      zeros += second.label(i) == 0 ? 1 : 0;
    }
    assertEquals(6, second.size());
    assertEquals(4, zeros);
    assertEquals(2, s.next(6).size(), "the last two windows");
    assertThrows(UncheckedIOException.class, () -> {
      while (true) {
        s.next(6);
      }
    }, "an ended source with nothing left is an error, not an empty round");
  }

  @Test
  void unlabelledWindowsAreCountedNotLearned() throws Exception {
    LiveStream s = stream(windows(-1, -1, 0, 1, 2, -1));
    EncodedSet r = s.next(3);
    assertEquals(3, r.size());
    assertEquals(2, s.unlabelledWindows());
  }

  @Test
  void aRareClassDoesNotStallARound() throws Exception {
    java.util.List<Integer> labels = new java.util.ArrayList<>();
    for (int i = 0; i < LiveStream.PATIENCE * 6 + 10; i++) {
      labels.add(i % 2);
      labels.add(i % 2); // classes 0 and 1 only, never 2
    }
    LiveStream s = stream(labels);
    EncodedSet r = s.next(6);
    assertEquals(6, r.size());
    assertTrue(s.droppedWindows() > 0, "waiting windows beyond 4 x share were dropped");
  }

  /**
   * A live source that gives only unlabelled windows (or labels outside the classes) for longer than a
   * round's patience has not ended: the round waits for a labelled window. It used to throw "ended with
   * no labelled window left", which stopped a ring peer's collector for the rest of the run.
   */
  @Test
  void aLongRunOfUnusableLabelsIsWaitedOnNotTakenForTheEnd() throws Exception {
    int[] labels = new int[LiveStream.PATIENCE * 3 * 2 + 4];
    for (int i = 0; i < labels.length - 4; i++) {
      labels[i] = i % 2 == 0 ? -1 : 7; // no label, or one outside the 3 classes
    }
    labels[labels.length - 4] = 1;
    labels[labels.length - 3] = 2;
    labels[labels.length - 2] = 0;
    labels[labels.length - 1] = 1;
    LiveStream s = stream(windows(labels));
    assertEquals(1, s.next(3).size(), "patience spent: the round takes the first labelled window");
    assertEquals(LiveStream.PATIENCE * 3 * 2, s.unlabelledWindows());
    assertEquals(3, s.next(3).size(), "the next round, balanced");
    java.io.UncheckedIOException end = org.junit.jupiter.api.Assertions.assertThrows(java.io.UncheckedIOException.class,
        () -> s.next(3));
    assertEquals("java.io.IOException: the signal source ended with no labelled window left", end.getMessage());
  }
}
