package io.hdfl.run;

import io.hdfl.data.Dataset;
import io.hdfl.data.Datasets;
import io.hdfl.data.Partitioner;
import io.hdfl.federation.FederationSettings;
import io.hdfl.federation.PeerConnector;
import io.hdfl.federation.RoundReport;
import io.hdfl.federation.LiveStream;
import io.hdfl.federation.Simulation;
import io.hdfl.federation.Topology;
import io.hdfl.hd.Classifier;
import io.hdfl.hd.EncodedSet;
import io.hdfl.hd.Encoder;
import io.hdfl.hd.Evaluation;
import io.hdfl.hd.HdModel;
import io.hdfl.kernels.VectorKernels;
import io.hdfl.kernels.VectorKernelsProvider;
import io.hdfl.privacy.ledger.PeerKeys;
import io.hdfl.privacy.noise.NoiseSource;
import io.hdfl.privacy.noise.SecureNoiseSource;
import io.hdfl.privacy.noise.SeededNoiseSource;
import io.hdfl.sensors.energy.DetectedMeter;
import io.hdfl.sensors.energy.DeviceProfile;
import io.hdfl.sensors.energy.DeviceProfiles;
import io.hdfl.sensors.energy.EnergyMeters;
import io.hdfl.sensors.energy.RadioEstimate;
import io.hdfl.transport.EmbeddedBroker;
import io.hdfl.transport.LoopbackBroker;
import io.hdfl.transport.MqttSettings;
import io.hdfl.transport.MqttTransport;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * {@code hdfl simulate} as a job: load and split the data, encode it once, run K peers over MQTT (the
 * embedded broker or an external one) or the loopback, evaluate the model after every round on the
 * test set, measure energy per round with the best meter this machine has, and write the run folder.
 */
public final class FederatedRun {
  private final VectorKernels kernels;

  public FederatedRun(VectorKernels kernels) {
    this.kernels = kernels;
  }

  /**
   * A star's L when {@code --per-round} was not given: the default (100), or less when the smallest
   * client shard cannot give every round that many new samples (each stored sample is learned once).
   */
  private static FederationSettings fitPerRound(FederationSettings s, RunPlan plan, List<EncodedSet> shards,
      RunProgress progress) {
    if (s.topology() != Topology.STAR || plan.perRoundChosen() || shards.isEmpty()) {
      return s;
    }
    long smallest = shards.stream().mapToLong(EncodedSet::size).min().getAsLong();
    long fits = smallest / s.rounds();
    if (fits >= s.perRound() || fits < 1) {
      return s; // enough; or not even one a round, which the simulation refuses with its reason
    }
    progress.stage("L = " + fits + " new samples per client per round: the smallest client shard holds " + smallest
        + " samples for " + s.rounds() + " rounds, and a star learns each stored sample once");
    return s.withPerRound(fits);
  }

  public RunResult execute(RunPlan plan, RunProgress progress) throws Exception {
    RunFolder folder = new RunFolder(plan.out());
    folder.checkWritable(); // before the run, not after it
    // the scoring kernels compiled by C2 while the data load, not on-stack during the federation
    VectorKernelsProvider.primeInBackground();
    // and the signing code's one-time setup done then too, not as the federation's clock starts
    PeerKeys.prepareInBackground();
    FederationSettings bound;
    EncodedSet testSet;
    List<EncodedSet> shards = new ArrayList<>();
    List<LiveStream> streams = null;
    int classes;
    List<String> classNames;
    if (plan.source() != null) {
      bound = plan.settings().withFeatures(SyntheticMachiningFleet.FEATURES);
      classes = SyntheticMachiningFleet.CLASSES;
      classNames = Dataset.indexClassNames(classes);
      progress.stage("starting " + plan.peers() + " synthetic machines (90 signals at 500 Hz, windows of "
          + SyntheticMachiningFleet.WINDOW + ")");
      Encoder encoder = new Encoder(bound.encoder(), kernels, plan.threads());
      SyntheticMachiningFleet.Fleet fleet = SyntheticMachiningFleet.build(bound.seed(), plan.peers(), encoder);
      testSet = plan.encodings().apply(fleet.test());
      streams = fleet.streams();
      if (bound.topology() == Topology.RING) {
        // ring peers retrain on a shard of their machine's next windows; star clients learn live, round by round
        for (LiveStream live : streams) {
          shards.add(plan.encodings().apply(live.next(bound.perRound())));
        }
      }
    } else {
      progress.stage("loading data");
      Dataset train = Datasets.load(plan.train(), plan.loading());
      Dataset test = Datasets.loadCompatible(plan.test(), train, plan.loading());
      bound = plan.settings().withFeatures(train.featureCount()); // the encoder takes what the data has
      classes = train.numClasses();
      classNames = train.classNames();
      progress.stage("encoding " + train.size() + " + " + test.size() + " samples at D=" + bound.encoder().dim());
      Encoder encoder = new Encoder(bound.encoder(), kernels, plan.threads());
      // int8 encodings are quantized chunk by chunk: the whole data set is never held as floats
      EncodedSet all = EncodedSet.encode(encoder, train.features(), train.size(), train.labels(), train.numClasses(),
          plan.threads(), plan.encodings());
      testSet = EncodedSet.encode(encoder, test.features(), test.size(), test.labels(), train.numClasses(),
          plan.threads(), plan.encodings());
      for (int[] idx : Partitioner.of(plan.split(), plan.peers(), true, bound.seed()).assign(train)) {
        shards.add(all.subset(idx));
      }
    }
    FederationSettings s = streams == null ? fitPerRound(bound, plan, shards, progress) : bound;
    if (s != bound) {
      plan = plan.withSettings(s);
    }
    Function<String, NoiseSource> noise = plan.noise().equals("secure")
        ? id -> new SecureNoiseSource()
        : id -> new SeededNoiseSource(s.seed() * 31 + id.hashCode(), kernels);
    DeviceProfile profile = DeviceProfiles.resolve(plan.profile());
    DetectedMeter meter = meterForRuns(profile);
    Classifier classifier = new Classifier(kernels, s.similarity());
    Map<Integer, Evaluation> evals = new TreeMap<>();
    // the rounds' models are scored on a thread of their own, so that a round's mark is not held up by
    // the evaluation of the round before, and that thread's CPU time is what the rounds leave out
    java.util.concurrent.ExecutorService evaluator = java.util.concurrent.Executors.newSingleThreadExecutor(r -> {
      Thread th = new Thread(r, "hdfl-evaluator");
      th.setDaemon(true);
      return th;
    });
    java.util.Set<Integer> marked = new java.util.HashSet<>();
    List<java.util.concurrent.Future<?>> scoring = java.util.Collections.synchronizedList(new ArrayList<>());
    long t0 = System.nanoTime();
    RoundMeter rounds;
    Simulation sim;
    Simulation.Result result;
    try {
      rounds = new RoundMeter(meter.meter(), evaluatorCpu(evaluator));
    } catch (InterruptedException | RuntimeException e) {
      evaluator.shutdownNow();
      meter.meter().close();
      throw e;
    }
    try (EmbeddedBroker broker = plan.transport().equals("mqtt") && plan.brokerUrl() == null
        ? new EmbeddedBroker().start() : null) {
      PeerConnector connector;
      if (plan.transport().equals("loopback")) {
        LoopbackBroker lb = new LoopbackBroker();
        connector = lb::connect;
      } else {
        MqttSettings base = MqttSettings.builder(broker != null ? broker.uri() : plan.brokerUrl()).build();
        connector = id -> MqttTransport.connect(base.withClientId(id));
      }
      progress.stage("running " + plan.peers() + " " + (s.topology() == Topology.RING ? "ring peers" : "star clients")
          + " over " + (plan.transport().equals("loopback") ? "the loopback" : broker != null ? "the embedded MQTT broker "
          + broker.uri() : plan.brokerUrl()));
      sim = streams != null && s.topology() == Topology.STAR
          ? Simulation.ofStreams(s, streams, classes, connector, kernels, noise)
          : new Simulation(s, shards, classes, connector, kernels, noise);
      result = sim.run((round, model) -> {
        synchronized (marked) {
          if (!marked.add(round)) {
            return;
          }
          rounds.roundEnded(round);
          scoring.add(evaluator.submit(() -> {
            Evaluation e = Evaluation.of(testSet.labels(), classifier.predict(model, testSet, 1), classes);
            synchronized (evals) {
              evals.put(round, e);
            }
            progress.roundDone(round, s.rounds(), e.accuracy(), (System.nanoTime() - t0) / 1e9);
          }));
        }
      }, plan.timeout(), rounds::firstRoundBegins);
      awaitAll(scoring);
    } finally {
      evaluator.shutdownNow();
      meter.meter().close();
      if (streams != null) {
        for (LiveStream live : streams) {
          live.close();
        }
      }
    }
    List<RoundRow> rows = rows(s, result, evals, rounds, profile);
    String title = s.topology().id() + " " + s.privacy().id() + ", K=" + plan.peers() + ", D=" + s.encoder().dim();
    HdModel finalModel = new HdModel(s.encoder(), s.similarity(), result.finalModel(), classNames);
    folder.write(rows, result.ledger(), result.keys(), finalModel,
        RunSummary.markdown(plan, rows, evals.get(s.rounds()), result, meter.reason(), energyNote(rounds, s.rounds())),
        title);
    return new RunResult(rows, evals.get(s.rounds()), result.wallSeconds(), plan.out(), meter.reason(),
        result.ledger().size(), s.perRound());
  }

  /**
   * The CPU time of the evaluator's thread, nanoseconds (started here); 0 where the JVM cannot measure
   * a thread's CPU time (the rounds then keep the evaluation's share).
   */
  private static java.util.function.LongSupplier evaluatorCpu(java.util.concurrent.ExecutorService evaluator)
      throws InterruptedException {
    long id;
    try {
      id = evaluator.submit(() -> Thread.currentThread().getId()).get(); // its one thread, from here on
    } catch (java.util.concurrent.ExecutionException e) {
      throw new IllegalStateException(e.getCause());
    }
    java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
    if (!threads.isThreadCpuTimeSupported()) {
      return () -> 0;
    }
    return () -> {
      try {
        return Math.max(0, threads.getThreadCpuTime(id));
      } catch (UnsupportedOperationException e) {
        return 0;
      }
    };
  }

  /** Waits for every round's evaluation; one that failed fails the run with its cause. */
  private static void awaitAll(List<java.util.concurrent.Future<?>> scoring) throws InterruptedException {
    List<java.util.concurrent.Future<?>> all;
    synchronized (scoring) {
      all = List.copyOf(scoring);
    }
    for (java.util.concurrent.Future<?> f : all) {
      try {
        f.get();
      } catch (java.util.concurrent.ExecutionException e) {
        throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
      }
    }
  }

  /** The meter a run reads ({@link EnergyMeters#forRuns}), named on the log: which one and why. */
  static DetectedMeter meterForRuns(DeviceProfile profile) {
    DetectedMeter meter = EnergyMeters.forRuns(profile);
    System.getLogger("io.hdfl.run").log(System.Logger.Level.INFO, "hdfl " + meter.reason());
    return meter;
  }

  /** What the rounds' energy leaves out: the start-up, and the test-set evaluations' share. */
  private static String energyNote(RoundMeter rounds, int r) {
    RoundMeter.Startup up = rounds.startup();
    double evaluation = 0;
    for (int i = 1; i <= r; i++) {
      RoundMeter.Round f = rounds.round(i);
      evaluation += f == null ? 0 : f.evaluationJoules();
    }
    return String.format(java.util.Locale.ROOT, "Not in the rounds: the start-up before round 1 (the broker where it is"
        + " embedded, keys, connections, the peers' starts: %.3g J over %.2f s) and the test-set evaluations (their"
        + " share of each round's energy by CPU time: %.3g J in all).", up.joules(), up.seconds(), evaluation);
  }

  private static List<RoundRow> rows(FederationSettings s, Simulation.Result result, Map<Integer, Evaluation> evals,
      RoundMeter meter, DeviceProfile profile) {
    List<RoundRow> rows = new ArrayList<>();
    for (int r = 1; r <= s.rounds(); r++) {
      double cpu = 0;
      long sent = 0;
      long received = 0;
      for (RoundReport rep : result.reports()) {
        if (rep.round() == r) {
          cpu += rep.cpuSeconds();
          sent += rep.bytesSent();
          received += rep.bytesReceived();
        }
      }
      final int round = r;
      // the model the round ends with: the ring's last step, the star's aggregate (an update recorded late
      // comes after it); every noise draw of the round counts in what was added
      var lastOfRound = result.ledger().stream().filter(l -> l.entry().round() == round
          && (s.topology() == Topology.RING || l.entry().kind() == io.hdfl.privacy.ledger.LedgerEntry.Kind.AGGREGATE))
          .reduce((a, b) -> b);
      double added = result.ledger().stream().filter(l -> l.entry().round() == round)
          .mapToDouble(l -> l.entry().addedVariance()).sum();
      RoundMeter.Round f = meter.round(r);
      double joules = Double.NaN;
      String source = "";
      double wall = Double.NaN;
      if (f != null) {
        RadioEstimate radio = new RadioEstimate(sent, received, profile);
        joules = f.federationJoules() + radio.joules();
        source = f.energy().sourceWith(radio);
        wall = f.seconds();
      }
      Evaluation ev = evals.get(r);
      rows.add(new RoundRow(r, ev == null ? Double.NaN : ev.accuracy(), ev == null ? Double.NaN : ev.macroF1(), wall,
          cpu, joules, source, sent, received,
          lastOfRound.map(l -> l.entry().requiredVariance()).orElse(0.0),
          lastOfRound.map(l -> l.entry().presentAfter()).orElse(0.0), added));
    }
    return rows;
  }

}
