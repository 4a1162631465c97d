package io.hdfl.run;

import io.hdfl.federation.FederationSettings;
import io.hdfl.federation.Simulation;
import io.hdfl.federation.Topology;
import io.hdfl.hd.ClassPrototypes;
import io.hdfl.hd.EncodedSet;
import io.hdfl.hd.Encoder;
import io.hdfl.hd.EncoderKind;
import io.hdfl.hd.EncoderSpec;
import io.hdfl.hd.Similarity;
import io.hdfl.kernels.PackedMatrix;
import io.hdfl.kernels.VectorKernels;
import io.hdfl.kernels.VectorKernelsProvider;
import io.hdfl.privacy.PrivacyParameters;
import io.hdfl.privacy.noise.SecureNoiseSource;
import io.hdfl.privacy.noise.SeededNoiseSource;
import io.hdfl.privacy.schedule.ScheduleMode;
import io.hdfl.sensors.energy.DetectedMeter;
import io.hdfl.sensors.energy.DeviceProfile;
import io.hdfl.sensors.energy.EnergyReading;
import io.hdfl.sensors.energy.RoundEnergy;
import io.hdfl.transport.EmbeddedBroker;
import io.hdfl.transport.MqttSettings;
import io.hdfl.transport.MqttTransport;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The on-device benchmark behind {@code hdfl bench}: the kernels' GEMM speed (scalar and vector),
 * encode and inference latency at the device's D and S, one update of {@code secure} noise for an S×D
 * model (and what is left of it in a ring turn whose draws were made ahead), one federation round (a
 * 3-peer ring over the embedded broker: wall time and energy, with the meter that measured it) and
 * the memory peak. Times are medians of repeated runs after a warm-up.
 */
public final class DeviceBench {
  /** What to measure: the device's dimensions. */
  public record Plan(int dim, int classes, int features, boolean quick, DeviceProfile profile) {}

  private final VectorKernels vector;
  private final VectorKernels scalar = VectorKernelsProvider.scalar();
  private long warmupNanos;

  public DeviceBench(VectorKernels kernels) {
    this.vector = kernels;
  }

  /** Runs everything; the map's keys are stable names, values numbers or text. */
  public Map<String, Object> run(Plan p) throws Exception {
    warmupNanos = p.quick() ? 300_000_000L : 2_000_000_000L;
    Map<String, Object> r = new LinkedHashMap<>();
    r.put("kernel_provider", VectorKernelsProvider.reason());
    r.put("dim", p.dim());
    r.put("classes", p.classes());
    r.put("features", p.features());
    int n = p.quick() ? 128 : 1024;
    double flops = 2.0 * n * p.features() * p.dim();
    double vec = gemmSeconds(vector, n, p, p.quick() ? 5 : 11);
    double sca = gemmSeconds(scalar, n, p, p.quick() ? 3 : 5);
    r.put("gemm_shape", n + "x" + p.features() + "x" + p.dim());
    r.put("gemm_vector_gflops", flops / vec / 1e9);
    r.put("gemm_scalar_gflops", flops / sca / 1e9);
    r.put("gemm_speedup", sca / vec);
    Encoder enc = new Encoder(new EncoderSpec(EncoderKind.COS, p.features(), p.dim(), 42L), vector, 1);
    float[] sample = random(p.features(), 1);
    r.put("encode_us", median(p.quick() ? 50 : 400, () -> enc.encode(sample)) * 1e6);
    int batch = 256;
    float[] xs = random(batch * p.features(), 6);
    float[] encoded = new float[batch * p.dim()];
    r.put("encode_batch_us_per_sample",
        median(p.quick() ? 5 : 21, () -> enc.encode(xs, batch, encoded, 1)) / batch * 1e6);
    ClassPrototypes model = new ClassPrototypes(p.classes(), p.dim());
    System.arraycopy(random(p.classes() * p.dim(), 2), 0, model.vectors(), 0, p.classes() * p.dim());
    model.recomputeNorms();
    float[] query = random(p.dim(), 3);
    float[] scores = new float[p.classes()];
    r.put("infer_us", median(p.quick() ? 200 : 2000,
        () -> vector.dotScores(query, 1, model.vectors(), p.classes(), p.dim(), scores)) * 1e6);
    r.put("secure_noise_ms", secureNoiseSeconds(p, false) * 1e3);
    r.put("secure_noise_drawn_ahead_ms", secureNoiseSeconds(p, true) * 1e3);
    round(p, r);
    r.put("heap_peak_mb", heapPeakBytes() / 1e6);
    long rss = rssPeakBytes();
    if (rss > 0) {
      r.put("rss_peak_mb", rss / 1e6);
    }
    return r;
  }

  private void round(Plan p, Map<String, Object> r) throws Exception {
    int peers = 3;
    int perPeer = p.quick() ? 40 : 200;
    Encoder enc = new Encoder(new EncoderSpec(EncoderKind.COS, p.features(), p.dim(), 42L), vector, 1);
    List<EncodedSet> shards = new ArrayList<>();
    for (int k = 0; k < peers; k++) {
      int[] y = new int[perPeer];
      for (int i = 0; i < perPeer; i++) {
        y[i] = i % p.classes();
      }
      shards.add(EncodedSet.encode(enc, random(perPeer * p.features(), 10 + k), perPeer, y, p.classes(), 1));
    }
    FederationSettings s = FederationSettings.builder().federation("bench").topology(Topology.RING)
        .privacy(ScheduleMode.PRIVATEDFL).params(PrivacyParameters.withDelta0(p.dim(), 1.0, 1e-3))
        .encoder(enc.spec()).similarity(Similarity.COSINE).rounds(1).retrainEpochs(1).seed(42).build();
    DetectedMeter meter = FederatedRun.meterForRuns(p.profile());
    try (EmbeddedBroker broker = new EmbeddedBroker().start()) {
      MqttSettings base = MqttSettings.builder(broker.uri()).build();
      Simulation sim = new Simulation(s, shards, p.classes(), id -> MqttTransport.connect(base.withClientId(id)), vector,
          id -> new SeededNoiseSource(id.hashCode(), vector));
      EnergyReading before = meter.meter().read();
      Simulation.Result res = sim.run((round, m) -> { }, Duration.ofMinutes(5));
      RoundEnergy e = RoundEnergy.between(before, meter.meter().read());
      r.put("round_peers", peers);
      r.put("round_s", res.wallSeconds());
      r.put("round_energy_j", e.joules());
      r.put("energy_source", e.provenance().label());
    } finally {
      meter.meter().close();
    }
  }

  /**
   * One model update of {@code secure} noise, as a device adds it every turn: exact discrete Gaussian
   * noise on all S·D coordinates of a model, at the variance a model that has absorbed 500 samples
   * needs at ε = 1, δ0 = 1e-3 (the sampler's cost hardly depends on σ: it always works at σ/g ∈ [2^20,
   * 2^21)). {@code drawnAhead}: only what is left of it in a ring turn, whose draws the peer made
   * between its turns ({@code prepare}, untimed, before each timed add).
   */
  private double secureNoiseSeconds(Plan p, boolean drawnAhead) {
    SecureNoiseSource noise = new SecureNoiseSource();
    float[] model = random(p.classes() * p.dim(), 7);
    double variance = PrivacyParameters.withDelta0(p.dim(), 1.0, 1e-3).requiredVariance(500, 1.0);
    Runnable before = drawnAhead ? () -> noise.prepare(model.length, variance) : () -> { };
    return median(p.quick() ? 5 : 21, before, () -> noise.add(model, variance));
  }

  private double gemmSeconds(VectorKernels k, int n, Plan p, int reps) {
    float[] x = random(n * p.features(), 4);
    PackedMatrix b = k.pack(random(p.features() * p.dim(), 5), p.features(), p.dim());
    float[] out = new float[n * p.dim()];
    return median(reps, () -> k.project(x, n, p.features(), b, out, 1));
  }

  /**
   * Median seconds of {@code reps} runs, after warming up for at least {@link #warmupNanos} (and 3
   * runs) so that the JIT has compiled the kernels: a device measures its steady state.
   */
  private double median(int reps, Runnable op) {
    return median(reps, () -> { }, op);
  }

  /** As above, running {@code before} untimed ahead of every run of {@code op}. */
  private double median(int reps, Runnable before, Runnable op) {
    long until = System.nanoTime() + warmupNanos;
    for (int i = 0; i < 3 || System.nanoTime() < until; i++) {
      before.run();
      op.run();
    }
    double[] t = new double[reps];
    for (int i = 0; i < reps; i++) {
      before.run();
      long t0 = System.nanoTime();
      op.run();
      t[i] = (System.nanoTime() - t0) / 1e9;
    }
    Arrays.sort(t);
    return t[reps / 2];
  }

  private static float[] random(int n, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    float[] v = new float[n];
    for (int i = 0; i < n; i++) {
      v[i] = (float) (r.nextDouble() * 2 - 1);
    }
    return v;
  }

  private static long heapPeakBytes() {
    long sum = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP && pool.getPeakUsage() != null) {
        sum += pool.getPeakUsage().getUsed();
      }
    }
    return sum;
  }

  /** VmHWM of /proc/self/status (Linux), or -1. */
  private static long rssPeakBytes() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith("VmHWM:")) {
          return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
        }
      }
    } catch (IOException | NumberFormatException e) {
      // not Linux
    }
    return -1;
  }
}
