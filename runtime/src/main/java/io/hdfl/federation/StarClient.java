package io.hdfl.federation;

import io.hdfl.security.Roster;

import io.hdfl.codec.EnvelopeCodec;
import io.hdfl.codec.EnvelopeException;
import io.hdfl.codec.ModelEnvelope;
import io.hdfl.concurrent.SerialWorker;
import io.hdfl.hd.ClassPrototypes;
import io.hdfl.hd.EncodedSet;
import io.hdfl.privacy.PrivacyParameters;
import io.hdfl.privacy.ledger.LedgerCodec;
import io.hdfl.privacy.ledger.LedgerEntry;
import io.hdfl.privacy.schedule.ModelNoiseState;
import io.hdfl.privacy.schedule.NoisePolicy;
import io.hdfl.security.SealException;
import io.hdfl.transport.TransportException;
import io.hdfl.transport.TransportStats;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A FedHDPrivacy client. For each new global model (retained on {@code star/global}) it takes L new
 * samples from its stream, bundles them into the global model and retrains on them, adds the noise its
 * policy decides on top of the noise the global model carries, signs its ledger entry (chained to the
 * aggregate entry that came with the global model) and publishes its update. A global model of a round
 * it already answered is not trained on again; the aggregator announces a round again only while it
 * still waits for updates, so the client then sends the same update again (sealed afresh) — once its
 * last send is at least {@link #RESEND_AFTER} old, a wait that doubles with each resend, so a round
 * that is merely slow costs few repeats. An update lost on the way (say, published while a restarted
 * broker did not yet have the aggregator's subscription back) would otherwise stall the round. The
 * aggregator keeps one update per client and round.
 *
 * <p>With a {@link Checkpointer} (a device) the update is committed before it is published; {@link
 * #resume} re-publishes it after a restart, and so does {@link #peerOnline} when the aggregator itself
 * restarted (it keeps no updates across a crash). README "Crash safety".
 */
public final class StarClient implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger("io.hdfl.federation");

  private final PeerContext ctx;
  private final LocalStream stream;
  private final LocalUpdate update;
  private final Topics topics;
  private final SerialWorker worker;
  private volatile int lastRound;
  /** The class count this client's data have ({@link #expectingClasses}), or -1 where not told. */
  private int expectedClasses = -1;
  /** The last round whose samples the data source failed to give (logged once per round). */
  private int failedRound;
  /** Whether the data source has ended for good (logged once). */
  private boolean sourceEnded;
  /** The first wait before an update is sent again: the aggregator's re-announce period. */
  static final long RESEND_AFTER = java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(StarAggregator.REANNOUNCE_MILLIS);
  /** The update of {@link #lastRound} (unsealed) and whom it went to, sent again if that round is re-announced. */
  private byte[] lastUpdate;
  private String lastUpdateTo;
  private long lastSentAt;
  private long resendAfter;
  /** The aggregator announced itself since the update was last sent: a re-announced round gets it at once. */
  private volatile boolean aggregatorBack;
  /**
   * When an announcement of the aggregator last made this client send its update again: at most once
   * every {@link #RESEND_AFTER} (announcements are not authenticated, and a flood of forged ones queued
   * a publish of the update each).
   */
  private final java.util.concurrent.atomic.AtomicLong lastComeback =
      new java.util.concurrent.atomic.AtomicLong(System.nanoTime() - RESEND_AFTER);
  private volatile boolean closed;
  private Checkpointer<ClientCheckpoint> checkpoints = Checkpointer.none();
  /** This device's record of the updates it released (null: none kept, as in a simulation). */
  private ReleaseLog releases;
  /** The last committed update (re-sent when the aggregator restarts); null before the first. */
  private volatile ClientCheckpoint committed;
  private long samplesTaken;
  private final CompletableFuture<Void> failure = new CompletableFuture<>();
  /** Global models waiting for the worker: bounded (the aggregator announces a round again while it waits). */
  private final io.hdfl.concurrent.IntakeLimit intake;
  /** Counters at the previous report: a report covers everything since (the model received included). */
  private TransportStats lastStats = new TransportStats(0, 0, 0, 0);

  /**
   * A client learning from a stored shard, L samples a round.
   *
   * @throws IllegalArgumentException if the shard holds fewer than R × L samples (each is learned once)
   */
  public StarClient(PeerContext ctx, EncodedSet data) {
    this(ctx, new SampleStream(data, ctx.settings().seed() ^ ctx.id().hashCode()));
    String shortfall = shortfall(ctx, data);
    if (shortfall != null) {
      throw new IllegalArgumentException(shortfall);
    }
  }

  /**
   * A client learning from a stored shard whose encodings are still being prepared: it subscribes at
   * once and waits for them when the first global model arrives. Once they are ready, a shard of fewer
   * than R × L samples stops the client ({@link #failure}) with the reason, before any round needs them.
   */
  public static StarClient preparing(PeerContext ctx, CompletableFuture<EncodedSet> data) {
    StarClient c = new StarClient(ctx, new PreparingSampleStream(data, ctx.settings().seed() ^ ctx.id().hashCode()));
    data.thenAccept(d -> {
      String shortfall = shortfall(ctx, d);
      if (shortfall != null) {
        LOG.log(System.Logger.Level.ERROR, shortfall + "; stopping");
        c.failure.completeExceptionally(new IllegalArgumentException(shortfall));
      }
    });
    return c;
  }

  /** Why {@code data} cannot give this client R rounds of L new samples, or null if it can. */
  private static String shortfall(PeerContext ctx, EncodedSet data) {
    return SampleStream.shortfall("client " + ctx.id(), data.size(), ctx.settings().rounds(), ctx.settings().perRound());
  }

  /** A client learning from {@code stream} (e.g. a live signal source), L samples a round. */
  public StarClient(PeerContext ctx, LocalStream stream) {
    this.ctx = ctx;
    this.stream = stream;
    PrivacyParameters p = ctx.settings().params();
    this.update = new LocalUpdate(ctx, NoisePolicy.of(ctx.settings().privacy(), p, 1.0));
    this.topics = ctx.topics();
    this.worker = new SerialWorker("hdfl-client-" + ctx.id());
    this.intake = new io.hdfl.concurrent.IntakeLimit("client " + ctx.id(), io.hdfl.concurrent.IntakeLimit.quarterOfHeap());
  }

  /**
   * The class count of this client's data (call before {@link #start}): a global model of another count
   * is refused before any new sample is taken for it (before, each announcement of its round took and
   * lost a round's samples), and, signed under the roster and announced live, stops the client as
   * configured apart ({@link SettingsMismatch}). Returns this client.
   */
  public StarClient expectingClasses(int classes) {
    if (classes < 1) {
      throw new IllegalArgumentException("classes must be >= 1, got " + classes);
    }
    this.expectedClasses = classes;
    return this;
  }

  /** Commits every update before publishing it (call before {@link #start}). Returns this client. */
  public StarClient checkpointing(Checkpointer<ClientCheckpoint> checkpoints) {
    this.checkpoints = java.util.Objects.requireNonNull(checkpoints, "checkpoints");
    return this;
  }

  /**
   * Records every update's signed ledger line in {@code releases} before the update leaves (call before
   * {@link #start}); an update whose line cannot be recorded is not sent, and the client stops. Returns
   * this client.
   */
  public StarClient recordingReleases(ReleaseLog releases) {
    this.releases = java.util.Objects.requireNonNull(releases, "releases");
    return this;
  }

  /**
   * Continues after a restart (call before {@link #start}): answers no global model of the
   * checkpoint's round or earlier, positions a stored shard after the samples already learned, and
   * publishes the committed update again (the aggregator keeps one update per client and round, and
   * drops one for a round it has closed).
   */
  public void resume(ClientCheckpoint last) {
    // committed, and maybe not recorded yet when the device stopped: recorded before it is sent again
    if (!recorded(last.update(), last.round())) {
      return;
    }
    committed = last;
    lastRound = last.round();
    samplesTaken = last.samplesTaken();
    stream.resumeAfter(samplesTaken);
    lastUpdate = EnvelopeCodec.encode(last.update());
    lastUpdateTo = last.aggregator();
    lastSentAt = System.nanoTime();
    resendAfter = RESEND_AFTER;
    worker.execute(this::republish);
  }

  /** Completes exceptionally if this client stopped because it could not commit an update. */
  public CompletableFuture<Void> failure() {
    return failure;
  }

  /**
   * Tells this client that {@code id} announced itself online: when that is the aggregator it
   * publishes its last update again, since a restarted aggregator lost the updates it held (at most
   * once every {@link #RESEND_AFTER}).
   */
  public void peerOnline(String id) {
    ClientCheckpoint c = committed;
    if (c != null && c.aggregator().equals(id) && !closed) {
      aggregatorBack = true; // the round's next re-announcement then brings the update at once (resendUpdate)
      long now = System.nanoTime();
      long last = lastComeback.get();
      // a restarted aggregator also announces its round again until the update comes, and with
      // aggregatorBack set the client answers the next of those at once: an announcement dropped here
      // costs at most one re-announce period
      if (now - last >= RESEND_AFTER && lastComeback.compareAndSet(last, now)) {
        worker.execute(this::republish);
      }
    }
  }

  private void republish() {
    ClientCheckpoint c = committed;
    if (c == null) {
      return;
    }
    try {
      ctx.publishReliably(topics.starUpdate(ctx.id()), ctx.sealFor(c.aggregator(), EnvelopeCodec.encode(c.update())),
          false, true);
    } catch (SealException e) {
      LOG.log(System.Logger.Level.ERROR, "client " + ctx.id() + ": cannot encrypt its update for "
          + Roster.quoted(c.aggregator()) + ": " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  public void start() throws TransportException {
    ctx.transport().subscribe(topics.starGlobal(), 1, ctx.frames().receiver((topic, payload, retained) -> {
      if (!closed && intake.admit(payload.length)) {
        worker.execute(() -> {
          intake.release(payload.length);
          onGlobal(payload, retained);
        });
      }
    }));
  }

  /** @param retained whether the broker delivered it as retained (from before this subscription) */
  private void onGlobal(byte[] payload, boolean retained) {
    ModelEnvelope env;
    try {
      env = EnvelopeCodec.decode(payload, ctx.expectations());
    } catch (EnvelopeException e) {
      // configured apart from the aggregator: no round of this run can be answered (not told by a retained
      // model, which may be an earlier run's aggregator's: the aggregator announces its round every 2 s)
      String apart = retained ? null
          : SettingsMismatch.ofSigned(ctx, payload, e, ModelEnvelope.Kind.GLOBAL_MODEL, Math.max(1, lastRound));
      if (apart != null) {
        failure.completeExceptionally(new IllegalArgumentException(apart));
        return;
      }
      ctx.refused("client " + ctx.id() + ": rejected a global model: " + e.getMessage());
      return;
    }
    if (env.kind() != ModelEnvelope.Kind.GLOBAL_MODEL || env.round() < lastRound) {
      return;
    }
    if (!ctx.acceptBroadcast(env, "a global model") || failure.isDone()) {
      return;
    }
    if (env.round() == lastRound) {
      resendUpdate();
      return;
    }
    if (expectedClasses > 0 && env.classes() != expectedClasses) {
      if (!retained && ctx.encrypted() && env.round() <= ctx.settings().rounds()) { // signed: checked above
        failure.completeExceptionally(new IllegalArgumentException(SettingsMismatch.stopForClasses(env,
            expectedClasses)));
      } else {
        ctx.refused("client " + ctx.id() + ": rejected a global model: " + SettingsMismatch.ofClasses(env,
            expectedClasses));
      }
      return;
    }
    if (env.round() > ctx.settings().rounds()) {
      // answered, it would make this client ignore every real round as older
      ctx.refused("client " + ctx.id() + ": ignored a global model of round " + env.round()
          + " from " + Roster.quoted(env.sender()) + ": the run has " + ctx.settings().rounds() + " rounds");
      return;
    }
    long t0 = System.nanoTime();
    long cpu0 = ThreadCpu.nanos();
    int round = env.round();
    EncodedSet fresh;
    if (stream.ended()) {
      sourceEnded(round, null);
      return;
    }
    try {
      fresh = stream.next(ctx.settings().perRound());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return;
    } catch (RuntimeException e) {
      if (stream.ended()) {
        sourceEnded(round, e.getMessage());
        return;
      }
      // the round stays unanswered: the aggregator announces it again while it waits, and the client tries again
      if (failedRound != round) {
        failedRound = round;
        LOG.log(System.Logger.Level.ERROR, "client " + ctx.id() + ": its data source failed, so it cannot answer round "
            + round + " (it tries again when the round is announced again): " + e.getMessage());
      }
      return;
    }
    ClassPrototypes model = ClassPrototypes.copyOf(env.classes(), env.dim(), env.prototypes());
    String prev = env.ledgerLines().isEmpty() ? LedgerEntry.GENESIS_HASH
        : LedgerCodec.hash(env.ledgerLines().get(env.ledgerLines().size() - 1));
    LocalUpdate.Outcome out;
    try {
      out = update.apply(model, fresh, true, -1, new ModelNoiseState(env.presentVariance(), env.samplesAbsorbed()),
          round, round, prev, ctx.settings().seed() * 1_000_003L + round * 7919L + ctx.id().hashCode());
    } catch (RuntimeException e) {
      // a global model it cannot train on (another class count than its data's, say): the round stays
      // unanswered, and the aggregator's own model of that round is trained on when it comes again
      LOG.log(System.Logger.Level.ERROR, "client " + ctx.id() + ": cannot train on the global model of round " + round
          + " from " + Roster.quoted(env.sender()) + " (its " + fresh.size() + " new samples are lost): " + e);
      samplesTaken += fresh.size(); // the stream is past them: a restart resumes after them too
      return;
    }
    lastRound = round;
    lastUpdate = null;
    CrashPoints.reached("client.trained", round);
    var s = ctx.settings();
    ModelEnvelope upd = new ModelEnvelope(ModelEnvelope.Kind.CLIENT_UPDATE, s.federation(), ctx.id(), round, round,
        s.encoder().kind().id(), s.encoder().features(), s.encoder().basisSeed(), model.dim(), model.classes(),
        out.after().presentVariance(), out.after().samplesAbsorbed(), List.of(out.line().text()), null,
        model.toArray());
    // committed before it is published: a restart re-sends this very update and never draws its noise again
    ClientCheckpoint state = new ClientCheckpoint(round, ctx.noise().position(), samplesTaken + fresh.size(),
        env.sender(), upd);
    try {
      checkpoints.commit(state);
    } catch (java.io.IOException | RuntimeException e) {
      LOG.log(System.Logger.Level.ERROR, "client " + ctx.id() + ": cannot commit its update of round " + round
          + "; stopping: " + e.getMessage());
      failure.completeExceptionally(e);
      return;
    }
    CrashPoints.reached("client.checkpointed", round);
    if (!recorded(upd, round)) {
      return;
    }
    committed = state;
    samplesTaken = state.samplesTaken();
    lastUpdate = EnvelopeCodec.encode(upd);
    lastUpdateTo = env.sender();
    lastSentAt = System.nanoTime();
    resendAfter = RESEND_AFTER;
    try {
      ctx.publishReliably(topics.starUpdate(ctx.id()), ctx.sealFor(env.sender(), lastUpdate), false, true);
    } catch (SealException e) {
      LOG.log(System.Logger.Level.ERROR, "client " + ctx.id() + ": cannot encrypt its update for " + Roster.quoted(env.sender()) + ": "
          + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return;
    }
    CrashPoints.reached("client.published", round);
    TransportStats now = ctx.transport().stats();
    TransportStats io = now.since(lastStats);
    lastStats = now;
    ctx.reports().accept(new RoundReport(ctx.id(), round, round, (System.nanoTime() - t0) / 1e9,
        (ThreadCpu.nanos() - cpu0 + update.takeAheadCpuNanos()) / 1e9, Double.NaN, "",
        io.bytesSent(), io.bytesReceived(), out.decision().samplesAdded(), out.decision().required(),
        out.decision().presentAfter(), out.decision().added()));
    if (round < s.rounds()) {
      update.prepareNext(model.vectors().length, null, 0, -1, 0); // while the aggregator waits for the round's updates
    }
  }

  /**
   * Records the update's ledger line in this device's release record, if it keeps one; false (and the
   * client stopped) if that failed: a draw that is not recorded must not leave the device.
   */
  private boolean recorded(ModelEnvelope upd, int round) {
    if (releases == null) {
      return true;
    }
    try {
      releases.record(upd.ledgerLines().get(upd.ledgerLines().size() - 1));
      return true;
    } catch (java.io.IOException | RuntimeException e) {
      LOG.log(System.Logger.Level.ERROR, "client " + ctx.id() + ": cannot record its update of round " + round
          + " in " + releases.file() + "; stopping: " + e.getMessage());
      failure.completeExceptionally(e);
      return false;
    }
  }

  /** Sends the update of the last round answered again, if due. */
  private void resendUpdate() {
    boolean back = aggregatorBack;
    if (lastUpdate == null || !back && System.nanoTime() - lastSentAt < resendAfter) {
      return;
    }
    aggregatorBack = false;
    lastSentAt = System.nanoTime();
    resendAfter = back ? RESEND_AFTER : resendAfter * 2; // a restarted aggregator starts the back-off afresh
    try {
      ctx.publishReliably(topics.starUpdate(ctx.id()), ctx.sealFor(lastUpdateTo, lastUpdate), false, true);
    } catch (SealException e) {
      LOG.log(System.Logger.Level.ERROR, "client " + ctx.id() + ": cannot encrypt its update for "
          + Roster.quoted(lastUpdateTo) + ": " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() {
    closed = true;
    worker.stop();
    ctx.transport().close();
  }

  /**
   * The data source has ended for good (a replayed recording read to its end): no round can be answered
   * any more, so the source is not asked again; the federation goes on without this client (quorum,
   * deadline) and it still takes the final model. Said once.
   */
  private void sourceEnded(int round, String why) {
    if (!sourceEnded) {
      sourceEnded = true;
      LOG.log(System.Logger.Level.WARNING, "client " + ctx.id() + ": its data source has ended" + (why == null ? ""
          : " (" + why + ")") + ": it answers no more rounds, from round " + round + " on, and waits for the final"
          + " model");
    }
  }
}
