package io.hdfl.federation;

import io.hdfl.security.Roster;

import io.hdfl.codec.EnvelopeCodec;
import io.hdfl.codec.EnvelopeException;
import io.hdfl.codec.ModelEnvelope;
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
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A PrivateDFL ring peer. It receives the model on its inbox, verifies the envelope, trains (bundling
 * its shard in round 1, retraining on its cached encodings every round), adds the noise its policy
 * decides, signs its ledger entry, and hands the model to the next peer, waiting for that peer's
 * application ack; a peer that does not ack in time is skipped (the ring continues, and the accountant
 * stays exact because it counts only updates that happened). A duplicate delivery (same step) is
 * acknowledged again but never trained or noised twice. After the last step of round R the model is
 * published, retained, as the final model.
 *
 * <p>All work runs on the peer's own thread; transport callbacks only enqueue.
 */
public final class RingPeer implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger("io.hdfl.federation");
  private static final int ACK_ATTEMPTS = 2;
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
  /** Live windows that arrived since this peer's previous turn (null: a fixed data set). */
  private java.util.function.Supplier<EncodedSet> arrivals;
  private final LocalUpdate update;
  private final Topics topics;
  private final ExecutorService worker;
  private final ConcurrentHashMap<Long, CompletableFuture<Void>> pendingAcks = new ConcurrentHashMap<>();
  private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
  private volatile long lastStep = -1;
  /** Whether this peer's data are already bundled into the model it passed on. */
  private boolean bundled;
  /** Connection losses of this peer's transport seen so far, and when the last one was noticed. */
  private long knownLosses;
  private long reconnectedAt = System.nanoTime() - RECONNECT_GRACE.toNanos();
  private final io.hdfl.privacy.ledger.PrivacyLedger archive;
  /**
   * prev_hash of every chain entry this peer has seen: in a linear chain each parent is extended
   * once, so a model whose last entry extends an already extended parent is a fork (e.g. from a slow
   * peer that was skipped but forwarded its copy late) and is dropped.
   */
  private final java.util.Set<String> extendedParents = new java.util.HashSet<>();
  private final java.util.Set<String> seenLines = new java.util.HashSet<>();
  private long archivedStep;
  private volatile boolean closed;
  /** Counters at the previous report: a report covers everything since (the model received included). */
  private TransportStats lastStats = new TransportStats(0, 0, 0, 0);

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
    this.ctx = ctx;
    this.order = List.copyOf(order);
    this.index = order.indexOf(ctx.id());
    if (index < 0) {
      throw new IllegalArgumentException("peer " + ctx.id() + " is not in the ring " + order);
    }
    this.data = data;
    this.update = new LocalUpdate(ctx, NoisePolicy.of(ctx.settings().privacy(), ctx.settings().params(), 1.0));
    this.topics = ctx.topics();
    this.worker = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "hdfl-peer-" + ctx.id());
      t.setDaemon(true);
      return t;
    });
  }

  /**
   * Lets this peer learn from live windows between its turns: at each turn after the first it bundles
   * what {@code arrivals} returns (null or empty: nothing new) and retrains on everything it has.
   * Returns this peer.
   */
  public RingPeer learningFrom(java.util.function.Supplier<EncodedSet> arrivals) {
    this.arrivals = arrivals;
    return this;
  }

  /** Subscribes to the inbox and the ack topic. */
  public void start() throws TransportException {
    ctx.transport().subscribe(topics.ringAcks(ctx.id()), 1, (topic, payload, retained) -> onAck(payload));
    // A model is opened, checked and acknowledged on receipt (the transport's thread), then trained on
    // this peer's worker: an ack never waits behind this peer's own hand-off (which, during a broker
    // outage, can take a while), so a resend is answered at once and never mistaken for a dead peer.
    ctx.transport().subscribe(topics.ringInbox(ctx.id()), 1, ctx.frames().receiver((topic, payload, retained) -> {
      if (!closed) {
        ModelEnvelope env = onModel(payload);
        if (env != null) {
          worker.execute(() -> process(env));
        }
      }
    }));
  }

  /** Starts round 1 from an empty model (called on the first peer only). */
  public void kickOff() {
    var s = ctx.settings();
    ModelEnvelope empty = new ModelEnvelope(ModelEnvelope.Kind.RING_MODEL, s.federation(), ctx.id(), 1, 0,
        s.encoder().kind().id(), s.encoder().features(), s.encoder().basisSeed(), s.encoder().dim(), data.classes(),
        0.0, 0, List.of(), null, new float[data.classes() * s.encoder().dim()]);
    worker.execute(() -> process(empty));
  }

  /** Opens, checks and acknowledges a received model; null if it is not one to train on. */
  private ModelEnvelope onModel(byte[] payload) {
    HopCipher.Opened opened = ctx.open(payload, "a model");
    if (opened == null) {
      return null;
    }
    ModelEnvelope env;
    try {
      env = EnvelopeCodec.decode(opened.frame(), ctx.expectations());
    } catch (EnvelopeException e) {
      LOG.log(System.Logger.Level.WARNING, "peer " + ctx.id() + ": rejected a model: " + e.getMessage());
      return null;
    }
    if (!ctx.senderMatches(opened, env, "a model")) {
      return null;
    }
    if (env.kind() != ModelEnvelope.Kind.RING_MODEL) {
      LOG.log(System.Logger.Level.WARNING, "peer " + ctx.id() + ": ignored a " + env.kind() + " on its inbox");
      return null;
    }
    sendAck(env);
    return env;
  }

  private void process(ModelEnvelope env) {
    long step = env.step() + 1;
    if (step <= lastStep) {
      return; // duplicate delivery: acknowledged again, never trained or noised twice
    }
    String prev = LedgerEntry.GENESIS_HASH;
    if (!env.ledgerLines().isEmpty()) {
      String last = env.ledgerLines().get(env.ledgerLines().size() - 1);
      prev = LedgerCodec.hash(last);
      String parent;
      try {
        parent = LedgerCodec.prevHashOf(last);
      } catch (LedgerFormatException e) {
        LOG.log(System.Logger.Level.WARNING, "peer " + ctx.id() + ": dropped a model from " + Roster.quoted(env.sender())
            + " (step " + env.step() + "): its last ledger line is malformed: " + e.getMessage());
        return;
      }
      if (!seenLines.contains(prev) && extendedParents.contains(parent)) {
        LOG.log(System.Logger.Level.WARNING, "peer " + ctx.id() + ": dropped a model from " + Roster.quoted(env.sender())
            + " (step " + env.step() + ") that forks the chain: its parent entry was already extended");
        return;
      }
    }
    long t0 = System.nanoTime();
    long cpu0 = threads.getCurrentThreadCpuTime();
    int round = env.round();
    ClassPrototypes model = ClassPrototypes.copyOf(env.classes(), env.dim(), env.prototypes());
    ModelNoiseState before = new ModelNoiseState(env.presentVariance(), env.samplesAbsorbed());
    EncodedSet fresh = round > 1 && arrivals != null ? arrivals.get() : null;
    if (fresh != null && fresh.size() > 0) {
      data = data.concat(fresh); // learned once by bundling, then retrained on with the rest
    } else {
      fresh = null;
    }
    // the first turn this peer really takes bundles its data (round 1, or later for a peer that missed it)
    EncodedSet toBundle = bundled ? fresh : data;
    bundled = true;
    LocalUpdate.Outcome out = update.apply(model, data, toBundle, -1, before, round, step, prev,
        ctx.settings().seed() * 1_000_003L + step);
    lastStep = step;
    List<String> tail = new ArrayList<>(env.ledgerLines());
    tail.add(out.line().text());
    // Hashes by chain linkage: in an intact tail, line i's prev_hash is line i-1's hash, so only this
    // peer's new line is hashed, not the K lines that travel with every model. Fork detection is a
    // safeguard against stale copies, not a security check: the ledger verifier checks the linkage.
    for (int i = 0; i < tail.size(); i++) {
      String parent;
      try {
        parent = LedgerCodec.prevHashOf(tail.get(i));
      } catch (LedgerFormatException e) {
        continue; // not this peer's to judge: the ledger verifier reports it
      }
      extendedParents.add(parent);
      if (i > 0) {
        seenLines.add(parent);
      }
    }
    seenLines.add(LedgerCodec.hash(out.line().text()));
    archive(tail);
    while (tail.size() > order.size()) {
      tail.remove(0);
    }
    try {
      ctx.publishReliably(topics.ledger(ctx.id()), out.line().text().getBytes(java.nio.charset.StandardCharsets.US_ASCII),
          false, false);
      forward(model, out, round, step, tail);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // shut down: this peer's work ends here
      return;
    }
    TransportStats now = ctx.transport().stats();
    TransportStats io = now.since(lastStats);
    lastStats = now;
    ctx.reports().accept(new RoundReport(ctx.id(), round, step, (System.nanoTime() - t0) / 1e9,
        (threads.getCurrentThreadCpuTime() - cpu0) / 1e9, Double.NaN, "", io.bytesSent(), io.bytesReceived(),
        out.decision().samplesAdded(), out.decision().required(), out.decision().presentAfter(),
        out.decision().added()));
  }

  /** Appends the lines of {@code tail} this peer has not archived yet, in chain order. */
  private void archive(List<String> tail) {
    if (archive == null) {
      return;
    }
    for (String text : tail) {
      io.hdfl.privacy.ledger.LedgerEntry e = LedgerCodec.parse(text);
      if (e.step() > archivedStep) {
        try {
          archive.appendLine(new io.hdfl.privacy.ledger.LedgerLine(text, e));
          archivedStep = e.step();
        } catch (java.io.IOException | IllegalArgumentException ex) {
          LOG.log(System.Logger.Level.ERROR, "peer " + ctx.id() + ": cannot archive ledger step " + e.step() + ": "
              + ex.getMessage());
          return;
        }
      }
    }
  }

  /** Hands the model to the next live peer, or publishes it as final after the last step of round R. */
  private void forward(ClassPrototypes model, LocalUpdate.Outcome out, int round, long step, List<String> tail)
      throws InterruptedException {
    var s = ctx.settings();
    for (int hop = 1; hop < order.size() + 1; hop++) {
      int next = (index + hop) % order.size();
      int nextRound = next <= index ? round + 1 : round;
      if (nextRound > s.rounds()) {
        publishFinal(model, out, round, step, tail);
        return;
      }
      String nextId = order.get(next);
      ModelEnvelope env = envelope(ModelEnvelope.Kind.RING_MODEL, model, out, nextRound, step, tail);
      try {
        if (deliver(nextId, EnvelopeCodec.encode(env), step)) {
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
    publishFinal(model, out, round, step, tail); // nobody else is alive
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
    while (unanswered < ACK_ATTEMPTS) {
      noteReconnects();
      long losses = ctx.transport().connectionLosses();
      CompletableFuture<Void> acked = new CompletableFuture<>();
      pendingAcks.put(step, acked);
      try {
        ctx.frames().publish(topics.ringIn(nextId, ctx.id()), ctx.sealFor(nextId, frame), 1, false);
        acked.get(ctx.settings().ackTimeout().toMillis(), TimeUnit.MILLISECONDS);
        return true;
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
      }
    }
    return false;
  }

  private void publishFinal(ClassPrototypes model, LocalUpdate.Outcome out, int round, long step, List<String> tail)
      throws InterruptedException {
    ModelEnvelope env = envelope(ModelEnvelope.Kind.FINAL_MODEL, model, out, round, step, tail);
    ctx.publishReliably(topics.finalModel(), ctx.broadcastFrame(env), true, true);
  }

  private ModelEnvelope envelope(ModelEnvelope.Kind kind, ClassPrototypes model, LocalUpdate.Outcome out, int round,
      long step, List<String> tail) {
    var s = ctx.settings();
    return new ModelEnvelope(kind, s.federation(), ctx.id(), round, step, s.encoder().kind().id(),
        s.encoder().features(), s.encoder().basisSeed(), model.dim(), model.classes(), out.after().presentVariance(),
        out.after().samplesAbsorbed(), tail, null, model.toArray());
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
      if (ack.kind() == ModelEnvelope.Kind.ACK && f != null && ctx.senderMatches(opened, ack, "an ack")) {
        f.complete(null);
      }
    } catch (EnvelopeException e) {
      LOG.log(System.Logger.Level.WARNING, "peer " + ctx.id() + ": rejected an ack: " + e.getMessage());
    }
  }

  @Override
  public void close() {
    closed = true;
    worker.shutdownNow();
    ctx.transport().close();
  }
}
