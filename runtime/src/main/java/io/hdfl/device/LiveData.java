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
import java.util.Optional;
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
  private final String identity;
  private final LiveStream stream;
  private final Windowing windowing;
  private final Path normalizationFile;
  private boolean saved;

  private LiveData(SignalSource source, String identity, LiveStream stream, Windowing windowing,
      Path normalizationFile) {
    this.source = source;
    this.identity = identity;
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
      return new LiveData(source, identity(cfg, source), new LiveStream(source, w, encoder, classes), w, file);
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
  Optional<RepeatableSource> repeatable() {
    return source instanceof RepeatableSource r ? Optional.of(r) : Optional.empty();
  }

  /**
   * Goes on where this device's previous run stopped reading (call before the first window): a
   * repeatable source skips the samples read up to the last commit, so that a restart learns no window
   * again, and from now on each commit records where it stands. A sensor's or a broker's samples after
   * a restart are new ones: nothing to do.
   */
  void continueRun(StateCheckpoints checkpoints, boolean resuming, Consumer<String> log) throws IOException {
    RepeatableSource r = repeatable().orElse(null);
    if (r == null) {
      return;
    }
    if (resuming) {
      Optional<StateCheckpoints.SourceMark> mark = checkpoints.sourceMark();
      if (mark.isPresent()) {
        resumeAfter(mark.get(), log);
      }
    }
    checkpoints.trackingSource(identity, r::position);
  }

  /**
   * Skips the samples a previous run read from the same repeatable source ({@code mark}). A mark of
   * another source, or a checkpoint that recorded none, leaves the source at its beginning.
   */
  void resumeAfter(StateCheckpoints.SourceMark mark, Consumer<String> log) throws IOException {
    RepeatableSource r = repeatable().orElseThrow();
    if (mark.source() == null) {
      log.accept("live data: the checkpoint records no position in " + identity + " (it was written before the"
          + " twentieth session, or while the device read a sensor or a broker): it is read from its beginning");
    } else if (!mark.source().equals(identity)) {
      log.accept("live data: the previous run read " + mark.source() + ", not " + identity
          + ": it is read from its beginning");
    } else {
      long skipped = r.skip(mark.position());
      log.accept("live data: skipped the " + skipped + " samples of " + identity + " read before the restart"
          + (skipped < mark.position() ? " (the source ended after them: nothing new is left to learn)" : ""));
    }
  }

  /**
   * What a checkpoint records of a repeatable source, to know it again at a restart: a replayed file by
   * its name, size and the SHA-256 of its first MiB (so a moved installation still finds its place), the
   * synthetic machine by its seed and machine. Null for other sources.
   */
  private static String identity(SignalConfig cfg, SignalSource source) throws IOException {
    if (!(source instanceof RepeatableSource)) {
      return null;
    }
    if (!cfg.source().equals(SignalConfig.REPLAY)) {
      return source.toString();
    }
    Path file = Path.of(cfg.sourceKeys().getProperty("replay.file"));
    byte[] head;
    try (java.io.InputStream in = Files.newInputStream(file)) {
      head = in.readNBytes(1 << 20);
    }
    return "replay " + file.getFileName() + " (" + Files.size(file) + " bytes, first MiB SHA-256 "
        + io.hdfl.io.Sha256.hex(head).substring(0, 16) + ")";
  }

  /** The name a checkpoint records of the source (null: not repeatable). */
  String identity() {
    return identity;
  }

  /** Whether the source has ended (a replayed recording read to its end). */
  boolean ended() {
    return stream.ended();
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

      @Override
      public boolean ended() {
        return stream.ended();
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
