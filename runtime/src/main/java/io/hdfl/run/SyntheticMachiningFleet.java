package io.hdfl.run;

import io.hdfl.federation.LiveStream;
import io.hdfl.hd.EncodedSet;
import io.hdfl.hd.Encoder;
import io.hdfl.sensors.signal.SyntheticMachiningSource;
import io.hdfl.sensors.window.Normalization;
import io.hdfl.sensors.window.Window;
import io.hdfl.sensors.window.Windowing;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The data of {@code simulate --source synthetic-machining}, shaped like FedHDPrivacy's CNC case
 * study: one synthetic machine per peer (machine index = peer index, so peers are non-IID), 90
 * signals at 500 Hz cut into windows of 10 samples (900 features), 3 quality classes. Each
 * machine's windows are z-scored with statistics frozen after a warm-up of {@value #WARMUP_SAMPLES}
 * samples. The first {@value #TEST_WINDOWS} labelled windows of every machine form the common test
 * set; after them, star clients learn from their machine's live window stream, and ring peers from
 * a shard of its next windows.
 */
final class SyntheticMachiningFleet {
  static final int WINDOW = 10;
  static final int FEATURES = 90 * WINDOW;
  static final int CLASSES = SyntheticMachiningSource.CLASSES;
  static final int TEST_WINDOWS = 60;
  static final long WARMUP_SAMPLES = 2000;

  record Fleet(EncodedSet test, List<LiveStream> streams) {}

  private SyntheticMachiningFleet() {}

  static Fleet build(long seed, int peers, Encoder encoder) throws IOException, InterruptedException {
    List<LiveStream> streams = new ArrayList<>();
    float[] testX = new float[peers * TEST_WINDOWS * FEATURES];
    int[] testY = new int[peers * TEST_WINDOWS];
    int n = 0;
    for (int k = 0; k < peers; k++) {
      SyntheticMachiningSource source = SyntheticMachiningSource.builder().seed(seed).machine(k).build();
      Windowing windowing = Windowing.builder(source).size(WINDOW).stride(WINDOW)
          .normalization(Normalization.frozenAfter(source.channels(), WARMUP_SAMPLES)).build();
      for (int taken = 0; taken < TEST_WINDOWS; ) {
        Window w = windowing.next(source);
        if (w == null) {
          throw new IOException("the synthetic source of machine " + k + " ended early");
        }
        if (w.hasLabel()) {
          w.copyFeatures(testX, n * FEATURES);
          testY[n++] = w.label();
          taken++;
        }
      }
      streams.add(new LiveStream(source, windowing, encoder, CLASSES));
    }
    return new Fleet(EncodedSet.encode(encoder, testX, n, testY, CLASSES, Runtime.getRuntime().availableProcessors()),
        streams);
  }
}
