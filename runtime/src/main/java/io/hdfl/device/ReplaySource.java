package io.hdfl.device;

import io.hdfl.sensors.signal.CsvSignalSource;
import io.hdfl.sensors.signal.Pacing;
import io.hdfl.sensors.signal.RecordedSignalSource;
import io.hdfl.sensors.signal.SignalSource;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Properties;

/**
 * {@code data.source = replay}: a recorded session played back as a live source — an HDSG recording
 * ({@code hdfl record}) or a CSV file ({@code name[unit]} header, a time column, an optional label
 * column) — as fast as possible ({@code replay.speed = fast}, the default), at its real rate
 * ({@code real}) or accelerated ({@code 10} for ×10).
 */
final class ReplaySource {
  private ReplaySource() {}

  static SignalSource open(Properties keys) throws IOException {
    Path file = Path.of(keys.getProperty("replay.file"));
    Pacing pacing = pacing(keys.getProperty("replay.speed", "fast"));
    String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
    if (name.endsWith(".csv") || name.endsWith(".csv.gz")) {
      return CsvSignalSource.builder(file).pacing(pacing).open();
    }
    return RecordedSignalSource.open(file, pacing);
  }

  /** {@code fast}, {@code real} or a speed-up factor. */
  static Pacing pacing(String speed) {
    String v = speed.trim().toLowerCase(Locale.ROOT);
    if (v.equals("fast")) {
      return Pacing.AS_FAST_AS_POSSIBLE;
    }
    if (v.equals("real")) {
      return Pacing.REAL_TIME;
    }
    try {
      return Pacing.accelerated(Double.parseDouble(v));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("'replay.speed' must be fast, real or a speed-up factor, got '" + speed + "'");
    }
  }
}
