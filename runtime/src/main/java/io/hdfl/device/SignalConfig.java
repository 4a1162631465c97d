package io.hdfl.device;

import java.util.Properties;

/**
 * Where a device's live data comes from, when not from a file ({@code data.source}): the synthetic
 * machine or the Pi4J inputs described by the {@code signal.*} keys, cut into windows of {@code
 * window.size} samples every {@code window.stride}, z-scored with statistics frozen after {@code
 * window.warmup} samples (saved in the state directory and reused on the next start).
 *
 * @param source {@code synthetic-machining} or {@code hardware}
 * @param machine synthetic: the machine index
 * @param hardware hardware: the {@code signal.*} properties (validated by {@code HardwareSignalConfig})
 */
public record SignalConfig(String source, int machine, int windowSize, int windowStride, long warmupSamples,
    Properties hardware) {
  public static final String SYNTHETIC = "synthetic-machining";
  public static final String HARDWARE = "hardware";

  public SignalConfig {
    if (!source.equals(SYNTHETIC) && !source.equals(HARDWARE)) {
      throw new IllegalArgumentException("data.source must be file, " + SYNTHETIC + " or " + HARDWARE + ", got '"
          + source + "'");
    }
    if (windowSize < 1 || windowStride < 1 || warmupSamples < 0) {
      throw new IllegalArgumentException("window.size and window.stride must be >= 1 and window.warmup >= 0");
    }
  }
}
