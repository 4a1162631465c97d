package io.hdfl.federation;

import io.hdfl.security.HopCipher;
import io.hdfl.security.HopKeys;
import io.hdfl.security.Roster;
import io.hdfl.security.SealException;

import io.hdfl.codec.EnvelopeCodec;
import io.hdfl.codec.EnvelopeException;
import io.hdfl.codec.ModelEnvelope;
import io.hdfl.hd.ClassPrototypes;
import io.hdfl.hd.EncodedSet;
import io.hdfl.kernels.VectorKernels;
import io.hdfl.privacy.ledger.LedgerLine;
import io.hdfl.privacy.ledger.PeerKeys;
import io.hdfl.privacy.ledger.PrivacyLedger;
import io.hdfl.privacy.noise.NoiseSource;
import io.hdfl.transport.Transport;
import io.hdfl.transport.TransportException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * K peers of one federation in one process, each with its own connection, talking only through the
 * broker (or the loopback). A recorder — one more client — collects what an operator would: the model
 * at the start of every round (to evaluate it), the peers' round reports and the final model. The
 * run's ledger is what the participants signed, as an operator would gather it from the devices'
 * ledger files: each ring peer's entries as it commits them, a star's from its aggregator's ledger.
 * (The recorder once took them from the ledger topics; a line and the one model that carried it on
 * to the recorder could both pass while its subscriptions were gone after a broker restart, and the
 * run then failed with a broken chain.)
 */
public final class Simulation {
  /** The ledger topic the recorder probes its own subscriptions on (no peer has this id). */
  static final String RECORDER_PROBE = "recorder-probe";
  private static final byte[] PROBE_PAYLOAD = "probe".getBytes(StandardCharsets.US_ASCII);

  /** What a run produced. */
  public record Result(
      ClassPrototypes finalModel,
      List<LedgerLine> ledger,
      Map<String, PeerKeys> keys,
      List<RoundReport> reports,
      double wallSeconds) {}

  /** Threads for connecting and starting participants at most: beyond this many, they come in waves. */
  private static final int MAX_PARALLEL = 512;

  private final FederationSettings settings;
  private final List<EncodedSet> shards;
  /** Peers (ring) or clients (star). */
  private final int peers;
  private final int classes;
  private final PeerConnector connector;
  private final VectorKernels kernels;
  private final Function<String, NoiseSource> noise;
  /** This run's X25519 keys and roster (encrypted hops only). */
  private Map<String, HopKeys> hopKeys = Map.of();
  private Roster roster;
  private List<LocalStream> streams;

  /**
   * @param shards one encoded shard per peer (ring) or client (star)
   * @param noise the noise source of each peer id (seeded per peer in simulations, secure on devices)
   */
  public Simulation(FederationSettings settings, List<EncodedSet> shards, int classes, PeerConnector connector,
      VectorKernels kernels, Function<String, NoiseSource> noise) {
    this(settings, shards, classes, connector, kernels, noise, shards.size());
    if (shards.isEmpty()) {
      throw new IllegalArgumentException("a federation needs at least one peer");
    }
    if (settings.topology() == Topology.STAR) {
      List<String> ids = peerIds();
      for (int i = 0; i < shards.size(); i++) { // before anything connects (each StarClient checks it too)
        String shortfall = SampleStream.shortfall(ids.get(i), shards.get(i).size(), settings.rounds(),
            settings.perRound());
        if (shortfall != null) {
          throw new IllegalArgumentException(shortfall);
        }
      }
    }
  }

  private Simulation(FederationSettings settings, List<EncodedSet> shards, int classes, PeerConnector connector,
      VectorKernels kernels, Function<String, NoiseSource> noise, int peers) {
    this.peers = peers;
    this.settings = settings;
    this.shards = List.copyOf(shards);
    this.classes = classes;
    this.connector = connector;
    this.kernels = kernels;
    this.noise = noise;
  }

  /**
   * A star whose clients learn from {@code streams} (one per client, e.g. live signal sources)
   * instead of stored shards.
   */
  public static Simulation ofStreams(FederationSettings settings, List<? extends LocalStream> streams, int classes,
      PeerConnector connector, VectorKernels kernels, Function<String, NoiseSource> noise) {
    if (settings.topology() != Topology.STAR) {
      throw new IllegalArgumentException("only star clients learn from streams; a ring retrains on stored shards");
    }
    if (streams.isEmpty()) {
      throw new IllegalArgumentException("a federation needs at least one peer");
    }
    Simulation sim = new Simulation(settings, List.of(), classes, connector, kernels, noise, streams.size());
    sim.streams = List.copyOf(streams);
    return sim;
  }

  /** Peer ids: {@code peer-001 …} (ring) or {@code client-001 …} (star). */
  public List<String> peerIds() {
    List<String> ids = new ArrayList<>();
    String prefix = settings.topology() == Topology.RING ? "peer-" : "client-";
    for (int i = 1; i <= peers; i++) {
      ids.add(String.format("%s%03d", prefix, i));
    }
    return ids;
  }

  /**
   * Runs the federation to its final model.
   *
   * @param onRoundModel called (on the recorder's thread) with each round's resulting model
   * @param timeout the whole run's limit
   */
  public Result run(BiConsumer<Integer, ClassPrototypes> onRoundModel, Duration timeout)
      throws TransportException, InterruptedException, TimeoutException {
    return run(onRoundModel, timeout, () -> { });
  }

  /**
   * As {@link #run(BiConsumer, Duration)}, calling {@code onFirstRound} once every participant is
   * connected with its keys and every ring peer or star client has started, just before the ring's
   * first hand-off or the aggregator's start (its subscription and first global model): what comes
   * before it is the run's start-up.
   */
  public Result run(BiConsumer<Integer, ClassPrototypes> onRoundModel, Duration timeout, Runnable onFirstRound)
      throws TransportException, InterruptedException, TimeoutException {
    Topics topics = new Topics(settings.federation());
    List<String> ids = peerIds();
    Map<String, PeerKeys> keys = java.util.Collections.synchronizedMap(new LinkedHashMap<>());
    List<AutoCloseable> running = new ArrayList<>();
    List<RoundReport> reports = Collections.synchronizedList(new ArrayList<>());
    LedgerCollector ledgerLines = new LedgerCollector(settings.ledgerSettings());
    CompletableFuture<ModelEnvelope> finalModel = new CompletableFuture<>();
    List<RingPeer> ringPeers = Collections.synchronizedList(new ArrayList<>());
    PrivacyLedger starLedger = null;
    long t0 = System.nanoTime();
    List<String> all = new ArrayList<>(ids);
    if (settings.topology() == Topology.STAR) {
      all.add("aggregator");
    }
    for (String id : all) {
      keys.put(id, PeerKeys.generate(id));
    }
    hopKeys = hopKeys(all, keys);
    // The recorder evaluates each round's model as the ring's first peer receives it, so with
    // encrypted hops it opens them with that peer's key (star: the global model is a broadcast).
    HopCipher recorderHops = settings.topology() == Topology.RING ? cipherOf(ids.get(0)) : null;
    try {
      // the recorder and every participant connect at once; the recorder subscribes before any starts
      Connections connections = connectAll(all, keys, running);
      Transport recorder = connections.recorder();
      FrameChannel recorderFrames = new FrameChannel(recorder, settings.maxPacketBytes());
      var expect = new PeerContext("recorder", settings, recorder, null, null, kernels, r -> { }, recorderFrames)
          .expectations();
      recorder.subscribe(topics.allMetrics(), 1, (topic, payload, retained) -> {
        try {
          reports.add(RoundReport.fromJson(payload));
        } catch (java.io.IOException e) {
          // a malformed report is not the recorder's problem to fix
        }
      });
      String probe = topics.ledger(RECORDER_PROBE);
      CountDownLatch probed = new CountDownLatch(1);
      recorder.subscribe(probe, 1, (topic, payload, retained) -> probed.countDown());
      String roundTopic = settings.topology() == Topology.RING ? topics.ringInbox(ids.get(0)) : topics.starGlobal();
      recorder.subscribe(roundTopic, 1, recorderFrames.receiver((topic, payload, retained) -> {
        try {
          byte[] frame = payload;
          if (recorderHops != null && HopCipher.isSealed(payload)) {
            frame = recorderHops.open(payload).frame();
          }
          ModelEnvelope env = EnvelopeCodec.decode(frame, expect);
          boolean ringStart = env.kind() == ModelEnvelope.Kind.RING_MODEL && env.round() > 1;
          boolean starGlobal = env.kind() == ModelEnvelope.Kind.GLOBAL_MODEL && env.round() > 1;
          if (ringStart || starGlobal) {
            onRoundModel.accept(env.round() - 1, ClassPrototypes.copyOf(env.classes(), env.dim(), env.prototypes()));
          }
        } catch (EnvelopeException | SealException e) {
          // rejected frames are logged by the peers that receive them
        }
      }));
      recorderFrames.subscribeKept(topics.finalModel(), 1, (topic, payload, retained) -> {
        try {
          ModelEnvelope fin = EnvelopeCodec.decode(payload, expect);
          // the ring's peers learn of it, as a device does on its own subscription
          ringPeers.forEach(p -> p.finalSeen(fin)); // a synchronized list's forEach holds its lock
          finalModel.complete(fin);
        } catch (EnvelopeException e) {
          finalModel.completeExceptionally(e);
        }
      });
      awaitSubscriptions(recorder, probe, probed, Duration.ofSeconds(10));
      Map<String, PeerContext> contexts = connections.peers();
      if (settings.topology() == Topology.RING) {
        List<Start> starts = new ArrayList<>();
        for (int i = 0; i < ids.size(); i++) {
          RingPeer p = new RingPeer(contexts.get(ids.get(i)), ids, shards.get(i)).reportingEntries(ledgerLines::add);
          running.add(p);
          ringPeers.add(p);
          starts.add(p::start);
        }
        startAll(starts);
        onFirstRound.run();
        ringPeers.get(0).kickOff();
      } else {
        starLedger = PrivacyLedger.inMemory(settings.ledgerSettings());
        StarAggregator agg = new StarAggregator(contexts.get("aggregator"), ids.size(), classes, starLedger);
        running.add(agg);
        List<Start> starts = new ArrayList<>();
        for (int i = 0; i < ids.size(); i++) {
          StarClient c = streams != null ? new StarClient(contexts.get(ids.get(i)), streams.get(i))
              : new StarClient(contexts.get(ids.get(i)), shards.get(i));
          running.add(c);
          starts.add(c::start);
        }
        startAll(starts); // every client listens before the aggregator publishes the first global model
        onFirstRound.run();
        agg.start();
      }
      ModelEnvelope fin;
      try {
        fin = finalModel.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      } catch (TimeoutException e) {
        throw new FederationException("no final model within " + timeout.toSeconds() + " s (--timeout)");
      } catch (ExecutionException e) {
        throw new IllegalStateException("final model unreadable: " + e.getCause().getMessage(), e.getCause());
      }
      ClassPrototypes model = ClassPrototypes.copyOf(fin.classes(), fin.dim(), fin.prototypes());
      onRoundModel.accept(settings.rounds(), model);
      List<LedgerLine> ledger;
      if (starLedger != null) {
        // the aggregator's own ledger, as a device aggregator keeps it in its file: lines the broker
        // acknowledged but lost in a restart before delivering them to the recorder are still there
        ledger = starLedger.lines();
      } else {
        ledger = ledgerLines.ordered(fin.ledgerLines());
      }
      waitForReports(reports, ledger.size(), Duration.ofSeconds(10));
      return new Result(model, ledger, keys, List.copyOf(reports), (System.nanoTime() - t0) / 1e9);
    } finally {
      for (int i = running.size() - 1; i >= 0; i--) {
        try {
          running.get(i).close();
        } catch (Exception e) {
          // closing the rest matters more
        }
      }
    }
  }

  /** The recorder's transport and each participant's context, by id. */
  private record Connections(Transport recorder, Map<String, PeerContext> peers) {}

  /**
   * Connects the recorder and every participant at once, each on a thread of its own: an MQTT connect
   * waits about 300 ms on the client side (Paho 1.2.5 polls each of its three threads' start every
   * 100 ms), so connecting K peers in waves would dominate short runs (Fashion-MNIST ring, K=100:
   * 1.2-1.4 s in four waves of 32, one wave about 0.35 s). Whatever connected is in {@code running}
   * (the recorder first), also when another connect failed.
   */
  private Connections connectAll(List<String> ids, Map<String, PeerKeys> keys, List<AutoCloseable> running)
      throws TransportException, InterruptedException {
    List<java.util.concurrent.Callable<Object>> connects = new ArrayList<>();
    connects.add(() -> connector.connect(settings.federation() + "-recorder"));
    for (String id : ids) {
      PeerKeys k = keys.computeIfAbsent(id, PeerKeys::generate);
      connects.add(() -> context(id, k));
    }
    List<Object> done = inParallel("hdfl-connect", connects,
        c -> running.add(c instanceof PeerContext peer ? peer.transport() : (Transport) c));
    Map<String, PeerContext> peers = new LinkedHashMap<>();
    for (int i = 0; i < ids.size(); i++) {
      peers.put(ids.get(i), (PeerContext) done.get(i + 1));
    }
    return new Connections((Transport) done.get(0), peers);
  }

  /** A participant's subscriptions, made before the federation starts. */
  @FunctionalInterface
  private interface Start {
    void start() throws TransportException;
  }

  /** Starts every participant at once: each start waits for its subscriptions' acknowledgements. */
  private static void startAll(List<? extends Start> starts) throws TransportException, InterruptedException {
    List<java.util.concurrent.Callable<Object>> tasks = new ArrayList<>();
    for (Start s : starts) {
      tasks.add(() -> {
        s.start();
        return s;
      });
    }
    inParallel("hdfl-start", tasks, s -> { });
  }

  /**
   * Runs {@code tasks} at once, each on a thread of its own named {@code thread} (up to {@link
   * #MAX_PARALLEL}); returns their results in order, each given to {@code done} as it is collected,
   * or, once all have ended, throws the first failure.
   */
  private static List<Object> inParallel(String thread, List<java.util.concurrent.Callable<Object>> tasks,
      java.util.function.Consumer<Object> done) throws TransportException, InterruptedException {
    java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(
        Math.max(1, Math.min(tasks.size(), MAX_PARALLEL)), r -> {
          Thread t = new Thread(r, thread);
          t.setDaemon(true);
          return t;
        });
    try {
      List<java.util.concurrent.Future<Object>> futures = new ArrayList<>();
      for (java.util.concurrent.Callable<Object> task : tasks) {
        futures.add(pool.submit(task));
      }
      List<Object> out = new ArrayList<>();
      TransportException first = null;
      for (java.util.concurrent.Future<Object> f : futures) {
        try {
          Object result = f.get();
          out.add(result);
          done.accept(result);
        } catch (ExecutionException e) {
          out.add(null);
          if (first == null) {
            first = e.getCause() instanceof TransportException te ? te
                : new TransportException(String.valueOf(e.getCause()), e.getCause());
          }
        }
      }
      if (first != null) {
        throw first;
      }
      return out;
    } finally {
      pool.shutdownNow();
    }
  }

  private PeerContext context(String id, PeerKeys k) throws TransportException {
    Transport t = connector.connect(settings.federation() + "-" + id);
    Topics topics = new Topics(settings.federation());
    return new PeerContext(id, settings, t, k, noise.apply(id), kernels, new MetricsPublisher(t, topics, id),
        new FrameChannel(t, settings.maxPacketBytes()), cipherOf(id));
  }

  /** Fresh X25519 keys for every participant when hops are encrypted (the roster is all of them). */
  private Map<String, HopKeys> hopKeys(List<String> participants, Map<String, PeerKeys> signing) {
    Map<String, HopKeys> out = new LinkedHashMap<>();
    if (settings.encryption() != null) {
      for (String id : participants) {
        out.put(id, HopKeys.generate(id));
      }
      Map<String, java.security.PublicKey> pub = new LinkedHashMap<>();
      out.forEach((id, k) -> pub.put(id, k.publicKey()));
      Map<String, java.security.PublicKey> sig = new LinkedHashMap<>();
      signing.forEach((id, k) -> sig.put(id, k.publicKey()));
      roster = Roster.of(pub, sig);
    }
    return out;
  }

  /** The hop cipher of {@code id}, or null when hops are not encrypted. */
  private HopCipher cipherOf(String id) {
    HopKeys k = hopKeys.get(id);
    return k == null ? null : new HopCipher(settings.federation(), k, roster, settings.encryption());
  }

  /**
   * Publishes probes on the recorder's own ledger topic until its subscription there delivers one,
   * before any peer starts. An embedded Moquette now and then drops a connection right after
   * accepting it; the transport then makes the subscriptions again when it has reconnected, and a
   * round's model published before that would never reach the recorder to be evaluated.
   */
  private static void awaitSubscriptions(Transport recorder, String probe, CountDownLatch seen,
      Duration max) throws InterruptedException {
    long deadline = System.nanoTime() + max.toNanos();
    do {
      try {
        recorder.publish(probe, PROBE_PAYLOAD, 1, false);
      } catch (TransportException e) {
        // reconnecting: the next probe goes out when the connection is back
      }
      if (seen.await(50, TimeUnit.MILLISECONDS)) {
        return;
      }
    } while (System.nanoTime() < deadline);
    throw new FederationException("the recorder's subscriptions did not take within " + max.toSeconds() + " s");
  }

  /**
   * Every ledger entry comes with one round report, but a peer publishes its report after passing the
   * model on: wait for the stragglers so the last round's totals are complete — while they keep
   * coming (reports are best effort: one lost to a broker outage or a dead peer never comes).
   */
  private static void waitForReports(List<RoundReport> reports, int expected, Duration max)
      throws InterruptedException {
    long deadline = System.nanoTime() + max.toNanos();
    long quiet = Duration.ofSeconds(2).toNanos();
    int seen = reports.size();
    long lastNew = System.nanoTime();
    while (reports.size() < expected && System.nanoTime() < deadline && System.nanoTime() - lastNew < quiet) {
      Thread.sleep(2);
      if (reports.size() != seen) {
        seen = reports.size();
        lastNew = System.nanoTime();
      }
    }
  }
}
