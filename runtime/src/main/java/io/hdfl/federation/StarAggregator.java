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
 * final model, retained.
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
  private String lastAggregateLine;
  private ScheduledFuture<?> deadline;
  private long lateUpdates;
  private volatile boolean closed;
  /** The frame of the current global model, re-announced until its round completes. */
  private byte[] currentGlobal;
  /** How often the current global model is published again (lost retained deliveries, late joiners). */
  static final long REANNOUNCE_MILLIS = 2000;

  public StarAggregator(PeerContext ctx, int clients, int classes) {
    this(ctx, clients, classes, PrivacyLedger.inMemory(ctx.settings().ledgerSettings()));
  }

  /** @param ledger the federation's ledger, e.g. file-backed on a device (it must be empty) */
  public StarAggregator(PeerContext ctx, int clients, int classes, PrivacyLedger ledger) {
    this.ctx = ctx;
    this.clients = clients;
    this.classes = classes;
    this.topics = ctx.topics();
    if (ledger.size() != 0) {
      throw new IllegalArgumentException("the aggregator starts a new ledger; " + ledger.file().orElse(null)
          + " already has entries");
    }
    this.ledger = ledger;
    this.worker = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "hdfl-aggregator-" + ctx.id());
      t.setDaemon(true);
      return t;
    });
  }

  public void start() throws TransportException {
    ctx.transport().subscribe(topics.starUpdates(), 1, ctx.frames().receiver((topic, payload, retained) -> {
      if (!closed) {
        worker.execute(() -> onUpdate(payload));
      }
    }));
    var s = ctx.settings();
    publish(ModelEnvelope.Kind.GLOBAL_MODEL, new float[classes * s.encoder().dim()], List.of());
    worker.scheduleWithFixedDelay(this::reannounce, REANNOUNCE_MILLIS, REANNOUNCE_MILLIS, TimeUnit.MILLISECONDS);
  }

  /**
   * Publishes the current global model again while its round waits for updates: a client that missed
   * the retained delivery (or joined late) still gets it, and clients ignore rounds they answered.
   */
  private void reannounce() {
    byte[] frame = currentGlobal;
    if (frame == null || closed) {
      return;
    }
    try {
      ctx.frames().publish(topics.starGlobal(), frame, 1, true);
    } catch (TransportException e) {
      LOG.log(System.Logger.Level.WARNING, "aggregator: could not re-announce round " + round + ": " + e.getMessage());
    }
  }

  /** Updates that arrived after their round was aggregated. */
  public synchronized long lateUpdates() {
    return lateUpdates;
  }

  private void onUpdate(byte[] payload) {
    HopCipher.Opened opened = ctx.open(payload, "an update");
    if (opened == null) {
      return;
    }
    ModelEnvelope env;
    try {
      env = EnvelopeCodec.decode(opened.frame(), ctx.expectations());
    } catch (EnvelopeException e) {
      LOG.log(System.Logger.Level.WARNING, "aggregator: rejected an update: " + e.getMessage());
      return;
    }
    if (!ctx.senderMatches(opened, env, "an update")) {
      return;
    }
    if (env.kind() != ModelEnvelope.Kind.CLIENT_UPDATE || env.ledgerLines().size() != 1) {
      LOG.log(System.Logger.Level.WARNING, "aggregator: ignored a " + env.kind() + " from " + Roster.quoted(env.sender()));
      return;
    }
    if (env.round() != round) {
      synchronized (this) {
        lateUpdates++;
      }
      LOG.log(System.Logger.Level.INFO, "aggregator: dropped " + Roster.quoted(env.sender()) + "'s update for round " + env.round()
          + " (now in round " + round + ")");
      return;
    }
    if (updates.putIfAbsent(env.sender(), env) != null) {
      return; // duplicate delivery
    }
    int quorum = ctx.settings().quorum() == 0 ? clients : Math.min(clients, ctx.settings().quorum());
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

  private void aggregate() {
    if (deadline != null) {
      deadline.cancel(false);
      deadline = null;
    }
    var s = ctx.settings();
    int k = updates.size();
    int d = s.encoder().dim();
    float[] avg = new float[classes * d];
    List<ModelNoiseState> states = new ArrayList<>(k);
    List<String> contributors = new ArrayList<>(k);
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
        ledger.appendLine(new LedgerLine(text, LedgerCodec.parse(text)));
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
      LedgerLine line = ledger.sign(ctx.keys(), NoiseRecord.aggregate(ctx.id(), round, round, absorbed,
          before.samplesAbsorbed(), dec.required(), dec.presentBefore(), dec.added(), dec.presentAfter(), source,
          contributors, reason), ledger.chainTargetFor(LedgerEntry.Kind.AGGREGATE));
      ledger.appendLine(line);
      published.add(line.text());
      for (String text : published) {
        ctx.publishReliably(topics.ledger(ctx.id()), text.getBytes(StandardCharsets.US_ASCII), false, false);
      }
      ctx.reports().accept(new RoundReport(ctx.id(), round, round, 0, 0, Double.NaN, "", 0, 0, absorbed,
          dec.required(), dec.presentAfter(), dec.added()));
      state = new ModelNoiseState(dec.presentAfter(), before.samplesAbsorbed());
      lastAggregateLine = line.text();
      updates.clear();
      round++;
      if (round > s.rounds()) {
        publish(ModelEnvelope.Kind.FINAL_MODEL, avg, List.of(lastAggregateLine));
      } else {
        publish(ModelEnvelope.Kind.GLOBAL_MODEL, avg, List.of(lastAggregateLine));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // shut down
    } catch (java.io.IOException | RuntimeException e) {
      LOG.log(System.Logger.Level.ERROR, "aggregator: round " + round + " failed: " + e.getMessage());
    }
  }

  private void publish(ModelEnvelope.Kind kind, float[] prototypes, List<String> lines) {
    var s = ctx.settings();
    ModelEnvelope env = new ModelEnvelope(kind, s.federation(), ctx.id(), Math.min(round, s.rounds()), round,
        s.encoder().kind().id(), s.encoder().features(), s.encoder().basisSeed(), s.encoder().dim(), classes,
        state.presentVariance(), state.samplesAbsorbed(), lines, null, prototypes);
    String topic = kind == ModelEnvelope.Kind.FINAL_MODEL ? topics.finalModel() : topics.starGlobal();
    byte[] frame = ctx.broadcastFrame(env);
    currentGlobal = kind == ModelEnvelope.Kind.FINAL_MODEL ? null : frame;
    try {
      ctx.publishReliably(topic, frame, true, true);
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
