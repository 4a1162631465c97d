package io.hdfl.federation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.hdfl.hd.EncodedSet;
import io.hdfl.hd.Encoder;
import io.hdfl.hd.EncoderKind;
import io.hdfl.hd.EncoderSpec;
import io.hdfl.privacy.PrivacyParameters;
import io.hdfl.privacy.noise.SeededNoiseSource;
import io.hdfl.privacy.schedule.ScheduleMode;
import io.hdfl.transport.MosquittoProcess;
import io.hdfl.transport.MqttSettings;
import io.hdfl.transport.MqttTransport;
import io.hdfl.transport.Transport;
import io.hdfl.transport.TransportException;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Load: a ring of K peers and a star of K clients in one process, each peer with its own MQTT
 * connection to a Mosquitto process the test starts, for K = 200 and 500. Measures the time to
 * connect and per round, the peak heap and RSS, the threads and broker connections, and asserts the
 * run is complete and exact and that no thread or connection outlives it. Tagged {@code load}: not in
 * the default test run; {@code .ci/run} runs it once ({@code -Pload}). Figures go to {@code
 * runtime/target/load/federation-load.json}, or to the file named by {@code -Dhdfl.load.out}.
 */
@Tag("load")
class FederationLoadTest {
  static final int DIM = 1000;
  static final int FEATURES = 12;
  static final int CLASSES = 3;
  static final int PER_PEER = 10;
  static final int RING_ROUNDS = 2;
  static final int STAR_ROUNDS = 3;
  static final long STAR_PER_ROUND = 5;

  private static final List<Map<String, Object>> RESULTS = Collections.synchronizedList(new ArrayList<>());
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  @TempDir Path dir;

  @ParameterizedTest(name = "{0} of {1}")
  @CsvSource({"RING, 200", "STAR, 200", "RING, 500", "STAR, 500"})
  void manyPeersInOneProcessOverMosquitto(Topology topology, int peers) throws Exception {
    Assumptions.assumeTrue(MosquittoProcess.binary().isPresent(), "mosquitto is not installed");
    long fds = openFileLimit();
    assertTrue(fds >= 2L * peers + 256, "this test needs 'ulimit -n' >= " + (2 * peers + 256) + " (JVM and Mosquitto), got "
        + fds);
    int port = MosquittoProcess.freePort();
    Path conf = dir.resolve("mosquitto.conf");
    Files.writeString(conf, "listener " + port + " 127.0.0.1\nallow_anonymous true\npersistence false\n"
        + "max_connections -1\nmax_queued_messages 10000\n"
        + ("root".equals(System.getProperty("user.name")) ? "user root\n" : ""));
    FederationSettings s = settings(topology);
    List<EncodedSet> shards = shards(peers, topology == Topology.RING ? PER_PEER : STAR_ROUNDS * STAR_PER_ROUND);
    System.gc();
    int threadsBefore = THREADS.getThreadCount();
    Map<String, Object> out = new LinkedHashMap<>();
    try (MosquittoProcess broker = MosquittoProcess.start(conf, port);
        Sampler sampler = new Sampler(port)) {
      int connectionsBefore = establishedTo(port);
      MqttSettings base = MqttSettings.builder(broker.uri()).connectTimeout(Duration.ofSeconds(30))
          .operationTimeout(Duration.ofSeconds(30)).build();
      AtomicLong connected = new AtomicLong();
      AtomicLong cpuAtConnected = new AtomicLong();
      AtomicLong updateDeliveries = new AtomicLong();
      String updates = new Topics(s.federation()).starUpdates();
      PeerConnector connector = id -> {
        Transport t = MqttTransport.connect(base.withClientId(id));
        if (connected.accumulateAndGet(System.nanoTime(), Math::max) > 0) {
          cpuAtConnected.accumulateAndGet(((com.sun.management.OperatingSystemMXBean)
              ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime(), Math::max);
        }
        if (!id.endsWith("-aggregator")) {
          return t;
        }
        return new ForwardingTransport(t) { // counts the updates the aggregator receives (resends included)
          @Override
          public void subscribe(String filter, int qos, io.hdfl.transport.MessageHandler h) throws TransportException {
            inner.subscribe(filter, qos, filter.equals(updates) ? (topic, payload, retained) -> {
              updateDeliveries.incrementAndGet();
              h.onMessage(topic, payload, retained);
            } : h);
          }
        };
      };
      Map<Integer, Long> roundEnds = new ConcurrentHashMap<>();
      Map<Integer, Long> roundCpu = new ConcurrentHashMap<>();
      var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
      long t0 = System.nanoTime();
      Simulation sim = new Simulation(s, shards, CLASSES, connector, FederationFixture.K,
          id -> new SeededNoiseSource(s.seed() * 31 + id.hashCode(), FederationFixture.K));
      Simulation.Result r = sim.run((round, model) -> {
        roundEnds.putIfAbsent(round, System.nanoTime());
        roundCpu.putIfAbsent(round, os.getProcessCpuTime());
      }, Duration.ofMinutes(10));
      long runEnd = System.nanoTime();
      int rounds = s.rounds();
      String context = topology + " of " + peers;
      // complete and exact
      if (topology == Topology.RING) {
        assertEquals((long) peers * rounds, r.ledger().size(), context + ": every step once");
        RunAudit.ring(r, s, PER_PEER, context);
      } else {
        assertEquals(Collections.nCopies(rounds, peers), RunAudit.star(r, s, STAR_PER_ROUND, context), context);
      }
      RunAudit.verifies(r, s, dir.resolve("verify"), context);
      sampler.stop();
      // nothing outlives the run (Simulation.run closed every peer and connection)
      int connectionsAfter = waitFor(() -> establishedTo(port), n -> n <= connectionsBefore, Duration.ofSeconds(15));
      int threadsAfter = waitFor(THREADS::getThreadCount, n -> n <= threadsBefore + 2, Duration.ofSeconds(15));
      assertTrue(connectionsAfter <= connectionsBefore, context + ": broker connections after the run: " + connectionsAfter);
      assertTrue(threadsAfter <= threadsBefore + 2, context + ": threads after the run: " + threadsAfter + " (before: "
          + threadsBefore + ")");
      int clients = peers + (topology == Topology.STAR ? 2 : 1); // + recorder (+ aggregator)
      List<Double> perRound = new ArrayList<>();
      List<Double> cpuPerRound = new ArrayList<>();
      long prev = connected.get();
      long prevCpu = cpuAtConnected.get();
      for (int round = 1; round <= rounds; round++) {
        perRound.add((roundEnds.get(round) - prev) / 1e9);
        cpuPerRound.add((roundCpu.get(round) - prevCpu) / 1e9);
        prev = roundEnds.get(round);
        prevCpu = roundCpu.get(round);
      }
      out.put("topology", topology.name().toLowerCase(Locale.ROOT));
      out.put("peers", peers);
      out.put("dim", DIM);
      out.put("classes", CLASSES);
      out.put("rounds", rounds);
      out.put("samples_per_peer_per_round", topology == Topology.RING ? PER_PEER : STAR_PER_ROUND);
      out.put("connect_s", round3((connected.get() - t0) / 1e9));
      out.put("round_s", perRound.stream().map(FederationLoadTest::round3).toList());
      out.put("round_s_mean", round3(perRound.stream().mapToDouble(Double::doubleValue).average().orElse(0)));
      out.put("round_cpu_s", cpuPerRound.stream().map(FederationLoadTest::round3).toList());
      out.put("load_average_1m", round3(os.getSystemLoadAverage()));
      out.put("run_s", round3((runEnd - t0) / 1e9));
      out.put("heap_peak_mb", round3(sampler.heapPeak / 1e6));
      out.put("rss_peak_mb", round3(sampler.rssPeak / 1e6));
      out.put("threads_before", threadsBefore);
      out.put("threads_peak", sampler.threadsPeak);
      out.put("threads_per_peer", round3((sampler.threadsPeak - threadsBefore) / (double) clients));
      out.put("threads_after", threadsAfter);
      out.put("broker_connections_peak", sampler.connectionsPeak);
      out.put("broker_connections_after", connectionsAfter);
      out.put("ledger_entries", r.ledger().size());
      // what one peer sends per update: ring, the model with the last K ledger lines (and its ack,
      // ledger line and report); star, a client's update
      out.put("sent_per_update_kb", round3(r.reports().stream().filter(x -> !x.peer().equals("aggregator"))
          .mapToLong(RoundReport::bytesSent).average().orElse(0) / 1e3));
      if (topology == Topology.STAR) {
        out.put("update_deliveries", updateDeliveries.get());
      }
      out.put("jdk", System.getProperty("java.version"));
      out.put("cores", Runtime.getRuntime().availableProcessors());
      out.put("max_heap_mb", Runtime.getRuntime().maxMemory() / 1_000_000);
      RESULTS.add(out);
      System.out.println("load: " + out);
      assertTrue(sampler.connectionsPeak >= clients, context + ": every peer connected at once");
    }
  }

  @AfterAll
  static void writeResults() throws IOException {
    if (RESULTS.isEmpty()) {
      return;
    }
    String named = System.getProperty("hdfl.load.out", "");
    Path file = named.isBlank() ? Path.of("target", "load", "federation-load.json") : Path.of(named);
    Files.createDirectories(file.toAbsolutePath().getParent());
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("test", "io.hdfl.federation.FederationLoadTest");
    doc.put("cpu", cpuModel());
    doc.put("runs", RESULTS);
    new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(file.toFile(), doc);
  }

  private static FederationSettings settings(Topology topology) {
    EncoderSpec spec = new EncoderSpec(EncoderKind.COS, FEATURES, DIM, 7L);
    FederationSettings.Builder b = FederationSettings.builder().topology(topology).encoder(spec).retrainEpochs(1)
        .federation("load").seed(11);
    if (topology == Topology.RING) {
      return b.privacy(ScheduleMode.PRIVATEDFL).params(PrivacyParameters.withDelta0(DIM, 1.0, 1e-3)).rounds(RING_ROUNDS)
          .ackTimeout(Duration.ofSeconds(10)).build();
    }
    return b.privacy(ScheduleMode.FEDHDP).params(PrivacyParameters.perSampleDelta(DIM, 1.0)).rounds(STAR_ROUNDS)
        .perRound(STAR_PER_ROUND).build();
  }

  private static List<EncodedSet> shards(int peers, long perPeer) {
    Encoder enc = new Encoder(new EncoderSpec(EncoderKind.COS, FEATURES, DIM, 7L), FederationFixture.K, 2);
    SplittableRandom r = new SplittableRandom(3);
    List<EncodedSet> out = new ArrayList<>();
    for (int p = 0; p < peers; p++) {
      out.add(FederationFixture.blobs(enc, (int) perPeer, r));
    }
    return out;
  }

  /** Samples heap, RSS, threads and the broker's established connections every 100 ms, keeping the peaks. */
  private static final class Sampler implements AutoCloseable {
    private final int port;
    private final Thread thread;
    private volatile boolean running = true;
    volatile long heapPeak;
    volatile long rssPeak;
    volatile int threadsPeak;
    volatile int connectionsPeak;

    Sampler(int port) {
      this.port = port;
      this.thread = new Thread(this::loop, "load-sampler");
      thread.setDaemon(true);
      thread.start();
    }

    private void loop() {
      var memory = ManagementFactory.getMemoryMXBean();
      while (running) {
        heapPeak = Math.max(heapPeak, memory.getHeapMemoryUsage().getUsed());
        rssPeak = Math.max(rssPeak, rss());
        threadsPeak = Math.max(threadsPeak, THREADS.getThreadCount());
        connectionsPeak = Math.max(connectionsPeak, establishedTo(port));
        try {
          Thread.sleep(100);
        } catch (InterruptedException e) {
          return;
        }
      }
    }

    void stop() throws InterruptedException {
      running = false;
      thread.interrupt();
      thread.join(2000);
    }

    @Override
    public void close() throws InterruptedException {
      stop();
    }
  }

  /** TCP connections established to the broker's port on 127.0.0.1 (its side of each, from /proc/net/tcp). */
  static int establishedTo(int port) {
    String local = String.format(":%04X", port);
    int n = 0;
    try {
      for (String line : Files.readAllLines(Path.of("/proc/net/tcp"))) {
        String[] f = line.trim().split("\\s+");
        if (f.length > 3 && f[1].endsWith(local) && f[3].equals("01")) {
          n++;
        }
      }
    } catch (IOException e) {
      throw new IllegalStateException("cannot read /proc/net/tcp", e);
    }
    return n;
  }

  private static long rss() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith("VmRSS:")) {
          return Long.parseLong(line.replaceAll("\\D", "")) * 1024;
        }
      }
    } catch (IOException e) {
      // not Linux
    }
    return 0;
  }

  private static long openFileLimit() throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc/self/limits"))) {
      if (line.startsWith("Max open files")) {
        String soft = line.substring("Max open files".length()).trim().split("\\s+")[0];
        return soft.equals("unlimited") ? Long.MAX_VALUE : Long.parseLong(soft);
      }
    }
    return Long.MAX_VALUE;
  }

  private static String cpuModel() throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
      if (line.startsWith("model name")) {
        return line.substring(line.indexOf(':') + 1).trim();
      }
    }
    return "unknown";
  }

  private static double round3(double v) {
    return Math.round(v * 1000) / 1000.0;
  }

  private static int waitFor(java.util.function.IntSupplier value, java.util.function.IntPredicate ok, Duration max)
      throws InterruptedException {
    long deadline = System.nanoTime() + max.toNanos();
    int v = value.getAsInt();
    while (!ok.test(v) && System.nanoTime() < deadline) {
      Thread.sleep(100);
      v = value.getAsInt();
    }
    return v;
  }
}
