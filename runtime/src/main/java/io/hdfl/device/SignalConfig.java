package io.hdfl.device;

import java.util.Properties;

/**
 * Where a device's live data comes from, when not from a file ({@code data.source}): the synthetic
 * machine, the Pi4J inputs described by the {@code signal.*} keys, or MQTT ingest (JSON or Sparkplug B)
 * described by the {@code ingest.*} keys ({@link IngestSource}), cut into windows of {@code
 * window.size} samples every {@code window.stride}, z-scored with statistics frozen after {@code
 * window.warmup} samples (saved in the state directory and reused on the next start). A ring peer
 * retrains on its {@code window.keep} latest windows.
 *
 * @param source {@code synthetic-machining}, {@code hardware}, {@code mqtt-json} or {@code sparkplug}
 * @param machine synthetic: the machine index
 * @param sourceKeys the source's {@code signal.*} (hardware), {@code ingest.*} (MQTT) or {@code replay.*}
 *     (a recording: {@code replay.file}, HDSG or CSV, and {@code replay.speed}: fast, real or a factor) properties
 * @param keptWindows a ring peer: the most windows it retrains on, its latest ({@code window.keep}); older
 *     ones stay in the model and are let go, so that a long run's memory and turn time stay bounded
 */
public record SignalConfig(String source, int machine, int windowSize, int windowStride, long warmupSamples,
    Properties sourceKeys, int keptWindows) {
  public static final String SYNTHETIC = "synthetic-machining";
  public static final String HARDWARE = "hardware";
  public static final String MQTT_JSON = "mqtt-json";
  public static final String SPARKPLUG = "sparkplug";
  public static final String REPLAY = "replay";
  /**
   * {@code window.keep} by default: 5000 windows are 10 MB of int8 codes at D = 2000 and 50 MB at
   * D = 10000 (four times that kept as float32), and one retraining pass over them at D = 10000 and
   * S = 26 is 2.6 GFLOP.
   */
  public static final int DEFAULT_KEPT_WINDOWS = 5000;

  /** A source whose windows a ring peer keeps {@link #DEFAULT_KEPT_WINDOWS} of. */
  public SignalConfig(String source, int machine, int windowSize, int windowStride, long warmupSamples,
      Properties sourceKeys) {
    this(source, machine, windowSize, windowStride, warmupSamples, sourceKeys, DEFAULT_KEPT_WINDOWS);
  }

  public SignalConfig {
    if (!java.util.List.of(SYNTHETIC, HARDWARE, MQTT_JSON, SPARKPLUG, REPLAY).contains(source)) {
      throw new IllegalArgumentException("data.source must be file, " + SYNTHETIC + ", " + HARDWARE + ", " + MQTT_JSON
          + ", " + SPARKPLUG + " or " + REPLAY + ", got '" + source + "'");
    }
    if (windowSize < 1 || windowStride < 1 || warmupSamples < 0) {
      throw new IllegalArgumentException("window.size and window.stride must be >= 1 and window.warmup >= 0");
    }
    if (keptWindows < 1) {
      throw new IllegalArgumentException("window.keep must be >= 1, got " + keptWindows);
    }
  }
}
