package io.hdfl.federation;

import io.hdfl.hd.EncodedSet;
import io.hdfl.hd.Encoder;
import io.hdfl.hd.EncoderKind;
import io.hdfl.hd.EncoderSpec;
import io.hdfl.kernels.VectorKernels;
import io.hdfl.kernels.VectorKernelsProvider;
import io.hdfl.privacy.PrivacyParameters;
import io.hdfl.privacy.ledger.KeyDirectory;
import io.hdfl.privacy.ledger.LedgerLine;
import io.hdfl.privacy.ledger.LedgerVerifier;
import io.hdfl.privacy.ledger.PeerKeys;
import io.hdfl.privacy.ledger.PrivacyLedger;
import io.hdfl.privacy.ledger.Verification;
import io.hdfl.privacy.noise.SeededNoiseSource;
import io.hdfl.privacy.schedule.ScheduleMode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/** Small separable data, encoded once and dealt into equal shards, and helpers to run and check a federation. */
final class FederationFixture {
  static final VectorKernels K = VectorKernelsProvider.get();
  static final int FEATURES = 12;
  static final int CLASSES = 3;
  static final int DIM = 256;

  private FederationFixture() {}

  static EncoderSpec spec() {
    return new EncoderSpec(EncoderKind.COS, FEATURES, DIM, 7L);
  }

  /** {@code peers} shards of {@code perPeer} samples each (classes round-robin), and a test set. */
  static List<EncodedSet> shards(int peers, int perPeer) {
    Encoder enc = new Encoder(spec(), K, 1);
    List<EncodedSet> out = new ArrayList<>();
    SplittableRandom r = new SplittableRandom(3);
    for (int p = 0; p < peers; p++) {
      out.add(blobs(enc, perPeer, r));
    }
    return out;
  }

  static EncodedSet blobs(Encoder enc, int n, SplittableRandom r) {
    float[] x = new float[n * FEATURES];
    int[] y = new int[n];
    for (int i = 0; i < n; i++) {
      y[i] = i % CLASSES;
      for (int k = 0; k < FEATURES; k++) {
        x[i * FEATURES + k] = (float) ((k % CLASSES == y[i] ? 1.0 : 0.1) + 0.3 * (r.nextDouble() - 0.5));
      }
    }
    return EncodedSet.encode(enc, x, n, y, CLASSES, 1);
  }

  /** Whether {@code condition} came true within {@code millis} (looked at every 10 ms). */
  static boolean waitFor(java.util.function.BooleanSupplier condition, long millis) throws InterruptedException {
    long end = System.currentTimeMillis() + millis;
    while (!condition.getAsBoolean()) {
      if (System.currentTimeMillis() > end) {
        return false;
      }
      Thread.sleep(10);
    }
    return true;
  }

  /** A peer's context on {@code broker}: fresh keys, seeded noise, no hop encryption, no packet limit. */
  static PeerContext context(String id, FederationSettings s, io.hdfl.transport.LoopbackBroker broker)
      throws Exception {
    io.hdfl.transport.Transport t = broker.connect(id);
    return new PeerContext(id, s, t, io.hdfl.privacy.ledger.PeerKeys.generate(id),
        new SeededNoiseSource(id.hashCode(), K), K, new MetricsPublisher(t, new Topics(s.federation()), id),
        new FrameChannel(t, 0));
  }

  static FederationSettings.Builder ring(ScheduleMode mode, int rounds) {
    return FederationSettings.builder().topology(Topology.RING).privacy(mode)
        .params(PrivacyParameters.withDelta0(DIM, 1.0, 1e-3)).encoder(spec()).rounds(rounds).retrainEpochs(1)
        .ackTimeout(Duration.ofSeconds(5)).federation("test").seed(11);
  }

  static FederationSettings.Builder star(int rounds, long perRound) {
    return FederationSettings.builder().topology(Topology.STAR).privacy(ScheduleMode.FEDHDP)
        .params(PrivacyParameters.perSampleDelta(DIM, 1.0)).encoder(spec()).rounds(rounds).retrainEpochs(1)
        .perRound(perRound).federation("test").seed(11);
  }

  static Simulation.Result run(FederationSettings s, List<EncodedSet> shards, PeerConnector connector)
      throws Exception {
    return run(s, shards, connector, (round, model) -> { });
  }

  /**
   * As {@link #run(FederationSettings, List, PeerConnector)}, giving each round's model the recorder
   * evaluates to {@code onRoundModel}.
   */
  static Simulation.Result run(FederationSettings s, List<EncodedSet> shards, PeerConnector connector,
      java.util.function.BiConsumer<Integer, io.hdfl.hd.ClassPrototypes> onRoundModel) throws Exception {
    Simulation sim = new Simulation(s, shards, CLASSES, connector, K,
        id -> new SeededNoiseSource(s.seed() * 31 + id.hashCode(), K));
    return sim.run(onRoundModel, Duration.ofSeconds(60));
  }

  /** Writes the run's ledger and keys under {@code dir} and verifies it as {@code hdfl ledger verify} would. */
  static Verification verify(Simulation.Result r, FederationSettings s, Path dir) throws Exception {
    PrivacyLedger ledger = PrivacyLedger.inMemory(s.ledgerSettings());
    for (LedgerLine l : r.ledger()) {
      ledger.appendLine(l);
    }
    Path file = dir.resolve("ledger.jsonl");
    ledger.writeTo(file);
    for (PeerKeys k : r.keys().values()) {
      k.publish(dir.resolve("keys"));
    }
    return new LedgerVerifier(KeyDirectory.open(dir.resolve("keys"))).verify(file);
  }
}
