package io.hdfl.federation;

import io.hdfl.security.Roster;

import io.hdfl.codec.EnvelopeCodec;
import io.hdfl.codec.EnvelopeException;
import io.hdfl.codec.ModelEnvelope;
import io.hdfl.concurrent.SerialWorker;
import io.hdfl.hd.ClassPrototypes;
import io.hdfl.hd.EncodedSet;
import io.hdfl.privacy.ledger.LedgerCodec;
import io.hdfl.privacy.ledger.LedgerEntry;
import io.hdfl.privacy.ledger.LedgerFormatException;
import io.hdfl.privacy.schedule.ModelNoiseState;
import io.hdfl.privacy.schedule.NoisePolicy;
import io.hdfl.security.HopCipher;
import io.hdfl.security.SealException;
import io.hdfl.transport.TransportException;
import io.hdfl.transport.TransportStats;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A PrivateDFL ring peer. It receives the model on its inbox, verifies the envelope, trains (bundling
 * its shard into the class prototypes in round 1, as PrivateDFL does; retraining on its cached
 * encodings in every later round), adds the noise its policy
 * decides, signs its ledger entry, and hands the model to the next peer, waiting for that peer's
 * application ack; a peer that does not ack in time is skipped (the ring continues, and the accountant
 * stays exact because it counts only updates that happened). A duplicate delivery (same step) is
 * acknowledged again but never trained or noised twice. After the last step of round R the model is
 * published, retained, as the final model.
 *
 * <p>With a {@link RingJournal} (a device) the peer is crash-safe: a received model is persisted
 * before it is acknowledged, the trained and noised outgoing model with its ledger entry is committed
 * before anything of it leaves, and its delivery after the ack; {@link #resume} continues from there
 * (README "Crash safety").
 *
 * <p>All work runs on the peer's own thread; transport callbacks only open, check, persist and enqueue.
 */
public final class RingPeer implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger("io.hdfl.federation");
  private static final int ACK_ATTEMPTS = 2;
  /**
   * How many times one hand-off is sent again at once because its peer announced itself online. A peer
   * that restarts comes back once, and this allows for a few more restarts while the hand-off waits;
   * beyond that an announcement no longer cuts the ack timeout short. Announcements are not
   * authenticated: forged "online" announcements for a dead peer held its hand-off for ever (never
   * counted as unanswered) and made this peer publish its model once per announcement.
   */
  static final int MOST_COMEBACKS = 3;
  /**
   * After this peer's own connection came back, unanswered hand-offs do not count for this long: the
   * outage was probably the broker's, and the other peers are reconnecting too (Paho's back-off
   * reaches {@code MqttSettings#maxReconnectDelay}, 8 s by default).
   */
  static final java.time.Duration RECONNECT_GRACE = java.time.Duration.ofSeconds(20);

  private final PeerContext ctx;
  private final List<String> order;
  private final int index;
  /** Cached encodings; grows by the live windows taken at each turn. */
  private EncodedSet data;
  /** The class count a device's config gives its data (-1: not told), known before its data are. */
  private volatile int expectedClasses = -1;
  /** Encodings still being prepared (null: {@link #data} was given). */
  private CompletableFuture<EncodedSet> pendingData;
  /** Live windows that arrived since this peer's previous turn (null: a fixed data set). */
  private java.util.function.Supplier<EncodedSet> arrivals;
  /** The most live windows this peer retrains on (its latest); see {@link #learningFrom}. */
  private int keptWindows = Integer.MAX_VALUE;
  private final LocalUpdate update;
  private final Topics topics;
  private final SerialWorker worker;
  /** Received models waiting for the worker: bounded (one dropped is not acknowledged, so it is sent again). */
  private final io.hdfl.concurrent.IntakeLimit intake;
  private final ConcurrentHashMap<Long, CompletableFuture<Void>> pendingAcks = new ConcurrentHashMap<>();
  private volatile long lastStep = -1;
  /** Where this peer's last model went (null before this run's first hand-off): see {@link #progress}. */
  private volatile Handed handed;

  /** A hand-off of step {@code step}: being handed on, acknowledged by {@code to}, or published as the final model. */
  private record Handed(long step, String to, boolean isFinal) {}
  /** Whether this peer's data are already bundled into the model it passed on. */
  private boolean bundled;
  /** Connection losses of this peer's transport seen so far, and when the last one was noticed. */
  private long knownLosses;
  private long reconnectedAt = System.nanoTime() - RECONNECT_GRACE.toNanos();
  private final io.hdfl.privacy.ledger.PrivacyLedger archive;
  /** The first line {@link #archive} could not append (guarded by this). */
  private String archiveProblem;
  /** The settings every entry of this ring is signed under. */
  private final io.hdfl.privacy.ledger.LedgerSettings ledgerSettings;
  /**
   * prev_hash of the chain entries this peer saw last: in a linear chain each parent is extended
   * once, so a model whose last entry extends an already extended parent is a fork (e.g. from a slow
   * peer that was skipped but forwarded its copy late) and is dropped. Only the entries of this
   * peer's own last turn can matter: a model that is not a duplicate ({@code step > lastStep}) has a
   * last entry of step lastStep or later, whose parent this peer can only have seen extended by its
   * own entry. Those are remembered last, so four rings' worth of hashes keep them with room to spare.
   */
  private final RecentHashes extendedParents;
  /** The hashes of the chain entries this peer saw last (see {@link #extendedParents}). */
  private final RecentHashes seenLines;
  private long archivedStep;
  private volatile boolean closed;
  private RingJournal journal = RingJournal.NONE;
  /** The latest step of a final model this peer was told of (-1: none; see {@link #finalSeen}). */
  private final java.util.concurrent.atomic.AtomicLong finalStepSeen = new java.util.concurrent.atomic.AtomicLong(-1);
  /** Takes each entry this peer signs (see {@link #reportingEntries}). */
  private java.util.function.Consumer<String> entries = line -> { };
  /** The state last committed to the journal. */
  private RingCheckpoint committed;
  /** Completes exceptionally if this peer cannot go on safely (its journal failed). */
  private final CompletableFuture<Void> failure = new CompletableFuture<>();
  /** The hand-off in progress: the peer it waits for, and what wakes it when that peer comes back online. */
  private volatile Handoff handoff;

  private record Handoff(String peer, CompletableFuture<Void> online) {}
  /** Counters at the previous report: a report covers everything since (the model received included). */
  private TransportStats lastStats = new TransportStats(0, 0, 0, 0);
  /** Samples in the model this peer last handed on (-1: none yet): the others' share follows from the next. */
  private long lastAbsorbed = -1;

  /**
   * @param order the ring's peer ids in order; this peer is {@code ctx.id()}
   * @param data this peer's cached encodings
   */
  public RingPeer(PeerContext ctx, List<String> order, EncodedSet data) {
    this(ctx, order, data, null);
  }

  /**
   * @param archive where to keep the federation's ledger as this peer sees it (every line since its
   *     previous turn arrives with the model, so the chain is complete from genesis); null for none
   */
  public RingPeer(PeerContext ctx, List<String> order, EncodedSet data, io.hdfl.privacy.ledger.PrivacyLedger archive) {
    this.archive = archive;
    this.ledgerSettings = ctx.settings().ledgerSettings();
    this.ctx = ctx;
    this.order = List.copyOf(order);
    this.index = order.indexOf(ctx.id());
    if (index < 0) {
      throw new IllegalArgumentException("peer " + ctx.id() + " is not in the ring " + order);
    }
    this.data = data;
    int remembered = 4 * (order.size() + 1);
    this.extendedParents = new RecentHashes(remembered);
    this.seenLines = new RecentHashes(remembered);
    if (archive != null) {
      // a restarted device continues its ledger: the chain it has seen so far is the fork reference
      for (io.hdfl.privacy.ledger.LedgerLine l : archive.lines()) {
        extendedParents.add(l.entry().prevHash());
        seenLines.add(l.hash());
        archivedStep = l.entry().step();
      }
    }
    this.update = new LocalUpdate(ctx, NoisePolicy.of(ctx.settings().privacy(), ctx.settings().params(), 1.0));
    this.topics = ctx.topics();
    this.worker = new SerialWorker("hdfl-peer-" + ctx.id());
    this.intake = new io.hdfl.concurrent.IntakeLimit("peer " + ctx.id(), io.hdfl.concurrent.IntakeLimit.quarterOfHeap());
  }

  /**
   * A peer whose encodings are still being prepared (a device encodes its data while it connects and
   * announces itself): it subscribes and acknowledges at once, and its worker waits for {@code data}
   * at its first turn. If preparing the data fails, the peer stops ({@link #failure()}).
   */
  public static RingPeer preparing(PeerContext ctx, List<String> order, CompletableFuture<EncodedSet> data,
      io.hdfl.privacy.ledger.PrivacyLedger archive) {
    RingPeer p = new RingPeer(ctx, order, null, archive);
    p.pendingData = java.util.Objects.requireNonNull(data, "data");
    return p;
  }

  /**
   * Tells this peer the class count its data will have ({@code classes} of a device's config), so that
   * it refuses a model of another count at once, also while its data are still being prepared: it then
   * never acknowledges a model its worker would drop. Returns this peer.
   */
  public RingPeer expectingClasses(int classes) {
    if (classes < 1) {
      throw new IllegalArgumentException("classes must be >= 1, got " + classes);
    }
    this.expectedClasses = classes;
    return this;
  }

  /** This peer's class count: its data's where known, else the one it expects ({@link #expectingClasses}), else -1. */
  private int knownClasses() {
    EncodedSet known = data; // read off the worker: a class count never changes once known
    CompletableFuture<EncodedSet> pending = pendingData;
    if (known == null && pending != null && pending.isDone() && !pending.isCompletedExceptionally()) {
      known = pending.getNow(null);
    }
    return known != null ? known.classes() : expectedClasses;
  }

  /** This peer's encodings, waiting for them if they are still being prepared; null if that failed. */
  private EncodedSet data() {
    if (data == null && pendingData != null) {
      try {
        data = pendingData.get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return null;
      } catch (java.util.concurrent.ExecutionException e) {
        failure.completeExceptionally(e.getCause());
        return null;
      }
    }
    return data;
  }

  /**
   * Lets this peer learn from live windows between its turns: at each turn after the first it bundles
   * what {@code arrivals} returns (null or empty: nothing new) and retrains on the {@code keep} latest
   * windows it has, always including those it bundles then. Older windows stay in the model (bundled
   * and retrained on in earlier rounds) but are let go, so a long run's memory and turn time stay bounded.
   * Returns this peer.
   */
  public RingPeer learningFrom(java.util.function.Supplier<EncodedSet> arrivals, int keep) {
    if (keep < 1) {
      throw new IllegalArgumentException("a live ring peer keeps at least 1 window to retrain on, got " + keep);
    }
    this.arrivals = arrivals;
    this.keptWindows = keep;
    return this;
  }

  /**
   * Gives each ledger entry this peer signs, as its line, to {@code entries} once the step is
   * committed and before it is handed on (call before {@link #start}): an entry the next peer takes is
   * there even if this peer never hears its ack. Returns this peer.
   */
  public RingPeer reportingEntries(java.util.function.Consumer<String> entries) {
    this.entries = java.util.Objects.requireNonNull(entries, "entries");
    return this;
  }

  /** Commits this peer's progress to {@code journal} (call before {@link #start}). Returns this peer. */
  public RingPeer journaling(RingJournal journal) {
    this.journal = java.util.Objects.requireNonNull(journal, "journal");
    return this;
  }

  /**
   * Continues after a restart (call before {@link #start}): restores the step counter and whether
   * this peer's data are bundled, hands on again an outgoing model that was not delivered (the next
   * peer acknowledges a step it already has without training it twice), then trains on the models
   * that were acknowledged but not yet handed on, oldest first.
   *
   * @param last the last committed state (null: this peer had not produced a step yet)
   * @param received the persisted models not yet handed on
   */
  public void resume(RingCheckpoint last, List<ModelEnvelope> received) {
    if (last != null) {
      committed = last;
      lastStep = last.lastStep();
      // live windows collected since the restart are new to the model: bundled at the next turn
      bundled = last.bundled() && arrivals == null;
      if (!last.delivered()) {
        worker.execute(() -> {
          try {
            handOn(last.outgoing());
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        });
      }
    }
    List<ModelEnvelope> pending = new ArrayList<>(received);
    pending.sort(java.util.Comparator.comparingLong(ModelEnvelope::step));
    for (ModelEnvelope env : pending) {
      worker.execute(() -> process(env));
    }
  }

  /**
   * Completes exceptionally if this peer stopped because it could not commit its state (a full or
   * failing disk): going on would risk losing a model or a ledger entry in a crash.
   */
  public CompletableFuture<Void> failure() {
    return failure;
  }

  /**
   * Tells this peer that {@code id} announced itself online (a device restarted): if a hand-off is
   * waiting for that peer's ack, the model is sent again now rather than after the ack timeout (at
   * most {@link #MOST_COMEBACKS} times a hand-off).
   */
  public void peerOnline(String id) {
    Handoff h = handoff;
    if (h != null && h.peer().equals(id)) {
      h.online().complete(null);
    }
  }

  /** Subscribes to the inbox and the ack topic. */
  public void start() throws TransportException {
    ctx.transport().subscribe(topics.ringAcks(ctx.id()), 1, (topic, payload, retained) -> onAck(payload));
    // A model is opened, checked, persisted and acknowledged on receipt (the transport's thread), and
    // trained on this peer's worker: an ack never waits behind this peer's own hand-off (which, during
    // a broker outage, can take a while), so a resend is answered at once and never mistaken for a dead
    // peer. The worker is given the model before the ack is sent: over MQTT the ack's publish waits for
    // the broker's PUBACK, a round trip that would otherwise delay every hop of the ring.
    ctx.transport().subscribe(topics.ringInbox(ctx.id()), 1, ctx.frames().receiver((topic, payload, retained) -> {
      // a model dropped for want of room is not acknowledged: its sender sends it again
      if (!closed && intake.admit(payload.length)) {
        Received r;
        try {
          r = onModel(payload);
        } catch (RuntimeException | Error e) {
          intake.release(payload.length);
          throw e;
        }
        if (r == null) {
          intake.release(payload.length);
        } else {
          worker.execute(() -> {
            intake.release(payload.length);
            process(r.env());
          });
          sendAck(r.env());
          if (r.fresh()) {
            CrashPoints.reached("ring.acked", r.env().step() + 1);
          }
        }
      }
    }));
    // the randomness of this peer's first noise, drawn while it waits for its first turn
    worker.execute(() -> {
      EncodedSet local = data();
      if (local != null) {
        update.prepareNext(local.classes() * ctx.settings().encoder().dim(), new ModelNoiseState(0.0, 0),
            local.size(), index, (long) index * local.size());
      }
    });
  }

  /** Starts round 1 from an empty model (called on the first peer only). */
  public void kickOff() {
    var s = ctx.settings();
    worker.execute(() -> {
      EncodedSet local = data();
      if (local == null) {
        return;
      }
      process(new ModelEnvelope(ModelEnvelope.Kind.RING_MODEL, s.federation(), ctx.id(), 1, 0,
          s.encoder().kind().id(), s.encoder().features(), s.encoder().basisSeed(), s.encoder().dim(), local.classes(),
          0.0, 0, List.of(), null, new float[local.classes() * s.encoder().dim()]));
    });
  }

  /** A model to acknowledge; {@code fresh} unless it repeats a step this peer already produced. */
  private record Received(ModelEnvelope env, boolean fresh) {}

  /**
   * Opens and checks a received model and persists it if it is fresh; null if it is not one to
   * acknowledge (a duplicate is acknowledged again, and dropped by {@link #process}).
   */
  private Received onModel(byte[] payload) {
    HopCipher.Opened opened = ctx.open(payload, "a model");
    if (opened == null) {
      return null;
    }
    ModelEnvelope env;
    try {
      env = EnvelopeCodec.decode(opened.frame(), ctx.expectations());
    } catch (EnvelopeException e) {
      ctx.refused("peer " + ctx.id() + ": rejected a model: " + e.getMessage());
      return null;
    }
    if (!ctx.senderMatches(opened, env, "a model")) {
      return null;
    }
    if (env.kind() != ModelEnvelope.Kind.RING_MODEL) {
      ctx.refused("peer " + ctx.id() + ": ignored a " + env.kind() + " on its inbox");
      return null;
    }
    // a step or round no hop of this run has: acknowledged and journaled, it would make every real
    // model look like a duplicate of a step already taken, or leave a journal entry a restart refuses
    long lastOfRun = (long) order.size() * ctx.settings().rounds();
    if (env.step() < 0 || env.step() >= lastOfRun || env.round() < 1 || env.round() > ctx.settings().rounds()) {
      ctx.refused("peer " + ctx.id() + ": rejected a model from " + Roster.quoted(env.sender())
          + ": step " + env.step() + " of round " + env.round() + " is not a hop of this run (" + order.size()
          + " peers, " + ctx.settings().rounds() + " rounds)");
      return null;
    }
    String problem = senderEntryProblem(env);
    int classes = knownClasses();
    if (problem == null && classes > 0 && env.classes() != classes) {
      // not acknowledged: its sender skips this peer and the ring goes on, instead of waiting for a hand-off
      // this peer took and then dropped
      problem = "it has " + env.classes() + " classes, this peer's data " + classes + " (do the peers' 'classes' "
          + "differ?)";
    }
    if (problem != null) {
      ctx.refused("peer " + ctx.id() + ": rejected a model from " + Roster.quoted(env.sender())
          + " (step " + env.step() + "): " + problem);
      return null;
    }
    long step = env.step() + 1;
    boolean fresh = step > lastStep; // else a duplicate of a step this peer already produced
    if (fresh) {
      CrashPoints.reached("ring.received", step);
      try {
        journal.received(env.step(), opened.frame()); // durable before the sender may forget it
      } catch (java.io.IOException | RuntimeException e) {
        LOG.log(System.Logger.Level.ERROR, "peer " + ctx.id() + ": cannot persist the model of step " + env.step()
            + ", so it is not acknowledged (the sender will resend it): " + e.getMessage());
        return null;
      }
      CrashPoints.reached("ring.persisted", step);
    }
    return new Received(env, fresh);
  }

  /**
   * Why a received model is not what its sender's own ledger entry (the last line it carries) says it
   * sent, or null if it is: the entry has the federation's settings and is the sender's update of this
   * step and round, recording the noise state the model claims (present variance, samples absorbed),
   * which is what this peer calibrates its noise to; with encrypted hops it is signed by the sender's
   * key in the roster. (Read as {@link LedgerCodec#recordsUpdate} reads it: a line that does not parse
   * may pass, and {@code ledger verify} refuses it.) A model whose claimed noise disagreed with its
   * entry was trained on and noised as the claim said (a forged higher variance: too little noise
   * added, caught only by a later {@code ledger verify}). Only the first peer starts from no entry, and
   * it sends none such.
   */
  private String senderEntryProblem(ModelEnvelope env) {
    if (env.ledgerLines().isEmpty()) {
      return "it carries no ledger entry (only the ring's first peer starts from none, on its own)";
    }
    String last = env.ledgerLines().get(env.ledgerLines().size() - 1);
    // a model handed on past the end of the order is of the next round: its sender's entry is of the last
    int sender = order.indexOf(env.sender());
    int round = sender >= 0 && index <= sender ? env.round() - 1 : env.round();
    if (LedgerCodec.recordsUpdate(last, ledgerSettings, env.sender(), round, env.step(), env.samplesAbsorbed(),
        env.presentVariance())) {
      return ctx.ledgerSignatureProblem(last, env.sender());
    }
    // not as an honest peer writes it: parsed, to say why (or to take a valid line in another form)
    LedgerEntry e;
    try {
      e = LedgerCodec.parse(last);
    } catch (LedgerFormatException ex) {
      return "its last ledger line is malformed: " + ex.getMessage();
    }
    if (!ledgerSettings.matches(e)) {
      return "its last ledger entry does not match the federation's ledger settings";
    }
    if (!e.peer().equals(env.sender()) || e.step() != env.step() || e.round() != round
        || e.kind() != LedgerEntry.Kind.UPDATE) {
      return "its last ledger entry is not its sender's update of step " + env.step() + " (round " + round + ")";
    }
    if (e.samplesTotal() != env.samplesAbsorbed() || Double.compare(e.presentAfter(), env.presentVariance()) != 0) {
      return "its noise state (" + env.samplesAbsorbed() + " samples, variance " + env.presentVariance()
          + ") is not the one its sender's ledger entry records (" + e.samplesTotal() + ", " + e.presentAfter() + ")";
    }
    return ctx.ledgerSignatureProblem(last, env.sender());
  }

  /** {@link #drop(ModelEnvelope)} with a logged reason. */
  private void drop(ModelEnvelope env, String why) {
    ctx.refused("peer " + ctx.id() + ": dropped a model from " + Roster.quoted(env.sender())
        + " (step " + env.step() + "): " + why);
    drop(env);
  }

  /** Forgets a received model that will not be trained on (a duplicate, a fork, a bad line). */
  private void drop(ModelEnvelope env) {
    try {
      journal.consumed(env.step());
    } catch (java.io.IOException e) {
      LOG.log(System.Logger.Level.WARNING, "peer " + ctx.id() + ": cannot forget the model of step " + env.step()
          + " (a restart will drop it again): " + e.getMessage());
    }
  }

  private void process(ModelEnvelope env) {
    if (failure.isDone() || data() == null) {
      return;
    }
    long step = env.step() + 1;
    if (step <= lastStep) {
      drop(env);
      return; // duplicate delivery: acknowledged again, never trained or noised twice
    }
    String prev = LedgerEntry.GENESIS_HASH;
    if (!env.ledgerLines().isEmpty()) {
      String last = env.ledgerLines().get(env.ledgerLines().size() - 1);
      prev = LedgerCodec.hash(last);
      int parent;
      try {
        parent = LedgerCodec.prevHashAt(last);
      } catch (LedgerFormatException e) {
        drop(env, "its last ledger line is malformed: " + e.getMessage());
        return;
      }
      if (!seenLines.contains(prev) && extendedParents.contains(last, parent)) {
        drop(env, "it forks the chain: its parent entry was already extended");
        return;
      }
    }
    long t0 = System.nanoTime();
    long cpu0 = ThreadCpu.nanos();
    int round = env.round();
    ClassPrototypes model = ClassPrototypes.copyOf(env.classes(), env.dim(), env.prototypes());
    ModelNoiseState before = new ModelNoiseState(env.presentVariance(), env.samplesAbsorbed());
    if (env.classes() != data.classes()) {
      drop(env, "it has " + env.classes() + " classes, this peer's data " + data.classes());
      return;
    }
    if (env.samplesAbsorbed() > Long.MAX_VALUE / 2) { // no run absorbs 2^62 samples: the count would overflow
      drop(env, "it claims " + env.samplesAbsorbed() + " samples absorbed");
      return;
    }
    EncodedSet fresh = round > 1 && arrivals != null ? arrivals.get() : null;
    EncodedSet all = data;
    if (fresh != null && fresh.size() > 0) {
      // learned once by bundling, then retrained on with the latest of the rest; windows never bundled
      // (a peer that has not taken a turn yet) are all kept
      EncodedSet kept = bundled ? data.latest(Math.max(0, keptWindows - fresh.size())) : data;
      all = kept.concat(fresh);
    } else {
      fresh = null;
    }
    // the first turn this peer really takes bundles its data (round 1, or later for a peer that missed it);
    // round 1 trains (bundles) only, as PrivateDFL does, and every later round retrains
    EncodedSet toBundle = bundled ? fresh : all;
    int epochs = round == 1 ? 0 : ctx.settings().retrainEpochs();
    LocalUpdate.Outcome out;
    try {
      out = update.apply(model, all, toBundle, epochs, -1, before, round, step, prev,
          ctx.settings().seed() * 1_000_003L + step);
    } catch (RuntimeException e) {
      // not the model's fault (it passed the checks above): this peer stops, and a device's restart
      // finds the model still in its journal and tries again
      LOG.log(System.Logger.Level.ERROR, "peer " + ctx.id() + ": training on the model of step " + env.step()
          + " failed; stopping: " + e);
      failure.completeExceptionally(e);
      return;
    }
    data = all;
    bundled = true;
    CrashPoints.reached("ring.trained", step);
    List<String> tail = new ArrayList<>(env.ledgerLines());
    tail.add(out.line().text());
    // Committed before anything of this step leaves the peer: a restart hands on this very model
    // (the same noise, the same signed entry) and never draws noise for the step again.
    // the model is not changed after this: the envelope takes its array without a copy
    ModelEnvelope outgoing = envelope(ModelEnvelope.Kind.RING_MODEL, model.classes(), model.dim(), model.vectors(),
        out.after(), round, step, tail);
    try {
      commit(new RingCheckpoint(step, true, ctx.noise().position(), outgoing));
    } catch (java.io.IOException e) {
      return;
    }
    lastStep = step;
    drop(env);
    CrashPoints.reached("ring.checkpointed", step);
    try {
      handOn(outgoing);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // shut down: this peer's work ends here
      return;
    }
    // After the hand-off, while the next peer trains: the lines only matter to this peer's next
    // received model, which its worker takes after this one (about 0.15 ms a hop for K=100).
    remember(tail);
    TransportStats now = ctx.transport().stats();
    TransportStats io = now.since(lastStats);
    lastStats = now;
    ctx.reports().accept(new RoundReport(ctx.id(), round, step, (System.nanoTime() - t0) / 1e9,
        (ThreadCpu.nanos() - cpu0 + update.takeAheadCpuNanos()) / 1e9, Double.NaN, "",
        io.bytesSent(), io.bytesReceived(), out.decision().samplesAdded(), out.decision().required(),
        out.decision().presentAfter(), out.decision().added()));
    if (round < ctx.settings().rounds()) {
      // off the ring's critical path (the next peer trains now), expecting the others to absorb what
      // they did in the last cycle (before a first one: as many samples as this peer)
      long others = lastAbsorbed >= 0 ? env.samplesAbsorbed() - lastAbsorbed : (long) (order.size() - 1) * data.size();
      update.prepareNext(model.vectors().length, out.after(), data.size(), order.size() - 1, Math.max(0, others));
    }
    lastAbsorbed = out.after().samplesAbsorbed();
  }

  /**
   * Records the lines of {@code tail}, ending with this peer's new one, for fork detection. Hashes by
   * chain linkage: in an intact tail, line i's prev_hash is line i-1's hash, so only this peer's new
   * line is hashed, not the K lines that travel with every model. Fork detection is a safeguard
   * against stale copies, not a security check: the ledger verifier checks the linkage. (A method of
   * its own: as a loop inside {@link #process} it made the JIT compile all of that twice, once
   * on-stack while the loop ran.)
   */
  private void remember(List<String> tail) {
    for (int i = 0; i < tail.size(); i++) {
      String line = tail.get(i);
      int parent;
      try {
        parent = LedgerCodec.prevHashAt(line);
      } catch (LedgerFormatException e) {
        continue; // not this peer's to judge: the ledger verifier reports it
      }
      extendedParents.add(line, parent);
      if (i > 0) {
        seenLines.add(line, parent);
      }
    }
    seenLines.add(LedgerCodec.hash(tail.get(tail.size() - 1)));
  }

  /**
   * Archives the committed outgoing model's ledger lines, reports this peer's entry (see {@link
   * #reportingEntries}), hands the model on and publishes the entry on its ledger topic, and commits
   * the delivery.
   */
  private void handOn(ModelEnvelope outgoing) throws InterruptedException {
    long step = outgoing.step();
    List<String> tail = new ArrayList<>(outgoing.ledgerLines());
    archive(tail);
    CrashPoints.reached("ring.archived", step);
    try {
      entries.accept(tail.get(tail.size() - 1));
    } catch (RuntimeException e) {
      // whoever collects the entries has failed; the model goes on regardless, as with the archive
      LOG.log(System.Logger.Level.ERROR, "peer " + ctx.id() + ": cannot report the ledger entry of step " + step
          + ": " + e);
    }
    byte[] own = tail.get(tail.size() - 1).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    while (tail.size() > order.size()) {
      tail.remove(0);
    }
    forward(outgoing, tail, own);
    try {
      commit(committed.asDelivered());
    } catch (java.io.IOException e) {
      return;
    }
    CrashPoints.reached("ring.delivered", step);
  }

  /** Commits {@code state}; on failure stops this peer (see {@link #failure()}) and rethrows. */
  private void commit(RingCheckpoint state) throws java.io.IOException {
    try {
      journal.commit(state);
      committed = state;
    } catch (java.io.IOException | RuntimeException e) {
      LOG.log(System.Logger.Level.ERROR, "peer " + ctx.id() + ": cannot commit step " + state.lastStep()
          + "; stopping (handing on an uncommitted model could lose it, or its ledger entry, in a crash): "
          + e.getMessage());
      java.io.IOException io = e instanceof java.io.IOException ioe ? ioe : new java.io.IOException(e.getMessage(), e);
      failure.completeExceptionally(io);
      throw io;
    }
  }

  /**
   * Where this peer stands, for a device's run-timeout message: its last step and who acknowledged it
   * (that peer, or one after it, holds the model now), or that it has taken no turn.
   */
  public String progress() {
    Handed h = handed;
    if (h == null) {
      long step = lastStep; // a resumed peer's, handed on before its restart
      return step < 0 ? "this peer has taken no turn yet" : "this peer's last step was " + step;
    }
    if (h.isFinal()) {
      return "this peer published the final model of step " + h.step();
    }
    return h.to() == null ? "this peer's last step " + h.step() + " is not acknowledged yet (it is still handing it on)"
        : "this peer's last step was " + h.step() + ", acknowledged by " + Roster.quoted(h.to())
            + " (it, or a peer after it, holds the model)";
  }

  /**
   * Waits up to {@code max} for this peer's turn in progress, and the models queued before, to end: the
   * peer that made the last step reports that turn only after its final model is out, and a device
   * that closes this peer as soon as it has the final model lost that report (and its progress line).
   * Returns whether they ended.
   */
  public boolean drain(java.time.Duration max) throws InterruptedException {
    return worker.drain(max);
  }

  /**
   * Archives the ledger lines the final model {@code fin} carries that this peer has not archived yet:
   * the entries of the peers after its last turn, which no model brings it otherwise. With them its
   * ledger is the whole chain, up to the entry of the final model. A line that cannot be archived is
   * logged, never thrown: the final model is worth keeping whatever its ledger lines. Ignores any
   * other kind of envelope.
   */
  public void archiveFinal(ModelEnvelope fin) {
    if (fin.kind() == ModelEnvelope.Kind.FINAL_MODEL) {
      archive(fin.ledgerLines());
    }
  }

  /**
   * Why this peer's archive stopped short of the chain (the first line it could not append), or null
   * if it has every line it was given.
   */
  public synchronized String archiveProblem() {
    return archiveProblem;
  }

  /** Appends the lines of {@code tail} this peer has not archived yet, in chain order. */
  private synchronized void archive(List<String> tail) {
    if (archive == null) {
      return;
    }
    for (String text : tail) {
      io.hdfl.privacy.ledger.LedgerEntry e;
      try {
        e = LedgerCodec.parse(text);
        if (e.step() > archivedStep) {
          archive.appendLine(new io.hdfl.privacy.ledger.LedgerLine(text, e));
          archivedStep = e.step();
        }
      } catch (java.io.IOException | IllegalArgumentException | IllegalStateException ex) {
        // a malformed or unchained line, or a full ledger: logged, and the model goes on regardless
        LOG.log(System.Logger.Level.ERROR, "peer " + ctx.id() + ": cannot archive a ledger line after step "
            + archivedStep + ": " + ex.getMessage());
        if (archiveProblem == null) {
          archiveProblem = "a ledger line after step " + archivedStep + " could not be archived: " + ex.getMessage();
        }
        return;
      }
    }
  }

  /**
   * Hands the model to the next live peer and then publishes this peer's ledger entry {@code own}, or,
   * after the last step of round R, publishes the entry and then the model as final. The entry
   * travels in the model's ledger lines too, so it is published after a hand-off: over MQTT its
   * publish waits for the broker's PUBACK, a round trip that would otherwise delay every hop. Before
   * the final model it comes first, so that a subscriber to the ledger topics (an operator's
   * dashboard, say) has the last entry when the final model comes.
   */
  private void forward(ModelEnvelope outgoing, List<String> tail, byte[] own) throws InterruptedException {
    var s = ctx.settings();
    int round = outgoing.round();
    long step = outgoing.step();
    handed = new Handed(step, null, false);
    for (int hop = 1; hop < order.size() + 1; hop++) {
      int next = (index + hop) % order.size();
      int nextRound = next <= index ? round + 1 : round;
      if (nextRound > s.rounds()) {
        publishFinal(outgoing, tail, own);
        return;
      }
      String nextId = order.get(next);
      ModelEnvelope env = envelope(ModelEnvelope.Kind.RING_MODEL, outgoing, nextRound, tail);
      try {
        if (deliver(nextId, EnvelopeCodec.encode(env), step)) {
          handed = new Handed(step, nextId, false);
          publishEntry(own);
          return;
        }
      } catch (SealException e) {
        LOG.log(System.Logger.Level.ERROR, "peer " + ctx.id() + ": cannot encrypt for " + nextId + " (" + e.getMessage()
            + "); skipping it");
        continue;
      }
      LOG.log(System.Logger.Level.WARNING, "peer " + ctx.id() + ": " + nextId + " did not acknowledge step " + step
          + " within " + s.ackTimeout().toMillis() + " ms; skipping it");
    }
    publishFinal(outgoing, tail, own); // nobody else is alive
  }

  private void publishEntry(byte[] own) throws InterruptedException {
    ctx.publishReliably(topics.ledger(ctx.id()), own, false, false);
  }

  /** Starts the reconnect grace when this peer's transport has lost its connection since last looked. */
  private void noteReconnects() {
    long losses = ctx.transport().connectionLosses();
    if (losses != knownLosses) {
      knownLosses = losses;
      reconnectedAt = System.nanoTime();
    }
  }

  /**
   * Publishes the frame to {@code nextId} until it acknowledges; false once {@link #ACK_ATTEMPTS}
   * attempts went unanswered while this peer's own connection stayed up. An attempt during which
   * this peer's connection dropped (a broker restart, say) does not count against the next peer:
   * this peer waits to reconnect and tries again, since it holds the ring's only copy of the model.
   * Each attempt is sealed afresh: a receiver refuses a replayed sealed frame, but a resent step is
   * acknowledged again and never trained twice.
   */
  private boolean deliver(String nextId, byte[] frame, long step) throws SealException, InterruptedException {
    int unanswered = 0;
    int comebacks = 0;
    while (unanswered < ACK_ATTEMPTS) {
      noteReconnects();
      long losses = ctx.transport().connectionLosses();
      CompletableFuture<Void> acked = new CompletableFuture<>();
      CompletableFuture<Void> online = new CompletableFuture<>();
      pendingAcks.put(step, acked);
      handoff = new Handoff(nextId, online);
      try {
        ctx.frames().publish(topics.ringIn(nextId, ctx.id()), ctx.sealFor(nextId, frame), 1, false);
        CrashPoints.reached("ring.forwarded", step);
        (comebacks < MOST_COMEBACKS ? CompletableFuture.anyOf(acked, online) : acked)
            .get(ctx.settings().ackTimeout().toMillis(), TimeUnit.MILLISECONDS);
        if (acked.isDone()) {
          CrashPoints.reached("ring.ack-received", step);
          return true;
        }
        // the next peer restarted (and subscribed) since: send again now, not counted as unanswered
        comebacks++;
        LOG.log(System.Logger.Level.INFO, "peer " + ctx.id() + ": " + nextId + " came back online; handing it step "
            + step + " again" + (comebacks < MOST_COMEBACKS ? "" : " (the last time an announcement of it cuts the "
            + "wait for its ack short during this hand-off)"));
      } catch (TransportException e) {
        LOG.log(System.Logger.Level.WARNING, "peer " + ctx.id() + ": could not hand step " + step + " to " + nextId + " ("
            + e.getMessage() + "); retrying once reconnected");
        ctx.awaitConnected();
        noteReconnects();
      } catch (TimeoutException e) {
        if (ctx.transport().connectionLosses() != losses || !ctx.transport().isConnected()) {
          ctx.awaitConnected();
          noteReconnects();
        } else if (System.nanoTime() - reconnectedAt >= RECONNECT_GRACE.toNanos()) {
          unanswered++;
        } // else: within the grace after this peer's own outage the next peer is likely reconnecting too
      } catch (java.util.concurrent.ExecutionException e) {
        return false;
      } finally {
        pendingAcks.remove(step);
        handoff = null;
      }
    }
    return false;
  }

  /**
   * Tells this peer that the ring's final model {@code fin} is out (call it as soon as it arrives):
   * if this peer later gives up a hand-off that was in fact taken (its ack lost), it then does not
   * publish a final model of its own a step or more shorter, which the broker would keep retained in
   * place of the full one. Ignores any other kind of envelope.
   */
  public void finalSeen(ModelEnvelope fin) {
    if (fin.kind() == ModelEnvelope.Kind.FINAL_MODEL) {
      finalStepSeen.accumulateAndGet(fin.step(), Math::max);
    }
  }

  /**
   * Publishes this peer's ledger entry {@code own}, then {@code outgoing} as the final model, unless a
   * final model of a later step is already out (see {@link #finalSeen}).
   */
  private void publishFinal(ModelEnvelope outgoing, List<String> tail, byte[] own) throws InterruptedException {
    publishEntry(own);
    long step = outgoing.step();
    long later = finalStepSeen.get();
    if (later > step) {
      LOG.log(System.Logger.Level.INFO, "peer " + ctx.id() + ": the final model of step " + later
          + " is out, so its own of step " + step + " is not published");
      return;
    }
    ModelEnvelope env = envelope(ModelEnvelope.Kind.FINAL_MODEL, outgoing, outgoing.round(), tail);
    ctx.publishKeptReliably(topics.finalModel(), ctx.broadcastFrame(env));
    handed = new Handed(step, null, true);
    CrashPoints.reached("ring.final-published", step);
  }

  /** {@code outgoing}'s model, noise state and step as a {@code kind} envelope for {@code round}. */
  private ModelEnvelope envelope(ModelEnvelope.Kind kind, ModelEnvelope outgoing, int round, List<String> tail) {
    return envelope(kind, outgoing.classes(), outgoing.dim(), outgoing.prototypes(),
        new ModelNoiseState(outgoing.presentVariance(), outgoing.samplesAbsorbed()), round, outgoing.step(), tail);
  }

  /**
   * An envelope of this peer's holding {@code prototypes} itself, not a copy (envelopes are never
   * changed): the caller must not change the array afterwards.
   */
  private ModelEnvelope envelope(ModelEnvelope.Kind kind, int classes, int dim, float[] prototypes, ModelNoiseState out,
      int round, long step, List<String> tail) {
    var s = ctx.settings();
    return new ModelEnvelope(kind, s.federation(), ctx.id(), round, step, s.encoder().kind().id(),
        s.encoder().features(), s.encoder().basisSeed(), dim, classes, out.presentVariance(),
        out.samplesAbsorbed(), tail, null, prototypes);
  }

  private void sendAck(ModelEnvelope received) {
    var s = ctx.settings();
    ModelEnvelope ack = new ModelEnvelope(ModelEnvelope.Kind.ACK, s.federation(), ctx.id(), received.round(),
        received.step(), s.encoder().kind().id(), s.encoder().features(), s.encoder().basisSeed(), received.dim(),
        received.classes(), 0, 0, List.of(), null, null);
    try {
      ctx.transport().publish(topics.ringAck(received.sender(), ctx.id()), ctx.sealFor(received.sender(), EnvelopeCodec.encode(ack)),
          1, false);
    } catch (SealException e) {
      LOG.log(System.Logger.Level.WARNING, "peer " + ctx.id() + ": cannot encrypt an ack for " + Roster.quoted(received.sender()) + ": "
          + e.getMessage());
    } catch (TransportException e) {
      LOG.log(System.Logger.Level.WARNING, "peer " + ctx.id() + ": could not acknowledge step " + received.step()
          + ": " + e.getMessage());
    }
  }

  private void onAck(byte[] payload) {
    HopCipher.Opened opened = ctx.open(payload, "an ack");
    if (opened == null) {
      return;
    }
    try {
      ModelEnvelope ack = EnvelopeCodec.decode(opened.frame(), ctx.expectations());
      CompletableFuture<Void> f = pendingAcks.get(ack.step());
      Handoff h = handoff;
      if (ack.kind() == ModelEnvelope.Kind.ACK && f != null && ctx.senderMatches(opened, ack, "an ack")) {
        if (h != null && !h.peer().equals(ack.sender())) {
          // only the peer the step was handed to can take it: another peer's ack (with hops encrypted, an
          // admitted peer's) would end the hand-off with the model nowhere
          ctx.refused("peer " + ctx.id() + ": ignored an ack of step " + ack.step() + " from "
              + Roster.quoted(ack.sender()) + ": the step was handed to " + h.peer());
          return;
        }
        f.complete(null);
      }
    } catch (EnvelopeException e) {
      ctx.refused("peer " + ctx.id() + ": rejected an ack: " + e.getMessage());
    }
  }

  @Override
  public void close() {
    closed = true;
    worker.stop();
    ctx.transport().close();
  }
}
