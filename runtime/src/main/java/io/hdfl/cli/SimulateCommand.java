package io.hdfl.cli;

import io.hdfl.data.Partitioner;
import io.hdfl.federation.FederationSettings;
import io.hdfl.federation.Topology;
import io.hdfl.hd.EncoderKind;
import io.hdfl.hd.EncoderSpec;
import io.hdfl.hd.EncodingPrecision;
import io.hdfl.hd.Similarity;
import io.hdfl.kernels.VectorKernelsProvider;
import io.hdfl.privacy.PrivacyParameters;
import io.hdfl.privacy.schedule.ScheduleMode;
import io.hdfl.run.FederatedRun;
import io.hdfl.run.RunPlan;
import io.hdfl.run.RunProgress;
import io.hdfl.run.RunResult;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code hdfl simulate}: K peers in one process, talking only through the broker. */
@Command(name = "simulate", mixinStandardHelpOptions = true,
    description = {"Run a private federation of K peers in one process over MQTT (embedded broker unless --broker) "
        + "or the loopback, evaluate every round and write a run folder.",
        "With no options: a small demo on the shipped ISOLET split (10 ring peers, 5 rounds, PrivateDFL)."})
final class SimulateCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(names = "--train", paramLabel = "FILE", description = "Training data (default: the shipped ISOLET split).")
  Path train;

  @Option(names = "--test", paramLabel = "FILE", description = "Test data (default: the shipped ISOLET split).")
  Path test;

  @Mixin DataLoading loading;

  @Option(names = "--split", defaultValue = "iid", paramLabel = "iid|noniid",
      description = "How the training data is dealt to the peers (default: ${DEFAULT-VALUE}).")
  String split;

  @Option(names = "--topology", defaultValue = "ring", paramLabel = "ring|star", description = "Default: ${DEFAULT-VALUE}.")
  String topology;

  @Option(names = "--transport", defaultValue = "mqtt", paramLabel = "mqtt|loopback", description = "Default: ${DEFAULT-VALUE}.")
  String transport;

  @Option(names = "--broker", paramLabel = "URL", description = "External broker (tcp://host:1883, ssl://host:8883).")
  String broker;

  @Option(names = "--privacy", paramLabel = "privatedfl|fedhdp|blackbox|none",
      description = "Noise schedule (default: privatedfl for a ring, fedhdp for a star).")
  String privacy;

  @Option(names = "--epsilon", defaultValue = "1.0", description = "ε per release (default: ${DEFAULT-VALUE}).")
  double epsilon;

  @Option(names = "--delta0", defaultValue = "1e-3", description = "δ0 in δ = δ0/samples (default: ${DEFAULT-VALUE}; "
      + "fedhdp uses δ = 1/samples).")
  double delta0;

  @Option(names = "--dim", defaultValue = "2000", description = "Hypervector dimension D (default: ${DEFAULT-VALUE}).")
  int dim;

  @Option(names = "--encoder", defaultValue = "cos", paramLabel = "cos|sign|cos-bias",
      converter = Converters.EncoderKindConverter.class, description = "Default: ${DEFAULT-VALUE}.")
  EncoderKind encoder;

  @Option(names = "--encodings", defaultValue = "int8", converter = Converters.EncodingPrecisionConverter.class,
      paramLabel = "int8|float32", description = "How each peer keeps its cached encodings: int8 codes (a quarter of "
          + "the memory; each component within 1/254) or float32 (default: ${DEFAULT-VALUE}).")
  EncodingPrecision encodings;

  @Option(names = "--similarity", defaultValue = "cosine", converter = Converters.SimilarityConverter.class,
      paramLabel = "cosine|dot", description = "Default: ${DEFAULT-VALUE}.")
  Similarity similarity;

  @Option(names = "--rounds", defaultValue = "5", description = "Rounds R (default: ${DEFAULT-VALUE}).")
  int rounds;

  @Option(names = "--peers", defaultValue = "10", description = "Peers (ring) or clients (star) K (default: ${DEFAULT-VALUE}).")
  int peers;

  @Option(names = "--per-round", paramLabel = "L",
      description = "Star: new samples per client per round (default: 100, or fewer when the smallest client's data "
          + "cannot give every round that many new ones: a stored sample is learned once).")
  Long perRound;

  @Option(names = "--epochs", defaultValue = "1", description = "Retraining passes per round (default: ${DEFAULT-VALUE}).")
  int epochs;

  @Option(names = "--seed", defaultValue = "42", description = "Seed of basis, split, shuffles and seeded noise.")
  long seed;

  @Option(names = "--noise", defaultValue = "seeded", paramLabel = "seeded|secure",
      description = "Noise source (default: ${DEFAULT-VALUE}; seeded is NOT for deployment).")
  String noise;

  @Option(names = "--profile", paramLabel = "NAME|SPEC",
      description = "Device profile for estimated energy (default: x86-server-core on x86-64, raspberry-pi-4 elsewhere).")
  String profile;

  @Option(names = "--quorum", defaultValue = "0", description = "Star: updates needed per round (0 = all).")
  int quorum;

  @Option(names = "--deadline", defaultValue = "30", description = "Star: seconds to wait past the quorum (default: ${DEFAULT-VALUE}).")
  long deadlineSeconds;

  @Option(names = "--source", paramLabel = "synthetic-machining",
      description = "Learn from a live signal source instead of --train/--test: synthetic-machining is one "
          + "simulated CNC machine per peer (90 signals at 500 Hz, windows of 10, 3 quality classes; star clients "
          + "take --per-round new windows each round, ring peers a shard of that many).")
  String source;

  @Option(names = "--encryption", defaultValue = "none", paramLabel = "none|auto|aes-gcm|chacha20-poly1305",
      description = "End-to-end encryption of hops (ring models and acks, star updates), with fresh keys per run "
          + "(default: ${DEFAULT-VALUE}; 'hdfl peer' encrypts by default).")
  String encryption;

  @Option(names = "--max-packet", defaultValue = "0", paramLabel = "BYTES",
      description = "The broker's largest message; larger model frames are sent in chunks (default: 0 = no limit).")
  int maxPacket;

  @Option(names = "--threads", description = "Threads for encoding (default: available processors).")
  Integer threads;

  @Option(names = "--timeout", defaultValue = "600", description = "Seconds the whole run may take (default: ${DEFAULT-VALUE}).")
  long timeoutSeconds;

  @Option(names = "--out", paramLabel = "DIR", description = "Run folder (default: runs/<date-time>).")
  Path out;

  @Option(names = "--json", description = "Print one JSON summary object.")
  boolean json;

  @Override
  public Integer call() throws Exception {
    PrintWriter err = spec.commandLine().getErr();
    PrintWriter stdout = spec.commandLine().getOut();
    Topology topo = Topology.parse(topology);
    ScheduleMode mode = ScheduleMode.parse(privacy != null ? privacy
        : topo == Topology.RING ? "privatedfl" : "fedhdp");
    PrivacyParameters params = mode == ScheduleMode.FEDHDP ? PrivacyParameters.perSampleDelta(dim, epsilon)
        : PrivacyParameters.withDelta0(dim, epsilon, delta0);
    Path home = Path.of(System.getProperty("hdfl.home", "."));
    // a live source has no files (the run's eval command then names FILE: the windows are not on disk)
    Path trainFile = source != null ? null : train != null ? train : home.resolve("data/isolet/isolet5-train.choir_dat.gz");
    Path testFile = source != null ? null : test != null ? test : home.resolve("data/isolet/isolet5-test.choir_dat.gz");
    // The encoder's feature count (1 here) is bound to the training data's by FederatedRun.
    FederationSettings settings = FederationSettings.builder().topology(topo).privacy(mode).params(params)
        .encoder(new EncoderSpec(encoder, 1, dim, seed)).similarity(similarity).rounds(rounds)
        .retrainEpochs(epochs).perRound(perRound != null ? perRound : 100).quorum(quorum).roundDeadline(Duration.ofSeconds(deadlineSeconds))
        .seed(seed).maxPacketBytes(maxPacket)
        .encryption(encryption.equalsIgnoreCase("none") ? null : io.hdfl.security.HopAead.parse(encryption))
        .federation("sim-" + Long.toHexString(System.nanoTime() & 0xffffffL)).build();
    String prof = profile != null ? profile : io.hdfl.sensors.energy.DeviceProfiles.defaultName();
    Path outDir = out != null ? out
        : Path.of("runs", LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
    Partitioner.Scheme scheme = switch (split.trim().toLowerCase(Locale.ROOT)) {
      case "iid" -> Partitioner.Scheme.IID;
      case "noniid", "non-iid" -> Partitioner.Scheme.NON_IID;
      default -> throw new IllegalArgumentException("--split must be iid or noniid, got '" + split + "'");
    };
    if (source != null && (train != null || test != null)) {
      throw new IllegalArgumentException("--source replaces --train/--test; give one or the other");
    }
    if (source != null && loading.given()) {
      throw new IllegalArgumentException("--label-column and --ignore-columns choose the columns of a CSV --train "
          + "file; --source reads none");
    }
    RunPlan plan = new RunPlan(settings, trainFile, testFile, scheme, peers, transport, broker, noise, prof,
        threads == null ? Runtime.getRuntime().availableProcessors() : threads, Duration.ofSeconds(timeoutSeconds),
        outDir, source, encodings, perRound != null, loading.options());
    RunResult r = new FederatedRun(VectorKernelsProvider.get()).execute(plan, new RunProgress() {
      @Override
      public void stage(String what) {
        if (!json) {
          err.println("hdfl simulate: " + what);
          err.flush();
        }
      }

      @Override
      public void roundDone(int round, int total, double accuracy, double elapsed) {
        err.printf(Locale.ROOT, "round %d/%d: test accuracy %.4f (%.1f s)%n", round, total, accuracy, elapsed);
        err.flush();
      }
    });
    if (json) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("final_accuracy", r.finalEvaluation().accuracy());
      m.put("macro_f1", r.finalEvaluation().macroF1());
      m.put("mean_margin", r.finalEvaluation().meanMargin());
      m.put("wall_s", r.wallSeconds());
      m.put("rounds", rounds);
      m.put("peers", peers);
      m.put("topology", topo.id());
      m.put("privacy", mode.id());
      if (topo == Topology.STAR) {
        m.put("per_round", r.perRound()); // L, as the run used it (lowered to fit the shards unless given)
      }
      m.put("transport", transport);
      m.put("noise", noise);
      m.put("encodings", encodings.id());
      m.put("ledger_entries", r.ledgerEntries());
      m.put("out", r.out().toString());
      m.put("final_model", r.modelFile().toString());
      JsonOutput.print(stdout, m);
    } else {
      stdout.printf(Locale.ROOT, "final test accuracy %.2f %%, macro-F1 %.4f, %d rounds in %.2f s; run folder %s%n",
          100 * r.finalEvaluation().accuracy(), r.finalEvaluation().macroF1(), rounds, r.wallSeconds(), r.out());
      stdout.printf("check the privacy ledger: hdfl ledger verify %s%n", r.ledgerFile());
      stdout.printf("score the final model: %s%n", plan.evalCommand());
    }
    return 0;
  }
}
