package io.hdfl.device;

import io.hdfl.federation.LiveStream;
import io.hdfl.federation.LocalStream;
import io.hdfl.hd.EncodedSet;
import io.hdfl.hd.Encoder;
import io.hdfl.sensors.signal.RepeatableSource;
import io.hdfl.sensors.signal.SignalSource;
import io.hdfl.sensors.signal.SyntheticMachiningSource;
import io.hdfl.sensors.signal.pi4j.HardwareSignalConfig;
import io.hdfl.sensors.window.Normalization;
import io.hdfl.sensors.window.Windowing;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * A device's live data path: signal source → windowing (with the normalization a previous run saved,
 * if any) → the encoder, as a {@link LocalStream}. The normalization statistics are saved as soon as
 * they are frozen (after the first windows come out of the warm-up), so a device restarted after
 * {@code kill -9} or a power cut normalizes exactly as before; until the sixteenth session they were
 * saved only by {@link #close}, which such a stop never reaches.
 */
final class LiveData implements AutoCloseable {
  static final String NORMALIZATION_FILE = "normalization.hdns";
  private static final System.Logger LOG = System.getLogger("io.hdfl.device");

  private final SignalSource source;
  private final LiveStream stream;
  private final Windowing windowing;
  private final Path normalizationFile;
  private boolean saved;

  private LiveData(SignalSource source, LiveStream stream, Windowing windowing, Path normalizationFile) {
    this.source = source;
    this.stream = stream;
    this.windowing = windowing;
    this.normalizationFile = normalizationFile;
  }

  /** Opens the source; {@code encoderFor} gets the window's feature count and returns the encoder. */
  static LiveData open(SignalConfig cfg, long seed, int classes, Path stateDir, String broker, String clientId,
      java.util.function.IntFunction<Encoder> encoderFor, Consumer<String> log) throws IOException {
    SignalSource source = switch (cfg.source()) {
      case SignalConfig.SYNTHETIC -> SyntheticMachiningSource.builder().seed(seed).machine(cfg.machine()).build();
      case SignalConfig.HARDWARE ->
          HardwareSignalConfig.fromProperties(cfg.sourceKeys(), "signal.").open(com.pi4j.Pi4J.newAutoContext());
      case SignalConfig.REPLAY -> ReplaySource.open(cfg.sourceKeys());
      default -> IngestSource.open(cfg.source(), cfg.sourceKeys(), broker, clientId);
    };
    try {
      Path file = stateDir.resolve(NORMALIZATION_FILE);
      Normalization norm;
      if (Files.exists(file)) {
        norm = Normalization.load(file);
        if (!norm.channels().equals(source.channels())) {
          throw new IllegalArgumentException(file + " was saved for other channels; delete it to learn new statistics");
        }
        log.accept("normalization: statistics restored from " + file);
      } else {
        norm = Normalization.frozenAfter(source.channels(), cfg.warmupSamples());
        log.accept("normalization: learning statistics from the first " + cfg.warmupSamples() + " samples");
      }
      Windowing w = Windowing.builder(source).size(cfg.windowSize()).stride(cfg.windowStride()).normalization(norm)
          .build();
      Encoder encoder = encoderFor.apply(w.featureCount());
      log.accept("live data: " + cfg.source() + ", " + source.channels().size() + " channels at " + source.sampleRateHz()
          + " Hz, windows of " + cfg.windowSize() + " (" + w.featureCount() + " features)");
      return new LiveData(source, new LiveStream(source, w, encoder, classes), w, file);
    } catch (IOException | RuntimeException e) {
      source.close();
      throw e;
    }
  }

  /**
   * The source if it gives the same samples each time it is opened (a replayed recording or CSV file,
   * the synthetic machine), whose position a restart resumes from; empty for sensors and brokers, whose
   * samples after a restart are new ones.
   */
  java.util.Optional<RepeatableSource> repeatable() {
    return source instanceof RepeatableSource r ? java.util.Optional.of(r) : java.util.Optional.empty();
  }

  /**
   * Skips, before the first window, the samples a previous run of this device read from the same
   * repeatable source up to its last commit ({@code mark}), so that a restart learns no window again.
   * A mark of another source, or a checkpoint that recorded none, leaves the source at its beginning.
   */
  void resumeAfter(StateCheckpoints.SourceMark mark, Consumer<String> log) throws IOException {
    RepeatableSource r = repeatable().orElse(null);
    if (r == null) {
      return;
    }
    if (mark.source() == null) {
      log.accept("live data: the checkpoint does not say where " + r + " stood (written before the twentieth session):"
          + " it is read from its beginning, so windows learned before the restart are learned again");
    } else if (!mark.source().equals(StateCheckpoints.sourceName(r))) {
      log.accept("live data: the previous run read " + mark.source() + ", not " + r + ": it is read from its beginning");
    } else {
      long skipped = r.skip(mark.position());
      log.accept("live data: skipped the " + skipped + " samples of " + r + " read before the restart"
          + (skipped < mark.position() ? " (the source ended after them: nothing new is left to learn)" : ""));
    }
  }

  /** The live samples, saving the normalization once it is frozen. */
  LocalStream stream() {
    return new LocalStream() {
      @Override
      public EncodedSet next(long count) throws InterruptedException {
        EncodedSet windows = stream.next(count);
        saveNormalization();
        return windows;
      }
    };
  }

  /** Saves the frozen statistics once (atomically); a failure is not fatal and is tried again. */
  private synchronized void saveNormalization() {
    Normalization n = windowing.normalization();
    if (n == null || !n.isFrozen() || saved) {
      return;
    }
    try {
      if (!Files.exists(normalizationFile)) {
        n.save(normalizationFile);
      }
      saved = true;
    } catch (IOException e) {
      LOG.log(System.Logger.Level.WARNING, "normalization: could not save "
          + normalizationFile + " (tried again with the next windows): " + e.getMessage());
    }
  }

  @Override
  public void close() throws IOException {
    try {
      saveNormalization();
    } finally {
      stream.close();
    }
  }
}
