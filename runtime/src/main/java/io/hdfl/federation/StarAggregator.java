package io.hdfl.federation;

import io.hdfl.security.Roster;

import io.hdfl.codec.EnvelopeCodec;
import io.hdfl.codec.EnvelopeException;
import io.hdfl.codec.ModelEnvelope;
import io.hdfl.privacy.ledger.LedgerCodec;
import io.hdfl.privacy.ledger.LedgerEntry;
import io.hdfl.privacy.ledger.LedgerLine;
import io.hdfl.privacy.ledger.NoiseRecord;
import io.hdfl.privacy.ledger.PrivacyLedger;
import io.hdfl.privacy.schedule.ModelNoiseState;
import io.hdfl.privacy.schedule.NoiseDecision;
import io.hdfl.privacy.schedule.NoisePolicy;
import io.hdfl.security.HopCipher;
import io.hdfl.transport.TransportException;
import io.hdfl.transport.TransportStats;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The FedHDPrivacy aggregator. It publishes the global model of each round (retained, with the round
 * and the noise it carries), collects the clients' updates of that round, averages them once every
 * client answered — or, with a quorum below K, once the quorum is met and the round's deadline has
 * passed (later updates of that round are dropped and logged) — records γ = present/required and
 * adds only what is missing (nothing while γ ≥ 1, as the paper proves for its K, L, r), appends the
 * clients' entries and its own to its ledger, and publishes the next global model; after round R the
 * final model, retained. A client's update that arrives after its round was averaged is in no average,
 * but its noise was drawn and it was sent: its entry is appended to the ledger when it arrives (on a
 * device, on disk before anything else happens), and the next aggregate names it (once per client
 * and round; not after the last round, when the aggregator stops).
 *
 * <p>With a {@link Checkpointer} (a device) each aggregation is committed before its ledger lines are
 * appended and its model published; {@link #resume} continues from the last one after a restart. The
 * updates of the round in progress are not kept: clients re-send them when the restarted aggregator
 * announces itself online; late updates already recorded are in the ledger, and the next aggregate
 * names them. README "Crash safety".
 */
public final class StarAggregator implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger("io.hdfl.federation");

  private final PeerContext ctx;
  private final int clients;
  private final Topics topics;
  private final PrivacyLedger ledger;
  private final ScheduledExecutorService worker;
  private final Map<String, ModelEnvelope> updates = new java.util.TreeMap<>(); // sorted: sums in a fixed order
  private int round = 1;
  private int classes;
  private ModelNoiseState state = ModelNoiseState.EMPTY;
  private ScheduledFuture<?> deadline;
  /**
   * Hashes of the entries of updates that came after their round was averaged, recorded in the ledger
   * since the last aggregate: the next aggregate names them. Worker only.
   */
  private final List<String> lateHashes = new ArrayList<>();
  /**
   * The clients with an update entry in the ledger, by round, for the rounds whose aggregate is among
   * the ledger's lines in memory (a late update of an older round is refused anyway). Worker only.
   */
  private final java.util.TreeMap<Integer, java.util.Set<String>> recorded = new java.util.TreeMap<>();
  private volatile boolean closed;
  /**
   * The frame of the current global model, re-announced until its round completes; null once the final
   * model is out. Written and read on the worker only.
   */
  private byte[] currentGlobal;
  /** The fewest lines an aggregator's ledger may keep in memory ({@link PrivacyLedger#keptLines}). */
  static final int MIN_KEPT_LINES = 2 * (LedgerEntry.MAX_CONTRIBUTORS + 1);
  /** How often the current global model is published again (lost retained deliveries, late joiners). */
  static final long REANNOUNCE_MILLIS = 2000;
  private Checkpointer<AggregatorCheckpoint> checkpoints = Checkpointer.none();
  /** The model to publish first: the empty round-1 model, or a restarted aggregator's committed one. */
  private ModelEnvelope first;
  private final java.util.concurrent.CompletableFuture<Void> failure = new java.util.concurrent.CompletableFuture<>();
  /**
   * Where the round in progress began (its global model went out), in wall time, in the worker's CPU
   * time and in the transport's counters: a round report covers the round from there to its aggregate
   * (the updates opened and checked, the average, the global model and its re-announcements sent, the
   * updates received). Worker only.
   */
  private long roundStartNanos;
  private long roundStartCpuNanos;
  private TransportStats roundStartStats = new TransportStats(0, 0, 0, 0);
  /** Updates waiting for the worker, unopened: bounded (a client whose update is dropped sends it again). */
  private final io.hdfl.concurrent.IntakeLimit intake =
      new io.hdfl.concurrent.IntakeLimit("aggregator", io.hdfl.concurrent.IntakeLimit.quarterOfHeap());

  public StarAggregator(PeerContext ctx, int clients, int classes) {
    this(ctx, clients, classes, PrivacyLedger.inMemory(ctx.settings().ledgerSettings()));
  }

  /**
   * @param ledger the federation's ledger, e.g. file-backed on a device (it must be empty unless the
   *     aggregator {@link #resume resumes})
   */
  public StarAggregator(PeerContext ctx, int clients, int classes, PrivacyLedger ledger) {
    if (ledger.keptLines() < MIN_KEPT_LINES) {
      // a restart completes its last aggregation from the lines in memory: the aggregation (K + 1 lines)
      // and the late updates recorded after it (at most min(K, 900 - K)), under 1000 lines; twice
      // that leaves room
      throw new IllegalArgumentException("an aggregator's ledger must keep at least " + MIN_KEPT_LINES
          + " lines in memory, not " + ledger.keptLines());
    }
    this.ctx = ctx;
    this.clients = clients;
    this.classes = classes;
    this.topics = ctx.topics();
    this.ledger = ledger;
    this.worker = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "hdfl-aggregator-" + ctx.id());
      t.setDaemon(true);
      return t;
    });
  }

  /** Commits every aggregation before it leaves (call before {@link #start}). Returns this aggregator. */
  public StarAggregator checkpointing(Checkpointer<AggregatorCheckpoint> checkpoints) {
    this.checkpoints = java.util.Objects.requireNonNull(checkpoints, "checkpoints");
    return this;
  }

  /**
   * Continues after a restart (call before {@link #start}): completes the ledger with the lines of
   * the committed aggregation that it lacks, restores the round and the noise state, and makes
   * {@link #start} publish the committed global (or final) model again. Late updates the ledger holds
   * after the committed aggregation (recorded while the next round waited) are named by the next
   * aggregate, as they would have been without the restart.
   *
   * @throws IllegalArgumentException if the ledger does not end with a prefix of the committed lines,
   *     or with all of them and then only late updates (it was edited, or belongs to another run)
   */
  public void resume(AggregatorCheckpoint last) throws java.io.IOException {
    List<String> lines = last.lines();
    List<io.hdfl.privacy.ledger.LedgerLine> have = ledger.lines();
    int committed = lastAggregateAt(have);
    if (committed >= 0 && have.get(committed).text().equals(last.lastAggregateLine())) {
      List<String> late = new ArrayList<>();
      java.util.Set<String> answered = new java.util.HashSet<>();
      for (LedgerLine l : have.subList(committed + 1, have.size())) {
        LedgerEntry e = l.entry();
        String problem = e.kind() != LedgerEntry.Kind.UPDATE || e.round() >= last.round()
            ? e.peer() + "'s " + e.kind().name().toLowerCase(java.util.Locale.ROOT) + " of round " + e.round()
                + ", not a late update of an earlier round"
            : !answered.add(answer(e.peer(), e.round())) ? e.peer() + "'s late update of round " + e.round() + " twice"
            : late.size() >= mostLate() ? "more than " + mostLate() + " late updates" : null;
        if (problem != null) {
          throw new IllegalArgumentException(ledger.file().orElse(null) + " continues after the aggregation of round "
              + (last.round() - 1) + " committed in the checkpoint with " + problem
              + " (the ledger was edited or belongs to another run)");
        }
        late.add(l.hash());
      }
      lateHashes.addAll(late);
      restore(last);
      return;
    }
    // appends happen in order after the commit, so the ledger holds a prefix of the committed lines
    int present = 0;
    for (int n = Math.min(lines.size(), have.size()); n > 0; n--) {
      boolean match = true;
      for (int i = 0; i < n && match; i++) {
        match = have.get(have.size() - n + i).text().equals(lines.get(i));
      }
      if (match) {
        present = n;
        break;
      }
    }
    LedgerEntry opening;
    try {
      opening = LedgerCodec.parse(lines.get(0));
    } catch (io.hdfl.privacy.ledger.LedgerFormatException e) {
      throw new IllegalArgumentException("the checkpoint's first ledger line does not parse: " + e.getMessage(), e);
    }
    // its first line is a client update (one of the round, or in a checkpoint written before the
    // eighteenth session one recorded late): where it chains
    if (present == 0 && !have.isEmpty() && !opening.prevHash().equals(ledger.chainTargetFor(opening.kind(),
        opening.round()))) {
      throw new IllegalArgumentException(ledger.file().orElse(null) + " does not continue into the aggregation of round "
          + (last.round() - 1) + " committed in the checkpoint (the ledger was edited or belongs to another run)");
    }
    for (String text : lines.subList(present, lines.size())) {
      ledger.appendLine(text);
    }
    restore(last);
  }

  private void restore(AggregatorCheckpoint last) {
    round = last.round();
    state = last.state();
    first = last.global();
  }

  /** Where the last aggregate entry of {@code lines} is (-1: none). */
  private static int lastAggregateAt(List<LedgerLine> lines) {
    for (int i = lines.size() - 1; i >= 0; i--) {
      if (lines.get(i).entry().kind() == LedgerEntry.Kind.AGGREGATE) {
        return i;
      }
    }
    return -1;
  }

  /**
   * Where the run stands, for a device's run-timeout message: the round, whose updates it holds (the
   * first 20), and the quorum, or that every round is aggregated; null if the worker does not answer
   * within a second.
   */
  public String progress() {
    java.util.concurrent.Future<String> f;
    try {
      f = worker.submit(() -> {
        int rounds = ctx.settings().rounds();
        if (round > rounds) {
          return "all " + rounds + " rounds are aggregated and the final model was published";
        }
        return "round " + round + " of " + rounds + " had updates from " + updates.size() + " of " + clients
            + " client(s)" + (updates.isEmpty() ? "" : " " + PeerList.of(updates.keySet())) + ", quorum " + quorum();
      });
    } catch (java.util.concurrent.RejectedExecutionException e) {
      return null;
    }
    try {
      return f.get(1, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
      f.cancel(false);
      return null;
    }
  }

  /** Updates needed to close a round at its deadline: the configured quorum, at most K (0: all K). */
  private int quorum() {
    return ctx.settings().quorum() == 0 ? clients : Math.min(clients, ctx.settings().quorum());
  }

  /**
   * Completes exceptionally if this aggregator stopped because it could not commit an aggregation or
   * append to its ledger; it then takes no more updates.
   */
  public java.util.concurrent.CompletableFuture<Void> failure() {
    return failure;
  }

  public void start() throws TransportException {
    if (first == null && ledger.size() != 0) {
      throw new IllegalArgumentException("the aggregator starts a new ledger; " + ledger.file().orElse(null)
          + " already has entries");
    }
    for (LedgerLine l : ledger.lines()) {
      if (l.entry().kind() == LedgerEntry.Kind.UPDATE) {
        record(l.entry().peer(), l.entry().round());
      }
    }
    ctx.transport().subscribe(topics.starUpdates(), 1, ctx.frames().receiver((topic, payload, retained) -> {
      if (!closed && intake.admit(payload.length)) {
        worker.execute(() -> {
          intake.release(payload.length);
          try {
            onUpdate(topic, payload);
          } catch (RuntimeException e) { // an executor drops a task's exception without a word
            LOG.log(System.Logger.Level.ERROR, "aggregator: an update on " + topic + " could not be handled: " + e, e);
          }
        });
      }
    }));
    var s = ctx.settings();
    ModelEnvelope opening = first != null ? first
        : envelope(ModelEnvelope.Kind.GLOBAL_MODEL, new float[classes * s.encoder().dim()], List.of());
    // on the worker, as every other publish: updates already arriving could otherwise complete the run
    // (clearing the global, publishing the final model) before this global went out, and bring it back
    try {
      worker.submit(() -> {
        roundStartNanos = System.nanoTime();
        roundStartCpuNanos = ThreadCpu.nanos();
        roundStartStats = ctx.transport().stats(); // round 1 leaves out the start-up's messages
        publish(opening);
      }).get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (java.util.concurrent.ExecutionException e) {
      throw new IllegalStateException("aggregator: publishing the opening model failed", e.getCause());
    }
    worker.scheduleWithFixedDelay(this::reannounce, REANNOUNCE_MILLIS, REANNOUNCE_MILLIS, TimeUnit.MILLISECONDS);
  }

  /**
   * Publishes the current global model again while its round waits for updates: a client that missed
   * the retained delivery (or joined late) still gets it, and clients ignore rounds they answered.
   */
  private void reannounce() {
    byte[] frame = currentGlobal;
    if (frame == null || closed || failure.isDone()) {
      return;
    }
    try {
      ctx.frames().publish(topics.starGlobal(), frame, 1, true);
    } catch (TransportException | RuntimeException e) {
      // caught whatever it is: an exception would cancel every later re-announcement, and a lost update
      // would then stall the round for good
      LOG.log(System.Logger.Level.WARNING, "aggregator: could not re-announce round " + round + ": " + e);
    }
  }

  private void onUpdate(String topic, byte[] payload) {
    if (failure.isDone()) {
      // stopped (a commit or a ledger append failed): nothing more may reach the ledger, or a restart
      // could find it in an order its checkpoint does not explain
      return;
    }
    HopCipher.Opened opened = ctx.open(payload, "an update");
    if (opened == null) {
      return;
    }
    ModelEnvelope env;
    try {
      env = EnvelopeCodec.decode(opened.frame(), ctx.expectations());
    } catch (EnvelopeException e) {
      ctx.refused("aggregator: rejected an update: " + e.getMessage());
      return;
    }
    if (!ctx.senderMatches(opened, env, "an update")) {
      return;
    }
    if (!topic.equals(topics.starUpdate(env.sender()))) {
      ctx.refused("aggregator: rejected an update on " + topic + ": it claims sender "
          + Roster.quoted(env.sender()) + ", whose updates go to " + topics.starUpdate(env.sender()));
      return;
    }
    if (env.kind() != ModelEnvelope.Kind.CLIENT_UPDATE || env.ledgerLines().size() != 1) {
      ctx.refused("aggregator: ignored a " + env.kind() + " from " + Roster.quoted(env.sender()));
      return;
    }
    if (round > ctx.settings().rounds()) {
      return; // the run is over: a restarted client re-sent its last update
    }
    if (env.round() < round) {
      recordLate(env);
      return;
    }
    if (env.round() != round) {
      ctx.refused("aggregator: rejected " + Roster.quoted(env.sender()) + "'s update for round "
          + env.round() + ": the aggregator is in round " + round);
      return;
    }
    String problem = updateProblem(env);
    if (problem != null) {
      ctx.refused("aggregator: rejected " + Roster.quoted(env.sender()) + "'s update for round "
          + env.round() + ": " + problem);
      return;
    }
    if (updates.putIfAbsent(env.sender(), env) != null) {
      return; // duplicate delivery
    }
    if (updates.size() == 1) {
      CrashPoints.reached("aggregator.collected", round);
    }
    int quorum = quorum();
    if (updates.size() == clients) {
      aggregate();
    } else if (updates.size() == quorum && deadline == null) {
      int r = round;
      deadline = worker.schedule(() -> {
        if (round == r && updates.size() >= quorum) {
          aggregate();
        }
      }, ctx.settings().roundDeadline().toMillis(), TimeUnit.MILLISECONDS);
    }
  }

  /**
   * Records the entry of an update that came after its round was averaged (appended now, named by the
   * next aggregate): its noise was drawn and it was sent, so the ledger shows it, though no average
   * holds it. Another copy of an update already averaged or recorded (a client sends its update again
   * while a round waits) is dropped.
   */
  private void recordLate(ModelEnvelope env) {
    if (recorded.getOrDefault(env.round(), java.util.Set.of()).contains(env.sender())) {
      return; // averaged or recorded already
    }
    String problem;
    try {
      // what ledger verify will check of it (the signature: entryProblem), and a round not averaged here (round 0
      // included) or too long ago to check: a line it would refuse is not recorded
      problem = ledger.lateUpdateProblem(LedgerCodec.parse(env.ledgerLines().get(0)));
    } catch (io.hdfl.privacy.ledger.LedgerFormatException e) {
      problem = "its ledger entry is malformed: " + e.getMessage();
    }
    if (problem == null) { // its model is the one its entry describes, signed by its sender
      problem = entryProblem(env, env.round(), ledger.chainTargetFor(LedgerEntry.Kind.UPDATE, env.round()),
          ledger.aggregateBefore(env.round()).map(a -> a.entry().samplesTotal()).orElse(0L),
          "the global model of round " + env.round());
    }
    int most = mostLate();
    if (problem == null && lateHashes.size() >= most) {
      problem = "already " + lateHashes.size() + " late updates wait for the next aggregation (at most " + most + ")";
    }
    if (problem != null) {
      ctx.refused("aggregator: rejected " + Roster.quoted(env.sender()) + "'s late update for round "
          + env.round() + ": " + problem);
      return;
    }
    String text = env.ledgerLines().get(0);
    try {
      // in the ledger at once (a device's file is synced before this returns): an aggregator that
      // restarts before its next aggregation finds it there, though the client never sends it again
      ledger.appendLine(text);
    } catch (java.io.IOException | RuntimeException e) {
      LOG.log(System.Logger.Level.ERROR, "aggregator: cannot record " + Roster.quoted(env.sender())
          + "'s late update for round " + env.round() + " in the ledger; stopping: " + e.getMessage());
      failure.completeExceptionally(e); // a device stops; restarted, it resumes from its last commit
      return;
    }
    lateHashes.add(LedgerCodec.hash(text));
    record(env.sender(), env.round());
    LOG.log(System.Logger.Level.INFO, "aggregator: " + Roster.quoted(env.sender()) + "'s update for round " + env.round()
        + " came after the round was averaged (now in round " + round + "): in no average, its entry is recorded"
        + " and the next aggregate names it");
    try {
      ctx.publishReliably(topics.ledger(ctx.id()), text.getBytes(StandardCharsets.US_ASCII), false, false);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // shut down
    }
  }

  /** Late updates one aggregate names at most: it names at most MAX_CONTRIBUTORS lines, its round's K among them. */
  private int mostLate() {
    return Math.min(clients, LedgerEntry.MAX_CONTRIBUTORS - clients);
  }

  /** Notes that the ledger holds {@code client}'s update of {@code round}. */
  private void record(String client, int round) {
    recorded.computeIfAbsent(round, r -> new java.util.HashSet<>()).add(client);
  }

  private static String answer(String client, int round) {
    return client + '\n' + round;
  }

  /**
   * Why {@code u} is not this client's update of round {@code r} as its ledger entry describes it, or
   * null if it is: the entry parses, has the federation's settings, is the sender's update of round r
   * chained to {@code chainTarget}; the model has the federation's class count and the noise state its
   * entry records, and builds on {@code base} samples (those of {@code builtOn}); with encrypted hops
   * the entry is signed by the sender's key in the roster (an admitted client could otherwise put a
   * line into the aggregator's ledger that {@code ledger verify} refuses).
   */
  private String entryProblem(ModelEnvelope u, int r, String chainTarget, long base, String builtOn) {
    LedgerEntry e;
    try {
      e = LedgerCodec.parse(u.ledgerLines().get(0));
    } catch (io.hdfl.privacy.ledger.LedgerFormatException ex) {
      return "its ledger entry is malformed: " + ex.getMessage();
    }
    if (!ledger.settings().matches(e)) {
      return "its ledger entry does not match the federation's ledger settings";
    }
    if (!e.peer().equals(u.sender()) || e.round() != r || e.kind() != LedgerEntry.Kind.UPDATE) {
      return "its ledger entry is not this client's update of round " + r;
    }
    if (!e.prevHash().equals(chainTarget)) {
      return "its ledger entry does not chain to " + builtOn;
    }
    if (u.classes() != classes) {
      return "its model has " + u.classes() + " classes, the federation's " + classes;
    }
    if (u.samplesAbsorbed() != e.samplesTotal() || Double.compare(u.presentVariance(), e.presentAfter()) != 0) {
      return "its model's noise state (" + u.samplesAbsorbed() + " samples, variance " + u.presentVariance()
          + ") is not the one its ledger entry records (" + e.samplesTotal() + ", " + e.presentAfter() + ")";
    }
    if (e.samplesNew() < 0 || e.samplesNew() > e.samplesTotal() || e.samplesTotal() - e.samplesNew() != base) {
      return "it does not build on " + builtOn + " (" + base + " samples absorbed; the update claims "
          + e.samplesNew() + " new of " + e.samplesTotal() + ")";
    }
    // last: one signature check per update that passed everything else (with a roster only; without
    // one, ledger verify checks it against the keys it is given)
    return ctx.ledgerSignatureProblem(u.ledgerLines().get(0), u.sender());
  }

  /**
   * Why an update cannot go into this round's average and ledger, or null if it can: its ledger entry
   * must be this client's update of this round, chained to the last aggregate, and its model must be
   * what that entry describes (the noise state the average's accounting takes from it), built on this
   * round's global model, and of a size and magnitude the average can take — an update that passed the
   * envelope's checks could otherwise still fail the aggregation (and stop a device aggregator).
   */
  private String updateProblem(ModelEnvelope u) {
    String problem = entryProblem(u, round, ledger.chainTargetFor(LedgerEntry.Kind.UPDATE), state.samplesAbsorbed(),
        "this round's global model");
    if (problem != null) {
      return problem;
    }
    long base = state.samplesAbsorbed();
    long samplesNew = u.samplesAbsorbed() - base; // as its entry records (checked above)
    // the average adds at most K of each: bounded so that no sum overflows
    if (samplesNew > (Long.MAX_VALUE - base) / clients) {
      return "it claims " + samplesNew + " new samples, more than an average of " + clients + " can count";
    }
    if (u.presentVariance() > Double.MAX_VALUE / clients) {
      return "its noise variance " + u.presentVariance() + " is too large to average over " + clients + " clients";
    }
    float limit = Float.MAX_VALUE / clients;
    for (float v : u.prototypes()) {
      if (Math.abs(v) > limit) {
        return "its model holds a value of magnitude " + Math.abs(v) + ", too large to average over " + clients
            + " clients";
      }
    }
    return null;
  }

  private void aggregate() {
    if (failure.isDone()) {
      return; // stopped: see onUpdate
    }
    if (deadline != null) {
      deadline.cancel(false);
      deadline = null;
    }
    var s = ctx.settings();
    int k = updates.size();
    if (k < clients) { // the quorum met and the deadline passed: who is in this round says who is not
      List<String> from = new ArrayList<>(updates.keySet());
      LOG.log(System.Logger.Level.INFO, "aggregator: round " + round + " closes at its deadline with " + k + " of "
          + clients + " updates (from " + String.join(", ", from.subList(0, Math.min(k, 20))) + (k > 20 ? ", …" : "")
          + (round < s.rounds() ? "); an update of it that comes later is recorded as late, not averaged"
          : "); the run ends with it"));
    }
    int d = s.encoder().dim();
    float[] avg = new float[classes * d];
    List<ModelNoiseState> states = new ArrayList<>(k);
    List<String> contributors = new ArrayList<>(k);
    // the round's entries, then the aggregate (late updates are in the ledger already, before them)
    List<String> published = new ArrayList<>(k + 1);
    long base = state.samplesAbsorbed();
    long absorbed = 0;
    try {
      for (ModelEnvelope u : updates.values()) {
        float[] p = u.prototypes();
        for (int i = 0; i < avg.length; i++) {
          avg[i] += p[i];
        }
        states.add(new ModelNoiseState(u.presentVariance(), u.samplesAbsorbed()));
        absorbed += u.samplesAbsorbed() - base;
        String text = u.ledgerLines().get(0);
        contributors.add(LedgerCodec.hash(text));
        published.add(text);
      }
      float inv = 1f / k;
      for (int i = 0; i < avg.length; i++) {
        avg[i] *= inv;
      }
      ModelNoiseState before = ModelNoiseState.average(base, states);
      NoiseDecision dec = NoisePolicy.of(s.privacy(), s.params(), 1.0 / k).decide(before, 0);
      ctx.noise().add(avg, dec.added());
      double gamma = dec.required() > 0 ? dec.presentBefore() / dec.required() : Double.POSITIVE_INFINITY;
      String reason = String.format(java.util.Locale.ROOT, "average of %d clients; gamma = present/required = %.6g%s",
          k, gamma, dec.added() > 0 ? ": server adds the difference" : ": server adds nothing");
      LedgerEntry.Source source = ctx.noise().forDeployment() ? LedgerEntry.Source.SECURE : LedgerEntry.Source.SEEDED;
      // the aggregate chains to the line before it: the last client entry, once they are appended
      LedgerLine line = ledger.sign(ctx.keys(), NoiseRecord.aggregate(ctx.id(), round, round, absorbed,
          before.samplesAbsorbed(), dec.required(), dec.presentBefore(), dec.added(), dec.presentAfter(), source,
          contributors, List.copyOf(lateHashes), reason),
          LedgerCodec.hash(published.get(published.size() - 1)));
      published.add(line.text());
      int aggregated = round;
      CrashPoints.reached("aggregator.averaged", aggregated);
      ModelNoiseState next = new ModelNoiseState(dec.presentAfter(), before.samplesAbsorbed());
      int nextRound = round + 1;
      ModelEnvelope model = envelope(nextRound > s.rounds() ? ModelEnvelope.Kind.FINAL_MODEL
          : ModelEnvelope.Kind.GLOBAL_MODEL, nextRound, next, avg, List.of(line.text()));
      // committed before the ledger grows or anything leaves: a restart publishes this very model
      try {
        checkpoints.commit(new AggregatorCheckpoint(nextRound, next, ctx.noise().position(), published, model));
      } catch (java.io.IOException | RuntimeException e) {
        LOG.log(System.Logger.Level.ERROR, "aggregator: cannot commit round " + round + "; stopping: " + e.getMessage());
        failure.completeExceptionally(e);
        return;
      }
      CrashPoints.reached("aggregator.checkpointed", aggregated);
      for (String text : published) {
        ledger.appendLine(text);
      }
      lateHashes.clear();
      for (ModelEnvelope u : updates.values()) {
        record(u.sender(), aggregated);
      }
      // rounds whose aggregate has left the ledger's memory take no late update: forget them
      ledger.firstAggregateKept().ifPresent(r -> recorded.headMap(r).clear());
      CrashPoints.reached("aggregator.archived", aggregated);
      for (String text : published) {
        ctx.publishReliably(topics.ledger(ctx.id()), text.getBytes(StandardCharsets.US_ASCII), false, false);
      }
      long nowNanos = System.nanoTime();
      long nowCpu = ThreadCpu.nanos();
      TransportStats nowStats = ctx.transport().stats();
      TransportStats io = nowStats.since(roundStartStats);
      ctx.reports().accept(new RoundReport(ctx.id(), round, round, (nowNanos - roundStartNanos) / 1e9,
          (nowCpu - roundStartCpuNanos) / 1e9, Double.NaN, "", io.bytesSent(), io.bytesReceived(), absorbed,
          dec.required(), dec.presentAfter(), dec.added()));
      roundStartNanos = nowNanos;
      roundStartCpuNanos = nowCpu;
      roundStartStats = nowStats;
      state = next;
      updates.clear();
      round = nextRound;
      publish(model);
      CrashPoints.reached("aggregator.published", aggregated);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // shut down
    } catch (java.io.IOException | RuntimeException e) {
      LOG.log(System.Logger.Level.ERROR, "aggregator: round " + round + " failed: " + e.getMessage());
      failure.completeExceptionally(e); // a device stops; restarted, it resumes from its last commit
    }
  }

  /** The global model of the current round with the current noise state. */
  private ModelEnvelope envelope(ModelEnvelope.Kind kind, float[] prototypes, List<String> lines) {
    return envelope(kind, round, state, prototypes, lines);
  }

  /** The global (or final) model of {@code forRound}: what clients answer with that round's updates. */
  private ModelEnvelope envelope(ModelEnvelope.Kind kind, int forRound, ModelNoiseState noise, float[] prototypes,
      List<String> lines) {
    var s = ctx.settings();
    return new ModelEnvelope(kind, s.federation(), ctx.id(), Math.min(forRound, s.rounds()), forRound,
        s.encoder().kind().id(), s.encoder().features(), s.encoder().basisSeed(), s.encoder().dim(), classes,
        noise.presentVariance(), noise.samplesAbsorbed(), lines, null, prototypes);
  }

  private void publish(ModelEnvelope env) {
    ModelEnvelope.Kind kind = env.kind();
    String topic = kind == ModelEnvelope.Kind.FINAL_MODEL ? topics.finalModel() : topics.starGlobal();
    byte[] frame = ctx.broadcastFrame(env);
    currentGlobal = kind == ModelEnvelope.Kind.FINAL_MODEL ? null : frame;
    if (kind == ModelEnvelope.Kind.FINAL_MODEL) {
      clearRetainedGlobal();
    }
    try {
      if (kind == ModelEnvelope.Kind.FINAL_MODEL) {
        ctx.publishKeptReliably(topic, frame); // kept even when chunked: a device restarting later takes it
      } else {
        ctx.publishReliably(topic, frame, true, true); // chunked, not retained: it is announced again
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // shut down
    }
  }

  /**
   * Before the final model goes out, removes the last global model from the broker (an empty retained
   * message): a client of a later run under this federation would otherwise answer that old round at
   * once and then ignore the new run's earlier rounds. Done first because whoever takes the final model
   * may close this aggregator's connection at once (the device aggregator does); the broker handles a
   * connection's messages in order, so once anyone has the final model the global is gone. Runs on the
   * worker, as every publish and re-announcement does, so no re-announcement can put it back.
   */
  private void clearRetainedGlobal() {
    try {
      ctx.publishReliably(topics.starGlobal(), new byte[0], true, false);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // shut down
    }
  }

  @Override
  public void close() {
    closed = true;
    worker.shutdownNow();
    ctx.transport().close();
  }
}
