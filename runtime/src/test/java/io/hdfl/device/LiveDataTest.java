package io.hdfl.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hdfl.hd.EncodedSet;
import io.hdfl.hd.Encoder;
import io.hdfl.hd.EncoderKind;
import io.hdfl.hd.EncoderSpec;
import io.hdfl.kernels.VectorKernelsProvider;
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

  private Encoder encoder(int features) {
    return new Encoder(new EncoderSpec(EncoderKind.COS, features, 256, 3), VectorKernelsProvider.get(), 1);
  }
}
