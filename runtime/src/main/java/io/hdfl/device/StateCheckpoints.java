package io.hdfl.device;

import io.hdfl.codec.EnvelopeCodec;
import io.hdfl.codec.EnvelopeException;
import io.hdfl.codec.Expectations;
import io.hdfl.codec.ModelEnvelope;
import io.hdfl.federation.AggregatorCheckpoint;
import io.hdfl.federation.Checkpointer;
import io.hdfl.federation.ClientCheckpoint;
import io.hdfl.federation.RingCheckpoint;
import io.hdfl.federation.RingJournal;
import io.hdfl.io.AtomicFile;
import io.hdfl.io.CheckpointFile;
import io.hdfl.io.CheckpointFormatException;
import io.hdfl.privacy.schedule.ModelNoiseState;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A device's checkpoints, in {@code state.dir/checkpoint/} (README "Crash safety"): one file for its
 * role's committed state ({@code ring.ckpt}, {@code client.ckpt} or {@code aggregator.ckpt}, each
 * holding at most one model), one {@code received-<step>.ckpt} per model a ring peer acknowledged but
 * has not handed on yet, {@code finished.ckpt} once the run's final model is saved (with the SHA-256 of
 * that model's frame), and {@code previous-final.ckpt} during a run started after a finished one or
 * beside final models an earlier run left on the broker (the digests of those final frames, which the
 * broker may still retain: the finished run's, and those a start with nothing to resume found there
 * before it subscribed). Every file is
 * a {@link CheckpointFile} written atomically, naming the federation, peer and role it belongs to.
 * Anything unreadable or foreign is an error that names the file: a device never silently starts over
 * while its ledger holds a run in progress.
 */
final class StateCheckpoints implements RingJournal {
  static final String DIR = "checkpoint";
  private static final Pattern RECEIVED = Pattern.compile("received-(\\d{1,18})\\.ckpt");
  /** The field of {@code finished.ckpt} and {@code previous-final.ckpt} that holds a final frame's SHA-256. */
  private static final String FINAL_DIGEST = "final-sha256";
  /**
   * The field of {@code previous-final.ckpt} that holds the digests (space-separated) of final frames
   * the broker held before a device with no run to resume subscribed: earlier runs' (see DevicePeer).
   */
  private static final String EARLIER_FINALS = "earlier-finals-sha256";
  /** At most this many earlier final models are remembered (the broker keeps one, plus its parts). */
  static final int MAX_EARLIER_FINALS = 8;
  private static final Pattern DIGEST = Pattern.compile("[0-9a-f]{64}");

  private final Path dir;
  private final String federation;
  private final String peer;
  private final String role;
  private final Expectations expect;
  /** The device's repeatable live source, whose position each ring or client commit records; null: none. */
  private volatile TrackedSource tracked;

  private record TrackedSource(String name, java.util.function.LongSupplier position) {}

  /**
   * Where a repeatable live source stood at the last commit (README "Crash safety"): read at the
   * commit, so at or past every sample the committed state learned from.
   *
   * @param source the source's name, null if the commit recorded none (no repeatable source, or a
   *     checkpoint written before the twentieth session)
   * @param position samples read from it, -1 with no name
   */
  record SourceMark(String source, long position) {}

  StateCheckpoints(Path stateDir, String federation, String peer, String role, Expectations expect) {
    this.dir = stateDir.resolve(DIR);
    this.federation = federation;
    this.peer = peer;
    this.role = role;
    this.expect = expect;
  }

  Path dir() {
    return dir;
  }

  private Path roleFile() {
    return dir.resolve((role.equals("star-client") ? "client" : role) + ".ckpt");
  }

  private Path finishedFile() {
    return dir.resolve("finished.ckpt");
  }

  private Path previousFinalFile() {
    return dir.resolve("previous-final.ckpt");
  }

  /** The last round of the run whose final model was saved here, if one finished. */
  java.util.OptionalInt finished() throws IOException {
    if (!Files.exists(finishedFile())) {
      return java.util.OptionalInt.empty();
    }
    CheckpointFile.Content c = read(finishedFile(), "finished");
    try {
      return java.util.OptionalInt.of(Math.toIntExact(c.number("round")));
    } catch (ArithmeticException e) {
      throw refuse(new CheckpointFormatException(c.file() + ": 'round' is out of range"));
    }
  }

  /** Whether there is a run in progress to resume: a role checkpoint or a received model. */
  boolean inProgress() throws IOException {
    return Files.exists(roleFile()) || !receivedFiles().isEmpty();
  }

  /**
   * Starts a new run after a finished one: removes every checkpoint, keeping only the SHA-256 of the
   * finished run's final frame (when it was recorded) in {@code previous-final.ckpt}, until the new run
   * finishes; see {@link #previousFinal()}. That file is written first and {@code finished.ckpt} deleted
   * last, so a crash in between leaves either the finished run (reported at the next start) or the new
   * run with its digest.
   */
  synchronized void startNewRun() throws IOException {
    if (!Files.isDirectory(dir)) {
      return;
    }
    Optional<String> digest = finishedFinal();
    if (digest.isPresent()) {
      CheckpointFile.write(previousFinalFile(), "previous-final", owner(Map.of(FINAL_DIGEST, digest.get())), null);
    }
    try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*.ckpt")) {
      for (Path f : files) {
        if (!f.equals(finishedFile()) && !(digest.isPresent() && f.equals(previousFinalFile()))) {
          AtomicFile.delete(f);
        }
      }
    }
    AtomicFile.delete(finishedFile());
  }

  /**
   * The SHA-256 (hex) of the finished run's final frame, from {@code finished.ckpt}; empty if no run
   * finished here or its checkpoint was written before the digest was recorded (before 2026-11-27).
   *
   * @throws IOException if the checkpoint is damaged or not this device's
   */
  Optional<String> finishedFinal() throws IOException {
    return Files.exists(finishedFile()) ? finalDigest(read(finishedFile(), "finished")) : Optional.empty();
  }

  /**
   * The SHA-256s (hex) of final frames that are not this run's: the run that finished here before this
   * one began (if recorded), and those {@link #rememberEarlierFinals remembered} since. MQTT brokers
   * keep a topic's last retained message, so a device that starts a new run under the same federation
   * is handed such a model as soon as it subscribes.
   */
  java.util.Set<String> previousFinal() throws IOException {
    if (!Files.exists(previousFinalFile())) {
      return java.util.Set.of();
    }
    CheckpointFile.Content c = read(previousFinalFile(), "previous-final");
    java.util.Set<String> digests = new java.util.LinkedHashSet<>();
    finalDigest(c).ifPresent(digests::add);
    digests.addAll(earlierFinals(c));
    return digests;
  }

  /** The digests of earlier runs' final frames a {@code previous-final.ckpt} lists, oldest first. */
  private List<String> earlierFinals(CheckpointFile.Content c) throws IOException {
    String earlier = c.fields().get(EARLIER_FINALS);
    if (earlier == null) {
      return List.of();
    }
    String[] listed = earlier.split(" ", MAX_EARLIER_FINALS + 1);
    for (String d : listed) {
      if (listed.length > MAX_EARLIER_FINALS || !DIGEST.matcher(d).matches()) {
        throw refuse(new CheckpointFormatException(c.file() + ": '" + EARLIER_FINALS + "' holds more than "
            + MAX_EARLIER_FINALS + " SHA-256s in hex, or something else"));
      }
    }
    return List.of(listed);
  }

  /**
   * Adds {@code digests} to {@code previous-final.ckpt}: final frames the broker held before this
   * device, with no run to resume, subscribed (an earlier run's). Kept until this run finishes, so a
   * restart in the middle of it does not take them for this run's either. At most {@link
   * #MAX_EARLIER_FINALS} are kept, the newest.
   */
  synchronized void rememberEarlierFinals(java.util.Collection<String> digests) throws IOException {
    Optional<String> own = Optional.empty();
    java.util.LinkedHashSet<String> earlier = new java.util.LinkedHashSet<>();
    if (Files.exists(previousFinalFile())) {
      CheckpointFile.Content c = read(previousFinalFile(), "previous-final");
      own = finalDigest(c);
      earlier.addAll(earlierFinals(c));
    }
    earlier.addAll(digests);
    own.ifPresent(earlier::remove);
    List<String> kept = new ArrayList<>(earlier);
    kept = kept.subList(Math.max(0, kept.size() - MAX_EARLIER_FINALS), kept.size());
    Map<String, String> fields = new LinkedHashMap<>();
    own.ifPresent(d -> fields.put(FINAL_DIGEST, d));
    if (!kept.isEmpty()) {
      fields.put(EARLIER_FINALS, String.join(" ", kept));
    }
    Files.createDirectories(dir);
    CheckpointFile.write(previousFinalFile(), "previous-final", owner(fields), null);
  }

  /** The final frame's digest in a finished or previous-final checkpoint; empty in one written without it. */
  private Optional<String> finalDigest(CheckpointFile.Content c) throws IOException {
    String d = c.fields().get(FINAL_DIGEST);
    if (d == null) {
      return Optional.empty();
    }
    if (!DIGEST.matcher(d).matches()) {
      throw refuse(new CheckpointFormatException(c.file() + ": '" + FINAL_DIGEST + "' is not a SHA-256 in hex"));
    }
    return Optional.of(d);
  }

  /**
   * Records that the run ended with {@code round}'s final model saved, whose frame has the SHA-256
   * {@code finalDigest} (hex), and drops the rest.
   */
  synchronized void finish(int round, String finalDigest) throws IOException {
    CheckpointFile.write(finishedFile(), "finished", owner(Map.of("round", String.valueOf(round),
        FINAL_DIGEST, finalDigest)), null);
    try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*.ckpt")) {
      for (Path f : files) {
        if (!f.equals(finishedFile())) {
          AtomicFile.delete(f);
        }
      }
    }
  }

  /** The noise stream position of the last committed state (0 with none: the stream starts afresh). */
  long noisePosition() throws IOException {
    if (!Files.exists(roleFile())) {
      return 0;
    }
    long p = read(roleFile(), null).number("noise-position");
    return Math.max(0, p);
  }

  /**
   * Records in each ring or client commit from now on where {@code source} stands, read at the commit:
   * at or past every sample the committed state learned from.
   */
  void trackingSource(String source, java.util.function.LongSupplier position) {
    tracked = new TrackedSource(source.replace('\n', ' ').replace('\r', ' '), position);
  }

  /** Adds the tracked source's name and position to a commit's fields. */
  private void putSource(Map<String, String> f) {
    TrackedSource t = tracked;
    if (t != null) {
      f.put("source", t.name());
      f.put("source-position", String.valueOf(t.position().getAsLong()));
    }
  }

  /** Where the live source stood at the last commit; empty if nothing was committed. */
  Optional<SourceMark> sourceMark() throws IOException {
    if (!Files.exists(roleFile())) {
      return Optional.empty();
    }
    CheckpointFile.Content c = read(roleFile(), null);
    String source = c.fields().get("source");
    if (source == null) {
      return Optional.of(new SourceMark(null, -1));
    }
    try {
      long position = c.number("source-position");
      if (position < 0) {
        throw new CheckpointFormatException(c.file() + ": 'source-position' is negative");
      }
      return Optional.of(new SourceMark(source, position));
    } catch (CheckpointFormatException e) {
      throw refuse(e);
    }
  }

  // ---- ring peer

  @Override
  public synchronized void received(long step, byte[] frame) throws IOException {
    Path f = dir.resolve("received-" + step + ".ckpt");
    if (!Files.exists(f)) {
      CheckpointFile.write(f, "received", owner(Map.of("step", String.valueOf(step))), frame);
    }
  }

  @Override
  public synchronized void consumed(long step) throws IOException {
    AtomicFile.delete(dir.resolve("received-" + step + ".ckpt"));
  }

  @Override
  public synchronized void commit(RingCheckpoint s) throws IOException {
    Map<String, String> f = new LinkedHashMap<>();
    f.put("last-step", String.valueOf(s.lastStep()));
    f.put("bundled", String.valueOf(s.bundled()));
    f.put("noise-position", String.valueOf(s.noisePosition()));
    f.put("delivered", String.valueOf(s.delivered()));
    putSource(f);
    CheckpointFile.write(roleFile(), "ring", owner(f), s.delivered() ? null : EnvelopeCodec.encode(s.outgoing()));
  }

  /** The ring peer's last committed state, if it produced a step. */
  Optional<RingCheckpoint> ring() throws IOException {
    if (!Files.exists(roleFile())) {
      return Optional.empty();
    }
    CheckpointFile.Content c = read(roleFile(), "ring");
    try {
      boolean delivered = c.flag("delivered");
      ModelEnvelope out = delivered ? null : frame(c, ModelEnvelope.Kind.RING_MODEL);
      return Optional.of(new RingCheckpoint(c.number("last-step"), c.flag("bundled"), c.number("noise-position"), out));
    } catch (IllegalArgumentException e) {
      throw refuse(new CheckpointFormatException(c.file() + ": " + e.getMessage()));
    }
  }

  /** The models a ring peer acknowledged but had not handed on, in step order. */
  List<ModelEnvelope> received() throws IOException {
    List<ModelEnvelope> out = new ArrayList<>();
    for (Path f : receivedFiles()) {
      CheckpointFile.Content c = read(f, "received");
      ModelEnvelope env = frame(c, ModelEnvelope.Kind.RING_MODEL);
      if (env.step() != c.number("step")) {
        throw refuse(new CheckpointFormatException(f + ": holds the model of step " + env.step() + ", not "
            + c.number("step")));
      }
      out.add(env);
    }
    out.sort(java.util.Comparator.comparingLong(ModelEnvelope::step));
    return out;
  }

  private List<Path> receivedFiles() throws IOException {
    List<Path> files = new ArrayList<>();
    if (!Files.isDirectory(dir)) {
      return files;
    }
    try (DirectoryStream<Path> all = Files.newDirectoryStream(dir, "received-*.ckpt")) {
      for (Path f : all) {
        Matcher m = RECEIVED.matcher(f.getFileName().toString());
        if (!m.matches()) {
          throw refuse(new CheckpointFormatException(f + ": not a checkpoint name hdfl writes"));
        }
        files.add(f);
      }
    }
    return files;
  }

  // ---- star client

  /** Commits a star client's update. */
  Checkpointer<ClientCheckpoint> clientCommits() {
    return s -> {
      Map<String, String> f = new LinkedHashMap<>();
      f.put("round", String.valueOf(s.round()));
      f.put("noise-position", String.valueOf(s.noisePosition()));
      f.put("samples-taken", String.valueOf(s.samplesTaken()));
      f.put("aggregator", s.aggregator());
      putSource(f);
      synchronized (this) {
        CheckpointFile.write(roleFile(), "client", owner(f), EnvelopeCodec.encode(s.update()));
      }
    };
  }

  Optional<ClientCheckpoint> client() throws IOException {
    if (!Files.exists(roleFile())) {
      return Optional.empty();
    }
    CheckpointFile.Content c = read(roleFile(), "client");
    try {
      return Optional.of(new ClientCheckpoint(Math.toIntExact(c.number("round")), c.number("noise-position"),
          c.number("samples-taken"), c.text("aggregator"), frame(c, ModelEnvelope.Kind.CLIENT_UPDATE)));
    } catch (IllegalArgumentException | ArithmeticException e) {
      throw refuse(new CheckpointFormatException(c.file() + ": " + e.getMessage()));
    }
  }

  // ---- aggregator

  /** Commits an aggregation. */
  Checkpointer<AggregatorCheckpoint> aggregatorCommits() {
    return s -> {
      Map<String, String> f = new LinkedHashMap<>();
      f.put("round", String.valueOf(s.round()));
      f.put("present-variance", Double.toString(s.state().presentVariance()));
      f.put("samples-absorbed", String.valueOf(s.state().samplesAbsorbed()));
      f.put("noise-position", String.valueOf(s.noisePosition()));
      f.put("lines", String.valueOf(s.lines().size()));
      for (int i = 0; i < s.lines().size(); i++) {
        f.put("line." + i, s.lines().get(i));
      }
      synchronized (this) {
        CheckpointFile.write(roleFile(), "aggregator", owner(f), EnvelopeCodec.encode(s.global()));
      }
    };
  }

  Optional<AggregatorCheckpoint> aggregator() throws IOException {
    if (!Files.exists(roleFile())) {
      return Optional.empty();
    }
    CheckpointFile.Content c = read(roleFile(), "aggregator");
    try {
      long n = c.number("lines");
      if (n < 1 || n > 100_000) {
        throw new IllegalArgumentException("'lines' is out of range: " + n);
      }
      List<String> lines = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        lines.add(c.text("line." + i));
      }
      ModelEnvelope global = frame(c, null);
      return Optional.of(new AggregatorCheckpoint(Math.toIntExact(c.number("round")),
          new ModelNoiseState(c.real("present-variance"), c.number("samples-absorbed")), c.number("noise-position"),
          lines, global));
    } catch (IllegalArgumentException | ArithmeticException e) {
      throw refuse(new CheckpointFormatException(c.file() + ": " + e.getMessage()));
    }
  }

  // ---- common

  /** The fields every checkpoint starts with: whose it is. */
  private Map<String, String> owner(Map<String, String> fields) {
    Map<String, String> f = new LinkedHashMap<>();
    f.put("federation", federation);
    f.put("peer", peer);
    f.put("role", role);
    f.putAll(fields);
    return f;
  }

  /** Reads {@code file}, checks it is this peer's and of {@code kind} (null: any). */
  private CheckpointFile.Content read(Path file, String kind) throws IOException {
    CheckpointFile.Content c;
    try {
      c = CheckpointFile.read(file);
      if (kind != null && !kind.equals(c.kind())) {
        throw new CheckpointFormatException(file + ": is a '" + c.kind() + "' checkpoint, not '" + kind + "'");
      }
      if (!federation.equals(c.text("federation")) || !peer.equals(c.text("peer")) || !role.equals(c.text("role"))) {
        throw new CheckpointFormatException(file + ": belongs to " + c.text("role") + " '" + c.text("peer")
            + "' of federation '" + c.text("federation") + "', not to this configuration (" + role + " '" + peer
            + "' of '" + federation + "')");
      }
    } catch (NoSuchFileException e) {
      throw e;
    } catch (CheckpointFormatException e) {
      throw refuse(e);
    }
    return c;
  }

  /** The model frame of a checkpoint, decoded and checked like a received one. */
  private ModelEnvelope frame(CheckpointFile.Content c, ModelEnvelope.Kind kind) throws IOException {
    byte[] payload = c.payload();
    if (payload.length == 0) {
      throw refuse(new CheckpointFormatException(c.file() + ": holds no model"));
    }
    try {
      ModelEnvelope env = EnvelopeCodec.decode(payload, expect);
      if (kind != null && env.kind() != kind) {
        throw refuse(new CheckpointFormatException(c.file() + ": holds a " + env.kind() + ", not a " + kind));
      }
      return env;
    } catch (EnvelopeException e) {
      throw refuse(new CheckpointFormatException(c.file() + ": its model does not decode (" + e.getMessage() + ")"));
    }
  }

  /** {@code e} with what the operator can do, on the same line. */
  private CheckpointFormatException refuse(CheckpointFormatException e) {
    if (e.getMessage().contains("; refusing to resume")) {
      return e;
    }
    return new CheckpointFormatException(e.getMessage() + "; refusing to resume (the ledger is kept): restore the "
        + "checkpoint from a backup, or move " + dir.getParent() + " away to start a new run", e);
  }
}
