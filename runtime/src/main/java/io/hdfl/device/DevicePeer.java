package io.hdfl.device;

import io.hdfl.security.HopAead;
import io.hdfl.security.HopCipher;
import io.hdfl.security.HopKeys;
import io.hdfl.security.Roster;
import io.hdfl.security.FederationKey;
import io.hdfl.security.RosterHistory;
import io.hdfl.security.SignedRoster;

import io.hdfl.codec.ModelEnvelope;
import io.hdfl.data.Dataset;
import io.hdfl.data.Datasets;
import io.hdfl.federation.AggregatorCheckpoint;
import io.hdfl.federation.ClientCheckpoint;
import io.hdfl.federation.FederationSettings;
import io.hdfl.federation.RingCheckpoint;
import io.hdfl.federation.FrameChannel;
import io.hdfl.federation.MetricsPublisher;
import io.hdfl.federation.PeerContext;
import io.hdfl.federation.RingPeer;
import io.hdfl.federation.ReleaseLog;
import io.hdfl.federation.WindowCollector;
import io.hdfl.federation.StarAggregator;
import io.hdfl.federation.StarClient;
import io.hdfl.federation.Topics;
import io.hdfl.hd.ClassPrototypes;
import io.hdfl.hd.EncodedSet;
import io.hdfl.hd.Encoder;
import io.hdfl.hd.HdModel;
import io.hdfl.hd.ModelFile;
import io.hdfl.kernels.VectorKernels;
import io.hdfl.kernels.VectorKernelsProvider;
import io.hdfl.privacy.ledger.PeerKeys;
import io.hdfl.privacy.ledger.PrivacyLedger;
import io.hdfl.privacy.noise.NoiseSource;
import io.hdfl.privacy.noise.SecureNoiseSource;
import io.hdfl.privacy.noise.SeededNoiseSource;
import io.hdfl.sensors.energy.DetectedMeter;
import io.hdfl.sensors.energy.DeviceProfiles;
import io.hdfl.sensors.energy.EnergyMeters;
import io.hdfl.transport.LastWill;
import io.hdfl.transport.MqttSettings;
import io.hdfl.transport.MqttTransport;
import io.hdfl.transport.Transport;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * One device of a federation ({@code hdfl peer}): its persistent identity, its connection (with a
 * retained "online" announcement and an "offline" last will), its local data encoded once, its role,
 * energy measured per update, the federation's ledger (ring peers and the aggregator keep it), and the
 * final model written to its state directory. Its progress is checkpointed there ({@link
 * StateCheckpoints}): started again after a crash with the same state directory, it resumes the run.
 */
public final class DevicePeer {
  private static final System.Logger LOG = System.getLogger("io.hdfl.device");

  /**
   * What a run leaves: the final model, the federation's ledger (ring peers and the aggregator) and a
   * star client's record of the updates it released ({@link ReleaseLog}); null where the role keeps none.
   */
  public record Outcome(Path finalModel, Path ledger, Path releases, int rounds) {}

  static final String OFFLINE = PeerAnnouncements.OFFLINE;
  /**
   * How long a start waits for its own instance token to come back through the broker (a round trip,
   * milliseconds on a LAN) before it takes every later final model as this run's (those before are
   * ignored as an earlier run's either way).
   */
  private static final java.time.Duration SETTLING = java.time.Duration.ofSeconds(5);
  /** How long a stopping device waits for the broker to confirm its "offline" announcement. */
  private static final java.time.Duration OFFLINE_CONFIRMATION = java.time.Duration.ofSeconds(5);

  private final PeerConfig config;
  private final VectorKernels kernels;

  public DevicePeer(PeerConfig config, VectorKernels kernels) {
    this.config = config;
    this.kernels = kernels;
  }

  /** Runs this device's part of the federation, resuming a run in progress; see {@link #run(Consumer, boolean)}. */
  public Outcome run(Consumer<String> log) throws Exception {
    return run(log, false);
  }

  /**
   * Runs this device's part of the federation. With checkpoints of a run in progress in the state
   * directory it resumes that run. If the run there has finished (its final model is saved), it
   * reports that run's outcome and does nothing else — a restart after the end never replaces the
   * ledger — unless {@code newRun}: then the finished run's ledger is kept as {@code
   * ledger-<time>.jsonl} and a new run starts.
   */
  public Outcome run(Consumer<String> log, boolean newRun) throws Exception {
    PeerConfig cfg = config;
    if (!cfg.role().equals("aggregator")) {
      // a learner scores int8 encodings every turn: its kernels compiled by C2 while it starts
      VectorKernelsProvider.primeInBackground();
    }
    // every role signs ledger entries: the signing code's one-time setup done while the peer starts
    PeerKeys.prepareInBackground();
    stateDirectory(cfg.stateDir());
    Path ledgerFile = ledgerFile(cfg);
    StateCheckpoints early = new StateCheckpoints(cfg.stateDir(), cfg.settings().federation(), cfg.peerId(), cfg.role(),
        expectations(cfg.settings()));
    java.util.OptionalInt finished = early.finished();
    if (finished.isPresent() && !newRun) {
      log.accept("the run in " + cfg.stateDir() + " finished after round " + finished.getAsInt()
          + "; nothing to do (start a new run with --new-run)");
      // no ledger if a --new-run moved it away and stopped before its new run began
      Path releases = cfg.stateDir().resolve(ReleaseLog.FILE_NAME);
      return new Outcome(cfg.stateDir().resolve(ModelFile.FINAL_MODEL_NAME),
          ledgerFile != null && Files.exists(ledgerFile) ? ledgerFile : null,
          Files.exists(releases) ? releases : null, finished.getAsInt());
    }
    writable(cfg.stateDir()); // a run writes here (a finished one, only reported above, may stay read-only)
    if (finished.isPresent()) { // a new run: the finished run's files are kept aside
      // read before anything moves: a damaged checkpoint stops here. (A finished run recorded without its final
      // model's digest, by an hdfl before 2026-11-27, needs none: the new run, having nothing to resume, takes
      // no final model the broker held before it subscribed.)
      early.finishedFinal();
      String stamp = java.time.format.DateTimeFormatter.ofPattern("uuuuMMdd'T'HHmmss'Z'")
          .withZone(java.time.ZoneOffset.UTC).format(java.time.Instant.now());
      if (ledgerFile != null && Files.exists(ledgerFile)) {
        Path kept = cfg.stateDir().resolve("ledger-" + stamp + ".jsonl");
        io.hdfl.io.AtomicFile.rename(ledgerFile, kept); // before startNewRun: a crash between leaves the old run whole
        log.accept("new run: the finished run's ledger is kept as " + kept);
      }
      Path releases = cfg.stateDir().resolve(ReleaseLog.FILE_NAME);
      if (Files.exists(releases)) {
        Path kept = cfg.stateDir().resolve("releases-" + stamp + ".jsonl");
        io.hdfl.io.AtomicFile.rename(releases, kept);
        log.accept("new run: the finished run's record of this device's releases is kept as " + kept);
      }
      early.startNewRun();
    }
    PeerKeys keys = identity(cfg, log);
    EncodedSet data = null;
    // a stored data set is encoded while the peer connects and announces itself (see encodeMeanwhile)
    CompletableFuture<EncodedSet> encoding = null;
    List<String> classNames = null;
    LiveData live = null;
    // from here on a stop closes the live source (a replayed file, an ingest connection, the Pi4J context)
    Throwable stopped = null;
    try {
      if (cfg.signal() != null) {
        PeerConfig[] bound = {cfg};
        live = LiveData.open(cfg.signal(), cfg.settings().seed(), cfg.classes(), cfg.stateDir(), cfg.broker(),
            cfg.peerId() + "-ingest", features -> {
          bound[0] = bound[0].withFeatures(features);
          return new Encoder(bound[0].settings().encoder(), kernels, Runtime.getRuntime().availableProcessors());
        }, log);
        cfg = bound[0];
      } else if (!cfg.role().equals("aggregator")) {
        Dataset d = storedData(cfg);
        cfg = cfg.withFeatures(d.featureCount());
        log.accept("data: " + d.size() + " samples x " + d.featureCount() + " features from " + cfg.trainData());
        encoding = encodeMeanwhile(cfg, d, log);
        classNames = d.classNames().size() == cfg.classes() ? d.classNames() : null;
      } else if (aggregatorWithoutFeatures(config) != null) {
        throw new IllegalArgumentException(aggregatorWithoutFeatures(config));
      }
      FederationSettings s = cfg.settings();
      HopCipher hops = hops(cfg, keys, log);
      Topics topics = new Topics(s.federation());
      StateCheckpoints checkpoints = new StateCheckpoints(cfg.stateDir(), s.federation(), cfg.peerId(), cfg.role(),
          expectations(s));
      boolean resuming = resumes(cfg, checkpoints);
      long noisePosition = resuming ? checkpoints.noisePosition() : 0;
      if (live != null) {
        // a replayed recording or the synthetic machine gives the same samples again: a restart skips
        // those read up to the last commit, and each commit records how far it has read
        live.continueRun(checkpoints, resuming, log);
        if (cfg.role().equals("ring")) {
          data = ringWindows(cfg, live, resuming, log);
        }
      }
      // read before connecting, so that a damaged file stops the start at once
      java.util.Set<String> previousFinals = checkpoints.previousFinal();
      io.hdfl.sensors.energy.DeviceProfile profile = profile(cfg); // a bad energy.profile stops the start here
      io.hdfl.sensors.energy.DeviceProfile radio = cfg.radioMeasured() ? null : profile;
      DetectedMeter meter = energyMeter(cfg, profile); // before connecting: a configured INA219 that is absent stops the start
      Transport transport;
      try {
        transport = connect(cfg, topics);
      } catch (Exception | Error e) {
        meter.meter().close();
        throw e;
      }
      log.accept(meter.reason());
      List<AutoCloseable> running = new ArrayList<>();
      boolean offline = false;
      PeerInstance instance = null; // set once the device watches its instance topic
      try {
        NoiseSource noise = cfg.noise().equals("secure") ? new SecureNoiseSource()
            : new SeededNoiseSource(s.seed() * 31 + cfg.peerId().hashCode(), kernels, noisePosition);
        PeerContext ctx = new PeerContext(cfg.peerId(), s, transport, keys, noise, kernels,
            new EnergyReporter(cfg.peerId(), meter.meter(), radio, new RoundProgress(cfg.role(), s.rounds(), log)
                .andThen(new MetricsPublisher(transport, topics, cfg.peerId()))),
            new FrameChannel(transport, s.maxPacketBytes()), hops);
        var ringOf = new java.util.concurrent.atomic.AtomicReference<RingPeer>(); // set once the ring peer exists
        // the final model this device takes: not one the broker retains from an earlier run (FinalModelIntake)
        FinalModelIntake intake = new FinalModelIntake(ctx, cfg.classes(), previousFinals, resuming, cfg.stateDir(),
            log, cfg.role().equals("ring") ? cfg.ringOrder() : List.of());
        ctx.frames().subscribeKept(topics.finalModel(), 1, intake);
        // a second device under this peer id stops this one, saying so (see PeerInstance); once this process's
        // token is back, every message the broker held for the subscriptions above has been handled, and the
        // intake takes a final model from then on (told on the thread that handles the token)
        instance = PeerInstance.watch(transport, topics, cfg.peerId(), System::currentTimeMillis,
            cfg.stateDir(), intake::settle);
        if (!instance.watching()) {
          intake.settleWithoutToken(); // settled at once, with no token that came back
        }
        if (!resuming) {
          if (!instance.watching()) {
            log.accept("WARNING: without its instance topic this device cannot tell a final model the broker held "
                + "before this start (an earlier run's) from this run's");
          } else if (!instance.awaitOwnToken(SETTLING)) {
            log.accept("WARNING: this device's instance token did not come back through the broker within "
                + SETTLING.toSeconds() + " s (does its ACL let it publish " + topics.peerInstance(cfg.peerId())
                + "?): a final model the broker held before this start could be taken as this run's");
            intake.settleWithoutToken();
          }
          List<String> ignored = intake.ignoredNow();
          if (!ignored.isEmpty()) {
            checkpoints.rememberEarlierFinals(ignored); // a restart during this run takes none of them either
          }
        }
        // Announcements: who is online (the first ring peer waits for all), and who came back after a
        // restart (a model or update in flight to it is sent again at once)
        PeerAnnouncements peers = PeerAnnouncements.follow(transport, topics);
        CompletableFuture<Void> failure;
        ReleaseLog releaseLog = null;
        StarAggregator aggregator = null; // its progress goes into a run-timeout message
        switch (cfg.role()) {
          case "ring": {
            PrivacyLedger archive = PrivacyLedger.builder(s.ledgerSettings()).file(ledgerFile).repairingTornLastLine(log)
                .open();
            RingPeer peer = (encoding != null ? RingPeer.preparing(ctx, cfg.ringOrder(), encoding, archive)
                : new RingPeer(ctx, cfg.ringOrder(), data, archive)).journaling(checkpoints)
                .expectingClasses(cfg.classes());
            if (live != null) {
              // between its turns, a ring peer keeps collecting live windows and learns them at its next turn
              long perTurn = cfg.settings().perRound();
              WindowCollector collector = new WindowCollector(live.stream(), (int) Math.max(1, Math.min(perTurn, 10)),
                  (int) Math.min(Integer.MAX_VALUE / 4, perTurn), cfg.peerId(), live.repeatable().isPresent());
              running.add(collector);
              peer.learningFrom(collector, cfg.signal().keptWindows());
            }
            running.add(peer);
            intake.ringPeer(peer);
            ringOf.set(peer);
            boolean resumed = false;
            if (resuming) {
              Optional<RingCheckpoint> last = checkpoints.ring();
              List<ModelEnvelope> received = checkpoints.received();
              log.accept("resuming from " + checkpoints.dir() + ": " + last.map(c -> "step " + c.lastStep()
                  + (c.delivered() ? " delivered" : " not yet delivered: handing it on again")).orElse("no step of its own")
                  + (received.isEmpty() ? "" : ", " + received.size() + " received model(s) to train on") + "; ledger "
                  + archive.size() + " entries");
              peer.resume(last.orElse(null), received);
              resumed = last.isPresent() || !received.isEmpty();
            }
            peer.start();
            peers.onOnline(peer::peerOnline);
            PeerAnnouncements.announce(transport, topics, cfg.peerId(), cfg.startTimeout());
            if (cfg.ringOrder().get(0).equals(cfg.peerId()) && !resumed) {
              try {
                peers.awaitAll(Set.copyOf(cfg.ringOrder()), cfg.startTimeout(), instance.twin());
              } catch (io.hdfl.federation.FederationException e) { // peers never heard from: maybe not their fault
                throw new io.hdfl.federation.FederationException(e.getMessage()
                    + lostConnectionHint(transport, cfg, instance));
              }
              log.accept("all " + cfg.ringOrder().size() + " peers online: starting round 1");
              peer.kickOff();
            }
            failure = peer.failure();
            break;
          }
          case "star-client": {
            StarClient client = (live != null ? new StarClient(ctx, live.stream()) : encoding != null
                ? StarClient.preparing(ctx, encoding) : new StarClient(ctx, data))
                .expectingClasses(cfg.classes()).checkpointing(checkpoints.clientCommits())
                .recordingReleases(releaseLog = ReleaseLog.open(cfg.stateDir().resolve(ReleaseLog.FILE_NAME)));
            running.add(client);
            if (resuming) {
              Optional<ClientCheckpoint> last = checkpoints.client();
              if (last.isPresent()) {
                log.accept("resuming from " + checkpoints.dir() + ": round " + last.get().round()
                    + " answered; publishing that update again");
                client.resume(last.get());
              }
            }
            client.start();
            peers.onOnline(client::peerOnline);
            PeerAnnouncements.announce(transport, topics, cfg.peerId(), cfg.startTimeout());
            failure = client.failure();
            break;
          }
          default: {
            StarAggregator agg = new StarAggregator(ctx, cfg.starClients(), cfg.classes(),
                PrivacyLedger.builder(s.ledgerSettings()).file(ledgerFile).repairingTornLastLine(log).open())
                .checkpointing(checkpoints.aggregatorCommits());
            running.add(agg);
            aggregator = agg;
            if (resuming) {
              Optional<AggregatorCheckpoint> last = checkpoints.aggregator();
              if (last.isPresent()) {
                log.accept("resuming from " + checkpoints.dir() + ": round " + (last.get().round() - 1)
                    + " aggregated; publishing its model again");
                agg.resume(last.get());
              }
            }
            agg.start();
            // clients re-send the updates of the round in progress
            PeerAnnouncements.announce(transport, topics, cfg.peerId(), cfg.startTimeout());
            failure = agg.failure();
          }
        }
        log.accept(cfg.role() + " " + cfg.peerId() + " running in federation " + s.federation());
        FinalModelIntake.FinalFrame finalFrame;
        ModelEnvelope env;
        try {
          CompletableFuture<?> dataFailure = encoding == null ? new CompletableFuture<>()
              : encoding.thenCompose(d -> new CompletableFuture<Void>()); // fails only if encoding fails
          CompletableFuture.anyOf(intake.taken(), failure, dataFailure, instance.twin())
              .get(cfg.runTimeout().toMillis(), TimeUnit.MILLISECONDS);
          finalFrame = intake.taken().getNow(null);
          env = finalFrame.envelope();
        } catch (java.util.concurrent.TimeoutException e) {
          String refused = ctx.frames().refusedSummary();
          String progress = aggregator != null ? aggregator.progress()
              : ringOf.get() != null ? ringOf.get().progress() : null;
          throw new io.hdfl.federation.FederationException("no final model within " + cfg.runTimeout().toSeconds()
              + " s ('run.timeout.seconds')" + (progress == null ? "" : ": " + progress) + "; peers online now: "
              + io.hdfl.federation.PeerList.of(peers.onlineNow()) + lostConnectionHint(transport, cfg, instance)
              + "; is every peer running and reaching " + cfg.broker() + "?"
              + (refused == null ? "" : " This device refused " + refused + ": do the peers' settings differ (classes, "
              + "features, dim, basis.seed, encoder, federation)?"));
        } catch (java.util.concurrent.ExecutionException e) {
          if (e.getCause() instanceof IllegalArgumentException bad) { // this device's data or settings: exit 2
            throw new IllegalArgumentException("stopped: " + bad.getMessage(), bad);
          }
          throw new io.hdfl.federation.FederationException("stopped: " + e.getCause().getMessage());
        }
        RingPeer ringPeer = ringOf.get();
        if (ringPeer != null) {
          ringPeer.drain(java.time.Duration.ofSeconds(2)); // the last step's report comes after the final is out
          ringPeer.archiveFinal(env); // the entries after this peer's last turn
          io.hdfl.federation.CrashPoints.reached("device.final-archived", env.step());
          warnOfMissingPeers(cfg, env, log);
          if (ringPeer.archiveProblem() != null) {
            log.accept("WARNING: this device's ledger " + ledgerFile + " is incomplete: " + ringPeer.archiveProblem()
                + " (the final model carries the chain's last lap; the other devices' ledgers hold the rest)");
          }
        }
        ClassPrototypes model = ClassPrototypes.copyOf(env.classes(), env.dim(), env.prototypes());
        List<String> names = classNames != null ? classNames : io.hdfl.data.Dataset.indexClassNames(env.classes());
        Path modelFile = cfg.stateDir().resolve(ModelFile.FINAL_MODEL_NAME);
        ModelFile.write(new HdModel(s.encoder(), s.similarity(), model, names), modelFile);
        checkpoints.finish(env.round(), finalFrame.sha256());
        keys.publish(cfg.stateDir().resolve("keys"));
        offline = true;
        announceOfflineOrSay(transport, topics, cfg, log); // the run is done: a broker slow to confirm does not undo it
        return new Outcome(modelFile, ledgerFile,
            releaseLog == null || !Files.exists(releaseLog.file()) ? null : releaseLog.file(), env.round());
      } catch (io.hdfl.transport.TransportException e) {
        // a failure to subscribe or announce: a twin taking this device's connection may be why
        String hint = lostConnectionHint(transport, cfg, instance);
        throw hint.isEmpty() ? e : new io.hdfl.transport.TransportException(e.getMessage() + hint, e);
      } finally {
        if (!offline) {
          // a device that stops on an error closes its connection cleanly, so the broker drops its last
          // will: without this its retained word stayed "online", and a ring's first peer would count it
          announceOfflineOrSay(transport, topics, cfg, log);
        }
        for (int i = running.size() - 1; i >= 0; i--) {
          running.get(i).close();
        }
        transport.close();
        meter.meter().close();
      }
    } catch (Exception | Error e) {
      stopped = e;
      throw e;
    } finally {
      if (live != null) {
        try {
          live.close();
        } catch (java.io.IOException | RuntimeException closing) {
          if (stopped == null) {
            throw closing;
          }
          stopped.addSuppressed(closing); // the reason the device stopped is the one it reports
        }
      }
    }
  }

  /**
   * Encodes {@code d} on a thread of its own and returns the encodings to come. Meanwhile the device
   * checks its keys and roster, connects, subscribes and announces itself, so it is ready within about
   * a second of starting; a cold JVM takes longer than that to encode (the vector kernels are not
   * compiled yet), and the peer needs its encodings only at its first turn. The data file itself was
   * already read and checked, so a bad file still stops the start with a clear error.
   */
  private CompletableFuture<EncodedSet> encodeMeanwhile(PeerConfig cfg, Dataset d, Consumer<String> log) {
    CompletableFuture<EncodedSet> done = new CompletableFuture<>();
    int threads = Runtime.getRuntime().availableProcessors();
    Thread t = new Thread(() -> {
      try {
        long t0 = System.nanoTime();
        // the encoder is not needed once the stored data are encoded: its basis is never held whole,
        // and int8 encodings never exist as floats but a block at a time
        EncodedSet set = EncodedSet.encodeOnce(cfg.settings().encoder(), kernels, d.features(), d.size(), d.labels(),
            cfg.classes(), threads, cfg.encodings());
        log.accept(String.format(java.util.Locale.ROOT, "data: %d samples encoded at D=%d in %.2f s, kept as %s",
            set.size(), set.dim(), (System.nanoTime() - t0) / 1e9, cfg.encodings()));
        done.complete(set);
      } catch (RuntimeException | Error e) {
        log.accept("data: encoding failed: " + e);
        done.completeExceptionally(e);
      }
    }, "hdfl-encode-" + cfg.peerId());
    t.setDaemon(true);
    t.start();
    return done;
  }

  /**
   * Checks that this user may write in the (existing) state directory, before a run writes there or
   * anything connects: a device that could not commit its first step stopped mid-run, naming only a file.
   */
  private static void writable(Path stateDir) throws java.io.IOException {
    try {
      Files.delete(Files.createTempFile(stateDir, ".write-check", ".tmp"));
    } catch (java.nio.file.FileSystemException e) { // denied, read-only
      throw unwritable(stateDir, e);
    }
  }

  /** Creates the state directory if need be (a finished run's may stay read-only: it is only reported). */
  private static void stateDirectory(Path stateDir) throws java.io.IOException {
    try {
      Files.createDirectories(stateDir);
    } catch (java.nio.file.FileSystemException e) { // denied, read-only, a path through a file
      throw unwritable(stateDir, e);
    }
  }

  private static IllegalArgumentException unwritable(Path stateDir, java.nio.file.FileSystemException e) {
    return new IllegalArgumentException("'state.dir' " + stateDir + " cannot be written by this user ("
        + (e instanceof java.nio.file.AccessDeniedException ? "permission denied" : e.getReason() != null
        ? e.getReason() : e.getClass().getSimpleName()) + " on " + e.getFile() + "): give it a directory it owns");
  }

  /**
   * Creates this device's identity if it has none (Ed25519 {@code <id>.key} and X25519 {@code
   * <id>.kx}, owner-only, in the state directory; public halves in {@code <state>/keys}) and returns
   * the directory of its public files, which the operator copies into every peer's roster.
   */
  public Path init(Consumer<String> log) throws java.io.IOException {
    stateDirectory(config.stateDir());
    if (!Files.exists(identityFile(config)) || !Files.exists(hopKeyFile(config))) {
      writable(config.stateDir()); // keys to create (a device that has both may keep a read-only state)
    }
    identity(config, log);
    hopKeys(config, log);
    return config.stateDir().resolve("keys");
  }

  /**
   * Says which peers of the ring order have no entry of the final round among the final model's
   * lines (they were skipped: not running, or refusing this ring's models), so that a run that ended
   * without them does not pass for one of the whole ring.
   */
  private static void warnOfMissingPeers(PeerConfig cfg, ModelEnvelope fin, Consumer<String> log) {
    java.util.Set<String> took = new java.util.HashSet<>();
    for (String line : fin.ledgerLines()) {
      try {
        io.hdfl.privacy.ledger.LedgerEntry e = io.hdfl.privacy.ledger.LedgerCodec.parse(line);
        if (e.round() == fin.round()) {
          took.add(e.peer());
        }
      } catch (io.hdfl.privacy.ledger.LedgerFormatException e) {
        // not this check's to judge: ledger verify reports it
      }
    }
    List<String> missing = cfg.ringOrder().stream().filter(id -> !took.contains(id)).toList();
    if (!missing.isEmpty()) {
      log.accept("WARNING: the final model holds no update of " + missing + " in round " + fin.round() + " (of "
          + cfg.ringOrder().size() + " peers): they were skipped, as not running or refusing this ring's models; "
          + "see their logs (do their settings differ from this device's?)");
    }
  }

  /** The hop cipher when hops are encrypted (null otherwise), after checking the roster covers this peer's partners. */
  private static HopCipher hops(PeerConfig cfg, PeerKeys identity, Consumer<String> log) throws java.io.IOException {
    HopAead aead = cfg.settings().encryption();
    if (aead == null) {
      log.accept("hops are NOT encrypted ('encryption = none'): the broker and any subscriber can read the models");
      return null;
    }
    HopKeys own = hopKeys(cfg, log);
    AdmittedRoster admitted = admittedRoster(cfg, log);
    if (admitted.signed() != null) {
      RosterHistory.accept(rosterRecord(cfg), admitted.signed(), cfg.signedRoster());
    }
    checkAdmits(cfg, admitted.roster(), own, identity);
    log.accept("hops encrypted with " + aead.configName() + " for the peers in roster " + rosterSource(cfg));
    return new HopCipher(cfg.settings().federation(), own, admitted.roster(), aead);
  }

  /** The roster a device admits peers by, and the signed roster it holds when the federation signs one (else null). */
  record AdmittedRoster(Roster roster, SignedRoster signed) {}

  /** The record of the newest signed roster this device accepted ({@link RosterHistory}). */
  static Path rosterRecord(PeerConfig cfg) {
    return cfg.stateDir().resolve("roster.accepted");
  }

  /** Where the roster comes from: the signed roster's file, else the roster directory. */
  static Path rosterSource(PeerConfig cfg) {
    return cfg.federationKey() != null ? cfg.signedRoster() : cfg.rosterDir();
  }

  /**
   * Reads the roster ({@code roster.dir}, and the roster signed by {@code roster.federation.key} when
   * set), logging what it holds; records nothing.
   */
  static AdmittedRoster admittedRoster(PeerConfig cfg, Consumer<String> log) throws java.io.IOException {
    if (cfg.federationKey() != null) {
      SignedRoster signed = SignedRoster.read(cfg.signedRoster(), FederationKey.readPublic(cfg.federationKey()));
      if (!signed.federation().equals(cfg.settings().federation())) {
        throw new IllegalArgumentException(cfg.signedRoster() + ": is the roster of federation '" + signed.federation()
            + "', not of '" + cfg.settings().federation() + "'");
      }
      Roster roster = Roster.open(cfg.rosterDir(), signed);
      log.accept("roster version " + signed.version() + " (issued " + signed.issued() + ") signed by the federation key "
          + cfg.federationKey() + ": " + signed.members().size() + " members, " + signed.revoked().size() + " revoked"
          + (java.nio.file.Files.isDirectory(cfg.rosterDir()) ? ", plus the keys pinned in " + cfg.rosterDir() : ""));
      java.util.SortedSet<String> pinnedOnly = Roster.pinnedOnly(cfg.rosterDir(), signed);
      if (!pinnedOnly.isEmpty()) {
        List<String> named = pinnedOnly.stream().limit(20).toList();
        log.accept("WARNING: " + cfg.rosterDir() + " pins keys of " + named + (pinnedOnly.size() > named.size()
            ? " and " + (pinnedOnly.size() - named.size()) + " more" : "") + ", which the signed roster (version "
            + signed.version() + ") does not list: they are admitted as well. To leave them out, revoke them "
            + "(hdfl roster sign --revoke ID, or a line in " + cfg.rosterDir().resolve(Roster.REVOKED_FILE)
            + ") or remove their files");
      }
      return new AdmittedRoster(roster, signed);
    }
    try {
      return new AdmittedRoster(Roster.open(cfg.rosterDir()), null);
    } catch (java.nio.file.NoSuchFileException e) {
      throw new IllegalArgumentException("roster directory " + cfg.rosterDir() + " not found ('roster.dir'): copy "
          + "every peer's <id>" + HopKeys.PUBLIC_SUFFIX + " and <id>.pub (from its state directory's keys/, after 'hdfl "
          + "peer --init') "
          + "there, or set 'roster.federation.key' to admit the peers of a roster signed by the federation");
    }
  }

  /**
   * Checks that {@code roster} admits this device under its own keys and, for a ring peer, every peer
   * of the order: a ring peer opens its neighbours' models (their .kx.pub) and checks the final
   * model's signature (the signer's .pub); without either the run would end in a timeout, not an error.
   */
  static void checkAdmits(PeerConfig cfg, Roster roster, HopKeys own, PeerKeys identity) {
    checkOwnKeys(cfg, roster, own, identity);
    List<String> partners = cfg.role().equals("ring") ? cfg.ringOrder() : List.of();
    List<String> missing = new ArrayList<>();
    for (String id : partners) {
      try {
        roster.agreementKey(id);
        roster.signingKey(id);
      } catch (io.hdfl.security.SealException e) {
        missing.add(id);
      }
    }
    if (!missing.isEmpty()) {
      throw new IllegalArgumentException("roster " + rosterSource(cfg) + " does not admit " + missing + ": "
          + (cfg.federationKey() != null ? "have the federation sign a roster with them" : "add their <id>"
          + HopKeys.PUBLIC_SUFFIX + " and <id>.pub files") + " (or remove them from 'ring.order')");
    }
  }

  /**
   * Refuses to start when the roster admits this peer under other keys than the ones in its state
   * directory (new keys made in a fresh state directory, say): the other peers could not open its
   * frames nor check its signatures, and it would be skipped every round instead of being told.
   */
  private static void checkOwnKeys(PeerConfig cfg, Roster roster, HopKeys own, PeerKeys identity) {
    String id = cfg.peerId();
    List<String> differ = new ArrayList<>();
    try {
      if (!java.util.Arrays.equals(roster.agreementKey(id).getEncoded(), own.publicKey().getEncoded())) {
        differ.add(id + HopKeys.PUBLIC_SUFFIX);
      }
    } catch (io.hdfl.security.SealException e) {
      // not in the roster yet (its keys are being enrolled): its partners' check tells what is missing
    }
    try {
      if (!java.util.Arrays.equals(roster.signingKey(id).getEncoded(), identity.publicKey().getEncoded())) {
        differ.add(id + ".pub");
      }
    } catch (io.hdfl.security.SealException e) {
      // as above
    }
    if (!differ.isEmpty()) {
      throw new IllegalArgumentException("the roster's " + differ + " are not this device's keys in "
          + cfg.stateDir() + " (were they made again in a new state directory?): put the device's own keys back, "
          + "or copy its keys/" + id + HopKeys.PUBLIC_SUFFIX + " and keys/" + id + ".pub into every device's roster");
    }
  }

  /** The peer's X25519 key: created on first start (owner-only file), loaded afterwards. */
  private static HopKeys hopKeys(PeerConfig cfg, Consumer<String> log) throws java.io.IOException {
    Path file = hopKeyFile(cfg);
    if (Files.exists(file)) {
      return HopKeys.load(cfg.peerId(), file);
    }
    HopKeys k = HopKeys.generate(cfg.peerId());
    k.savePrivate(file);
    k.publish(Files.createDirectories(cfg.stateDir().resolve("keys")));
    log.accept("created key-agreement key " + file + " (public key in " + cfg.stateDir().resolve("keys") + ")");
    return k;
  }

  /** The private key file of the peer's X25519 key ({@link #hopKeys}). */
  static Path hopKeyFile(PeerConfig cfg) {
    return cfg.stateDir().resolve(cfg.peerId() + ".kx");
  }

  /** The private key file of the peer's Ed25519 identity ({@link #identity}). */
  static Path identityFile(PeerConfig cfg) {
    return cfg.stateDir().resolve(cfg.peerId() + ".key");
  }

  /** The peer's Ed25519 identity: created on first start (owner-only file), loaded afterwards. */
  private static PeerKeys identity(PeerConfig cfg, Consumer<String> log) throws java.io.IOException {
    Path file = identityFile(cfg);
    if (Files.exists(file)) {
      return PeerKeys.load(cfg.peerId(), file);
    }
    PeerKeys k = PeerKeys.generate(cfg.peerId());
    k.savePrivate(file);
    k.publish(cfg.stateDir().resolve("keys"));
    log.accept("created identity " + file + " (public key in " + cfg.stateDir().resolve("keys") + ")");
    return k;
  }

  /**
   * {@link ClientIdClash#afterConnect}'s hint for a device that stops for want of its peers, or empty
   * where the connection was never lost or {@link PeerInstance} has named the twin already.
   */
  private static String lostConnectionHint(Transport transport, PeerConfig cfg, PeerInstance instance) {
    return instance != null && instance.twin().isCompletedExceptionally() ? ""
        : ClientIdClash.afterConnect(transport, clientId(cfg));
  }

  /** The device's MQTT client id: its federation and peer id. */
  static String clientId(PeerConfig cfg) {
    return cfg.settings().federation() + "-" + cfg.peerId();
  }

  private static Transport connect(PeerConfig cfg, Topics topics) throws Exception {
    String clientId = clientId(cfg);
    MqttSettings.Builder b = brokerSettings(cfg, clientId)
        .will(new LastWill(topics.peer(cfg.peerId()), OFFLINE.getBytes(StandardCharsets.UTF_8), 1, true));
    try {
      return MqttTransport.connect(b.build());
    } catch (io.hdfl.transport.TransportException e) {
      throw ClientIdClash.onConnect(e, clientId);
    }
  }

  /** The device's broker ({@code broker}, its credentials and TLS files) for a connection as {@code clientId}. */
  static MqttSettings.Builder brokerSettings(PeerConfig cfg, String clientId) {
    MqttSettings.Builder b = MqttSettings.builder(cfg.broker()).clientId(clientId);
    if (cfg.username() != null) {
      b.credentials(cfg.username(), cfg.password() == null ? "" : cfg.password());
    }
    if (cfg.caFile() != null) {
      b.caFile(cfg.caFile());
    }
    if (cfg.clientCert() != null) {
      if (cfg.clientKey() == null) {
        throw new IllegalArgumentException("'broker.cert' needs 'broker.key'");
      }
      b.clientCertificate(cfg.clientCert(), cfg.clientKey());
    }
    return b;
  }

  /**
   * Whether a start of {@code cfg} resumes the run in progress in {@code checkpoints}' state directory
   * ({@link #resumeOrStartOver} for the role's ledger and, where none is resumed, for a star client's
   * record of what it sent, which belongs to one run as a ledger does).
   */
  static boolean resumes(PeerConfig cfg, StateCheckpoints checkpoints) throws java.io.IOException {
    if (resumeOrStartOver(checkpoints, ledgerFile(cfg))) {
      return true;
    }
    resumeOrStartOver(checkpoints, cfg.stateDir().resolve(ReleaseLog.FILE_NAME));
    return false;
  }

  /** The role's ledger in the state directory (null for a star client, which keeps none). */
  static Path ledgerFile(PeerConfig cfg) {
    return cfg.role().equals("star-client") ? null : cfg.stateDir().resolve("ledger.jsonl");
  }

  /**
   * A learner's stored data ({@code data.train}, read as {@code data.*} says).
   *
   * @throws IllegalArgumentException where its labels go beyond the configured {@code classes}
   */
  static Dataset storedData(PeerConfig cfg) throws java.io.IOException {
    Dataset d = Datasets.load(cfg.trainData(), cfg.loadOptions());
    if (d.numClasses() > cfg.classes()) {
      throw new IllegalArgumentException(cfg.trainData() + ": has labels up to " + (d.numClasses() - 1)
          + " but 'classes' is " + cfg.classes());
    }
    return d;
  }

  /** Why an aggregator cannot start without its clients' feature count, or null (it has one, or is no aggregator). */
  static String aggregatorWithoutFeatures(PeerConfig cfg) {
    return cfg.role().equals("aggregator") && cfg.settings().encoder().features() <= 1
        ? "an aggregator needs 'features' (the peers' input feature count) in its config" : null;
  }

  /**
   * Whether this start resumes a run in progress (its checkpoints are kept and its ledger continued)
   * rather than starting a new one.
   *
   * @param ledgerFile the role's ledger (null: a star client keeps none)
   * @throws IllegalArgumentException if the state directory holds a ledger but no checkpoint: it may
   *     be an interrupted run's, which is never silently discarded
   */
  private static boolean resumeOrStartOver(StateCheckpoints checkpoints, Path ledgerFile) throws java.io.IOException {
    if (checkpoints.inProgress()) {
      return true;
    }
    if (ledgerFile != null && Files.exists(ledgerFile) && Files.size(ledgerFile) > 0) {
      throw new IllegalArgumentException(ledgerFile + " holds a " + (ledgerFile.getFileName().toString()
          .equals(ReleaseLog.FILE_NAME) ? "record of sent updates" : "ledger") + " but " + checkpoints.dir()
          + " no checkpoint of a run in progress or finished: it may belong to an interrupted run; move it away to"
          + " start a new run");
    }
    return false;
  }

  /**
   * A ring peer's first live windows, on which it retrains (with those collected between its turns, in
   * the same form). A resumed peer whose replayed source has nothing left starts with none: it takes
   * its turns without data of its own (adding the noise the schedule asks) and can save the final model.
   */
  private static EncodedSet ringWindows(PeerConfig cfg, LiveData live, boolean resuming, Consumer<String> log)
      throws InterruptedException {
    try {
      EncodedSet data = cfg.encodings().apply(live.stream().next(cfg.settings().perRound()));
      log.accept("data: " + data.size() + " live windows collected for the ring");
      return data;
    } catch (java.io.UncheckedIOException e) {
      if (!resuming || !live.ended() || live.identity() == null) {
        throw e; // a sensor or a broker that ended, or a first start on a recording with nothing to learn
      }
      log.accept("data: " + live.identity() + " has nothing left to learn: this peer takes its turns with no data of "
          + "its own");
      return cfg.encodings().apply(EncodedSet.of(new float[0], 0, cfg.settings().encoder().dim(), new int[0],
          cfg.classes()));
    }
  }

  /** What a model in a checkpoint must match, as a received one. */
  static io.hdfl.codec.Expectations expectations(FederationSettings s) {
    return io.hdfl.codec.Expectations.builder().federation(s.federation()).encoder(s.encoder().kind().id())
        .features(s.encoder().features()).basisSeed(s.encoder().basisSeed()).dim(s.encoder().dim()).build();
  }

  /** The device profile of {@code energy.profile}, else this machine's default. */
  static io.hdfl.sensors.energy.DeviceProfile profile(PeerConfig cfg) {
    return DeviceProfiles.resolve(cfg.profile() != null ? cfg.profile() : DeviceProfiles.defaultName());
  }

  /** {@link #announceOffline}, saying so where it could not be confirmed. */
  private static void announceOfflineOrSay(Transport transport, Topics topics, PeerConfig cfg, Consumer<String> log) {
    try {
      announceOffline(transport, topics, cfg);
    } catch (io.hdfl.transport.TransportException | RuntimeException e) {
      log.accept("could not announce itself offline: " + e.getMessage());
    }
  }

  /** Publishes this peer's retained "offline" (what its last will says when its connection drops). */
  static void announceOffline(Transport transport, Topics topics, PeerConfig cfg)
      throws io.hdfl.transport.TransportException {
    // at most a few seconds: a broker that takes no acknowledgement (the embedded Moquette with a dead
    // session loop) held a stopping device for the whole operation timeout, a minute; unconfirmed, the
    // announcement may still arrive, and a device that cannot make it is one its peers skip
    CompletableFuture<Void> sent = CompletableFuture.runAsync(() -> {
      try {
        transport.publish(topics.peer(cfg.peerId()), OFFLINE.getBytes(StandardCharsets.UTF_8), 1, true);
      } catch (io.hdfl.transport.TransportException e) {
        throw new java.util.concurrent.CompletionException(e);
      }
    });
    try {
      sent.get(OFFLINE_CONFIRMATION.toMillis(), TimeUnit.MILLISECONDS);
    } catch (java.util.concurrent.TimeoutException e) {
      throw new io.hdfl.transport.TransportException("the broker did not confirm this device's offline announcement "
          + "within " + OFFLINE_CONFIRMATION.toSeconds() + " s");
    } catch (java.util.concurrent.ExecutionException e) {
      throw e.getCause() instanceof io.hdfl.transport.TransportException te ? te
          : new io.hdfl.transport.TransportException(String.valueOf(e.getCause().getMessage()), e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new io.hdfl.transport.TransportException("interrupted while announcing this device offline", e);
    }
  }

  /** The meter {@code energy.meter} names (an INA219), else the best one found (read in the background either way). */
  static DetectedMeter energyMeter(PeerConfig cfg, io.hdfl.sensors.energy.DeviceProfile profile) {
    if (cfg.ina219() == null) {
      return EnergyMeters.forRuns(profile);
    }
    try {
      DetectedMeter m = EnergyMeters.ina219ForRuns(cfg.ina219());
      return new DetectedMeter(m.meter(), m.reason() + " (energy.meter = ina219)");
    } catch (io.hdfl.sensors.energy.MeterUnavailableException e) {
      throw new IllegalArgumentException("'energy.meter = ina219': " + e.reason());
    }
  }
}
