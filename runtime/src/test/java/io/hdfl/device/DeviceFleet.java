package io.hdfl.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import io.hdfl.cli.Main;
import io.hdfl.data.ChoirDatFormat;
import io.hdfl.kernels.VectorKernelsProvider;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * Devices of one federation for tests: their configuration files, enrolment into a shared roster, and
 * runs as separate JVM processes ({@code java --add-modules jdk.incubator.vector … io.hdfl.cli.Main peer
 * --config FILE}, as {@code hdfl peer} runs them) that a test can crash at named points ({@link
 * io.hdfl.federation.CrashPoints}) or kill with SIGKILL, and that are restarted until they finish.
 *
 * <p>Child JVMs run C1 only with the scalar kernels: they start in about half the time, and a run in
 * this JVM with {@link VectorKernelsProvider#scalar()} ({@link #runInProcess}) computes the same
 * models bit for bit.
 */
final class DeviceFleet {
  /** Exit code of a JVM halted by a crash point or killed by SIGKILL (128 + 9). */
  static final int KILLED = 137;

  private final Path dir;
  private final String federation;
  private final Map<String, Path> configs = new LinkedHashMap<>();

  DeviceFleet(Path dir, String federation) {
    this.dir = dir;
    this.federation = federation;
  }

  Path dir() {
    return dir;
  }

  Path stateDir(String id) {
    return dir.resolve("state/" + id);
  }

  /** Writes the configuration of device {@code id} (data of its own, seeded noise) plus {@code extra} keys. */
  Path device(String id, String role, String broker, String... extra) throws IOException {
    Path data = dir.resolve(id + ".choir_dat");
    if (!role.equals("aggregator") && !Files.exists(data)) {
      ChoirDatFormat.write(PeerCommandTest.blobs(45, id.hashCode()), data);
    }
    List<String> keys = new ArrayList<>(List.of("federation = " + federation, "peer.id = " + id, "role = " + role,
        "broker = " + broker, "classes = 3", "dim = 256", "epsilon = 2", "noise = seeded", "state.dir = state/" + id,
        "data.train = " + id + ".choir_dat", "start.timeout.seconds = 60", "run.timeout.seconds = 150",
        "ack.timeout.seconds = 30", "roster.dir = roster"));
    keys.addAll(List.of(extra));
    Path cfg = dir.resolve(id + ".properties");
    Files.writeString(cfg, String.join("\n", keys) + "\n");
    configs.put(id, cfg);
    return cfg;
  }

  /** Every device creates its identity ({@code hdfl peer --init}); their public keys go into the roster. */
  void enrol() throws IOException {
    Path roster = Files.createDirectories(dir.resolve("roster"));
    for (Map.Entry<String, Path> c : configs.entrySet()) {
      StringWriter err = new StringWriter();
      assertEquals(0, Main.run(new PrintWriter(new StringWriter()), new PrintWriter(err), "peer", "--config",
          c.getValue().toString(), "--init"), err.toString());
      for (String suffix : List.of(".pub", ".kx.pub")) {
        Files.copy(stateDir(c.getKey()).resolve("keys/" + c.getKey() + suffix), roster.resolve(c.getKey() + suffix),
            StandardCopyOption.REPLACE_EXISTING);
      }
    }
  }

  /** The directory of every device's Ed25519 public key, as an auditor gathers them. */
  Path auditKeys() throws IOException {
    Path keys = Files.createDirectories(dir.resolve("audit-keys"));
    for (String id : configs.keySet()) {
      Files.copy(stateDir(id).resolve("keys/" + id + ".pub"), keys.resolve(id + ".pub"),
          StandardCopyOption.REPLACE_EXISTING);
    }
    return keys;
  }

  /** Runs every device in this JVM (threads) with the scalar kernels; asserts they all finish. */
  void runInProcess() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(configs.size());
    try {
      List<Future<?>> runs = new ArrayList<>();
      for (Path c : configs.values()) {
        runs.add(pool.submit(() -> {
          new DevicePeer(PeerConfig.read(c), VectorKernelsProvider.scalar()).run(line -> { });
          return null;
        }));
      }
      for (Future<?> f : runs) {
        f.get(150, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  /** A crash to inject: device {@code peer} halts at {@code point} (e.g. {@code ring.acked:4}). */
  /**
   * {@code peer} halts at crash point {@code point}; {@code meanwhile} then does to its state directory
   * what the crash could have done there (a power cut tearing a file) before the device is started again.
   */
  record Crash(String peer, String point, Consumer<Path> meanwhile) {
    Crash(String peer, String point) {
      this(peer, point, state -> { });
    }
  }

  /** A SIGKILL the supervisor sends to {@code peer} once {@code when} holds (polled), at an arbitrary moment. */
  record Kill(String peer, Predicate<DeviceFleet> when) {}

  /** What happened to one device over a supervised run. */
  static final class Device {
    final String id;
    final Deque<Crash> crashes = new ArrayDeque<>();
    final List<String> reached = new ArrayList<>();
    int launches;
    int killed;
    Process process;
    Path log;

    Device(String id) {
      this.id = id;
    }
  }

  /**
   * Runs every device as its own process; each halts at its next crash point (in the order given),
   * {@code kills} are sent when due, and a process that died is started again with the same state
   * directory, until every device has exited 0. Fails on any other exit, or after {@code timeout}.
   */
  Map<String, Device> runProcesses(List<Crash> crashes, List<Kill> kills, Duration timeout) throws Exception {
    Map<String, Device> devices = new LinkedHashMap<>();
    for (String id : configs.keySet()) {
      devices.put(id, new Device(id));
    }
    for (Crash c : crashes) {
      devices.get(c.peer()).crashes.add(c);
    }
    List<Kill> pendingKills = new ArrayList<>(kills);
    long deadline = System.nanoTime() + timeout.toNanos();
    try {
      for (Device d : devices.values()) {
        launch(d);
      }
      while (true) {
        boolean allDone = true;
        for (Device d : devices.values()) {
          if (d.process == null) {
            continue; // finished
          }
          if (d.process.isAlive()) {
            allDone = false;
            continue;
          }
          int code = d.process.exitValue();
          String log = Files.readString(d.log);
          if (code == 0) {
            d.process = null;
            continue;
          }
          allDone = false;
          if (code != KILLED) {
            fail(d.id + " exited with " + code + ":\n" + log);
          }
          Crash crash = d.crashes.peekFirst();
          if (crash != null && log.contains("test crash point " + crash.point() + " reached")) {
            d.reached.add(d.crashes.removeFirst().point());
            crash.meanwhile().accept(stateDir(d.id));
          }
          launch(d); // restart with the same state directory
        }
        if (allDone) {
          for (Device d : devices.values()) {
            System.out.printf("device %s: %d launches, crash points reached %s, SIGKILLed %d times%n", d.id, d.launches,
                d.reached, d.killed);
          }
          return devices;
        }
        for (java.util.Iterator<Kill> it = pendingKills.iterator(); it.hasNext(); ) {
          Kill k = it.next();
          Device d = devices.get(k.peer());
          if (d.process != null && d.process.isAlive() && k.when().test(this)) {
            d.process.destroyForcibly(); // SIGKILL
            d.killed++;
            it.remove();
          }
        }
        if (System.nanoTime() > deadline) {
          StringBuilder logs = new StringBuilder();
          for (Device d : devices.values()) {
            logs.append("\n--- ").append(d.id).append(" (").append(d.launches).append(" launches):\n")
                .append(Files.readString(d.log));
          }
          fail("the devices did not finish within " + timeout.toSeconds() + " s" + logs);
        }
        Thread.sleep(20);
      }
    } finally {
      for (Device d : devices.values()) {
        if (d.process != null && d.process.isAlive()) {
          d.process.destroyForcibly();
          d.process.waitFor(10, TimeUnit.SECONDS);
        }
      }
    }
  }

  private void launch(Device d) throws IOException {
    d.launches++;
    d.log = dir.resolve(d.id + "-" + d.launches + ".log");
    d.process = start(d.id, d.crashes.isEmpty() ? null : d.crashes.peekFirst().point(), d.log);
  }

  /**
   * Starts device {@code id} as its own JVM process, its output (stdout and stderr) into {@code log};
   * {@code haltAt} names the crash point it halts at, or is null.
   */
  Process start(String id, String haltAt, Path log) throws IOException {
    List<String> cmd = new ArrayList<>(List.of(javaBinary(), "--add-modules", "jdk.incubator.vector",
        "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx256m", "-Dhdfl.kernels=scalar"));
    if (haltAt != null) {
      cmd.add("-Dhdfl.test.haltAt=" + haltAt);
    }
    cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), "io.hdfl.cli.Main", "peer", "--config",
        configs.get(id).toString()));
    return new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).redirectOutput(log.toFile())
        .start();
  }

  private static String javaBinary() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }
}
