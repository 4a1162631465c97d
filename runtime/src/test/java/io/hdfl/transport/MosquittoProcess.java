package io.hdfl.transport;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A real Mosquitto broker that a test starts (on a free port, with its own configuration), can
 * kill and restart, and always stops. Tests assume it is installed ({@link #binary()}); {@code
 * .ci/run} installs Debian's {@code mosquitto} when it is missing.
 */
public final class MosquittoProcess implements AutoCloseable {
  private final Path config;
  private final Path log;
  private final int port;
  private Process process;

  private MosquittoProcess(Path config, Path log, int port) {
    this.config = config;
    this.log = log;
    this.port = port;
  }

  /** The mosquitto executable, if installed. */
  public static Optional<Path> binary() {
    for (String candidate : List.of("/usr/sbin/mosquitto", "/usr/bin/mosquitto", "/usr/local/sbin/mosquitto")) {
      Path p = Path.of(candidate);
      if (Files.isExecutable(p)) {
        return Optional.of(p);
      }
    }
    return Optional.empty();
  }

  /** A free TCP port on the loopback (there is a small race until Mosquitto binds it). */
  public static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket()) {
      s.setReuseAddress(true);
      s.bind(new InetSocketAddress("127.0.0.1", 0));
      return s.getLocalPort();
    }
  }

  /** A plain-TCP broker on a free loopback port: anonymous clients, no persistence, written into {@code dir}. */
  public static MosquittoProcess startPlain(Path dir) throws IOException, InterruptedException {
    int port = freePort();
    Path conf = dir.resolve("mosquitto.conf");
    Files.writeString(conf, "listener " + port + " 127.0.0.1\nallow_anonymous true\npersistence false\n"
        + "max_queued_messages 10000\n" + ("root".equals(System.getProperty("user.name")) ? "user root\n" : ""));
    return start(conf, port);
  }

  /** The broker's URL. */
  public String uri() {
    return "tcp://127.0.0.1:" + port;
  }

  /** Starts Mosquitto with {@code config} (which must listen on {@code port}) and waits until it accepts connections. */
  public static MosquittoProcess start(Path config, int port) throws IOException, InterruptedException {
    MosquittoProcess m = new MosquittoProcess(config, config.resolveSibling("mosquitto.log"), port);
    m.restart();
    return m;
  }

  public int port() {
    return port;
  }

  /** Kills the broker at once (SIGKILL: no clean shutdown, no persistence flush). */
  public void kill() throws InterruptedException {
    if (process != null && process.isAlive()) {
      process.destroyForcibly();
      process.waitFor(5, TimeUnit.SECONDS);
    }
  }

  /** Starts the broker again (after {@link #kill}) and waits until it accepts connections. */
  public void restart() throws IOException, InterruptedException {
    kill();
    Path exe = binary().orElseThrow(() -> new IllegalStateException("mosquitto is not installed"));
    process = new ProcessBuilder(exe.toString(), "-c", config.toString())
        .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException("mosquitto exited with " + process.exitValue() + ": " + Files.readString(log));
      }
      try (Socket s = new Socket()) {
        s.connect(new InetSocketAddress("127.0.0.1", port), 200);
        return;
      } catch (IOException notYet) {
        Thread.sleep(50);
      }
    }
    throw new IllegalStateException("mosquitto did not listen on " + port + " within 10 s: " + Files.readString(log));
  }

  public String logText() throws IOException {
    return Files.exists(log) ? Files.readString(log) : "";
  }

  @Override
  public void close() throws InterruptedException {
    kill();
  }
}
