package io.hdfl.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hdfl.hd.EncodedSet;
import io.hdfl.hd.Encoder;
import io.hdfl.hd.EncoderKind;
import io.hdfl.hd.EncoderSpec;
import io.hdfl.kernels.VectorKernelsProvider;
import io.hdfl.sensors.signal.RepeatableSource;
import io.hdfl.sensors.window.Normalization;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LiveDataTest {
  @TempDir Path dir;

  /**
   * The statistics are on disk as soon as the first windows are out (a device killed then restarts
   * with them); they used to be saved only by close, which kill -9 or a power cut never reaches.
   */
  @Test
  void theNormalizationIsSavedOnceFrozenNotOnlyOnClose() throws Exception {
    SignalConfig cfg = new SignalConfig(SignalConfig.SYNTHETIC, 1, 10, 10, 200, new Properties());
    List<String> log = new ArrayList<>();
    Path file = dir.resolve(LiveData.NORMALIZATION_FILE);
    LiveData live = LiveData.open(cfg, 7, 3, dir, "tcp://unused:1883", "c", this::encoder, log::add);
    try {
      assertFalse(Files.exists(file), "nothing learned yet");
      EncodedSet first = live.stream().next(5);
      assertEquals(5, first.size());
      assertTrue(Files.exists(file), "saved with the first windows, before any close");
      Normalization saved = Normalization.load(file);
      assertTrue(saved.isFrozen());
    } finally {
      live.close();
    }
    LiveData again = LiveData.open(cfg, 7, 3, dir, "tcp://unused:1883", "c", this::encoder, log::add);
    again.close();
    assertTrue(log.stream().anyMatch(l -> l.startsWith("normalization: statistics restored from")), log.toString());
  }

  /**
   * A device restarted on a replayed source skips what its previous run read up to its last commit:
   * no window of the restart is one the first run produced. Left at the beginning (a mark of another
   * source, as before the twentieth session), the restart produces the first run's windows again.
   */
  @Test
  void aRestartOnAReplayedSourceLearnsNoWindowTheFirstRunRead() throws Exception {
    SignalConfig cfg = new SignalConfig(SignalConfig.SYNTHETIC, 1, 10, 10, 200, new Properties());
    List<String> log = new ArrayList<>();
    EncodedSet first;
    StateCheckpoints.SourceMark mark;
    try (LiveData live = LiveData.open(cfg, 7, 3, dir, "tcp://unused:1883", "c", this::encoder, log::add)) {
      RepeatableSource source = live.repeatable().orElseThrow();
      first = live.stream().next(30);
      mark = new StateCheckpoints.SourceMark(live.identity(), source.position());
    }
    assertTrue(mark.position() >= 30 * 10, mark + ": at least the 30 windows' samples");
    try (LiveData live = LiveData.open(cfg, 7, 3, dir, "tcp://unused:1883", "c", this::encoder, log::add)) {
      live.resumeAfter(mark, log::add);
      assertEquals(mark.position(), live.repeatable().orElseThrow().position());
      assertEquals(0, shared(first, live.stream().next(30)), "no window learned again");
    }
    assertTrue(log.contains("live data: skipped the " + mark.position() + " samples of " + mark.source()
        + " read before the restart"), log.toString());
    try (LiveData live = LiveData.open(cfg, 7, 3, dir, "tcp://unused:1883", "c", this::encoder, log::add)) {
      live.resumeAfter(new StateCheckpoints.SourceMark("recording elsewhere.hdsg", mark.position()), log::add);
      assertEquals(0, live.repeatable().orElseThrow().position());
      int again = shared(first, live.stream().next(30));
      assertTrue(again > 0, "from its beginning it learns windows of the first run again: " + again);
    }
    assertTrue(log.stream().anyMatch(l -> l.startsWith("live data: the previous run read recording elsewhere.hdsg, not ")
        && l.endsWith(": it is read from its beginning")), log.toString());
    try (LiveData live = LiveData.open(cfg, 7, 3, dir, "tcp://unused:1883", "c", this::encoder, log::add)) {
      live.resumeAfter(new StateCheckpoints.SourceMark(null, -1), log::add);
      assertEquals(0, live.repeatable().orElseThrow().position());
    }
    assertTrue(log.stream().anyMatch(l -> l.contains("it was written before the twentieth session")), log.toString());
  }

  /** Rows of {@code b} equal to a row of {@code a} with the same label. */
  private static int shared(EncodedSet a, EncodedSet b) {
    int n = 0;
    for (int i = 0; i < b.size(); i++) {
      for (int j = 0; j < a.size(); j++) {
        if (a.label(j) == b.label(i) && java.util.Arrays.equals(a.row(j), b.row(i))) {
          n++;
          break;
        }
      }
    }
    return n;
  }

  private Encoder encoder(int features) {
    return new Encoder(new EncoderSpec(EncoderKind.COS, features, 256, 3), VectorKernelsProvider.get(), 1);
  }
}
