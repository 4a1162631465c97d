package io.hdfl.federation;

import io.hdfl.hd.EncodedSet;
import io.hdfl.hd.Encoder;
import io.hdfl.sensors.signal.SignalSource;
import io.hdfl.sensors.window.Window;
import io.hdfl.sensors.window.Windowing;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * A client's live data: samples from a {@link SignalSource}, cut into windows by {@link Windowing}
 * (normalized, flattened), encoded, and handed out L per round, balanced across classes where the
 * data allow (continuous learning: every window is used once, as it arrives).
 *
 * <p>Balancing: a round collects windows per class until each class has its share ⌈L/S⌉ or until
 * {@value #PATIENCE}·L windows have arrived in this round (a rare class does not stall learning),
 * then takes classes round-robin. Windows without a label cannot be learned from and are counted.
 * Each class keeps at most 4·⌈L/S⌉ waiting windows; older ones are dropped (counted) so memory stays
 * bounded and the data stays fresh. A round waits for at least one labelled window as long as the
 * source has not ended (warning, at growing intervals, while only unlabelled ones arrive).
 */
public final class LiveStream implements LocalStream, AutoCloseable {
  static final int PATIENCE = 20;

  private final SignalSource source;
  private final Windowing windowing;
  private final Encoder encoder;
  private final int classes;
  private final List<ArrayDeque<float[]>> waiting = new ArrayList<>();
  private static final System.Logger LOG = System.getLogger("io.hdfl.federation");

  private long unlabelled;
  /** Windows whose label is outside 0..classes−1 (counted among the unlabelled too). */
  private long outOfRange;
  private long dropped;
  private boolean ended;

  /** @param classes the federation's class count; windows labelled outside 0..classes-1 are unlabelled */
  public LiveStream(SignalSource source, Windowing windowing, Encoder encoder, int classes) {
    if (windowing.featureCount() != encoder.spec().features()) {
      throw new IllegalArgumentException("windows have " + windowing.featureCount() + " features but the encoder takes "
          + encoder.spec().features());
    }
    this.source = source;
    this.windowing = windowing;
    this.encoder = encoder;
    this.classes = classes;
    for (int c = 0; c < classes; c++) {
      waiting.add(new ArrayDeque<>());
    }
  }

  @Override
  public synchronized EncodedSet next(long count) throws InterruptedException {
    if (count < 1 || count > Integer.MAX_VALUE / Math.max(1, encoder.spec().features())) {
      throw new IllegalArgumentException("samples per round must be >= 1 and fit in memory, got " + count);
    }
    int share = (int) ((count + classes - 1) / classes);
    long arrived = 0;
    // until balanced or out of patience, and in any case until one labelled window waits: a live source
    // without labels for a while (none configured yet, a label switch left off, labels out of range) is
    // waited on, not taken for one that ended (until the twenty-first session it was, and a ring peer's
    // collector stopped for the rest of the run)
    while (!ended && (!balanced(share) && arrived < PATIENCE * count || nothingWaiting())) {
      Window w;
      try {
        w = windowing.next(source);
      } catch (IOException e) {
        throw new UncheckedIOException("signal source failed: " + e.getMessage(), e);
      }
      if (w == null) {
        ended = true;
        break;
      }
      arrived++;
      if (!w.hasLabel() || w.label() < 0 || w.label() >= classes) {
        unlabelled++;
        if (w.hasLabel()) {
          outOfRange++;
        }
        long patience = PATIENCE * count;
        if (arrived % patience == 0 && Long.bitCount(arrived / patience) == 1 && nothingWaiting()) {
          LOG.log(System.Logger.Level.WARNING, "live data: " + arrived + " windows in a row had no label to learn from ("
              + outOfRange + " so far labelled outside 0.." + (classes - 1) + ", the federation's classes); waiting for"
              + " labelled ones");
        }
        continue;
      }
      ArrayDeque<float[]> q = waiting.get(w.label());
      q.addLast(w.features());
      if (q.size() > 4 * share) {
        q.removeFirst();
        dropped++;
      }
    }
    List<float[]> picked = new ArrayList<>();
    List<Integer> labels = new ArrayList<>();
    for (boolean any = true; any && picked.size() < count; ) {
      any = false;
      for (int c = 0; c < classes && picked.size() < count; c++) {
        float[] f = waiting.get(c).pollFirst();
        if (f != null) {
          picked.add(f);
          labels.add(c);
          any = true;
        }
      }
    }
    if (picked.isEmpty()) {
      throw new UncheckedIOException(new IOException("the signal source ended with no labelled window left"));
    }
    int d = encoder.spec().features();
    float[] x = new float[picked.size() * d];
    int[] y = new int[picked.size()];
    for (int i = 0; i < picked.size(); i++) {
      System.arraycopy(picked.get(i), 0, x, i * d, d);
      y[i] = labels.get(i);
    }
    return EncodedSet.encode(encoder, x, y.length, y, classes, 1);
  }

  private boolean nothingWaiting() {
    for (ArrayDeque<float[]> q : waiting) {
      if (!q.isEmpty()) {
        return false;
      }
    }
    return true;
  }

  private boolean balanced(int share) {
    for (ArrayDeque<float[]> q : waiting) {
      if (q.size() < share) {
        return false;
      }
    }
    return true;
  }

  /** Whether the source has ended (a replayed recording read to its end). */
  @Override
  public synchronized boolean ended() {
    return ended;
  }

  /** Windows that arrived without a usable label. */
  public synchronized long unlabelledWindows() {
    return unlabelled;
  }

  /** Waiting windows dropped because their class had enough waiting already. */
  public synchronized long droppedWindows() {
    return dropped;
  }

  @Override
  public void close() throws IOException {
    source.close();
  }
}
