package io.hdfl.cli;

import io.hdfl.device.DevicePeer;
import io.hdfl.device.PeerConfig;
import io.hdfl.kernels.VectorKernelsProvider;
import io.hdfl.privacy.ledger.KeyDirectory;
import io.hdfl.privacy.ledger.LedgerCodec;
import io.hdfl.privacy.ledger.LedgerReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code hdfl peer}: run this device as one peer of a federation. */
@Command(name = "peer", mixinStandardHelpOptions = true,
    description = "Run this device as one peer of a federation (ring peer, star client or aggregator) "
        + "as its configuration file says; writes the final model and the ledger to its state directory.")
final class PeerCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(names = "--config", required = true, paramLabel = "FILE", description = "The device's properties file.")
  Path config;

  @Option(names = "--init", description = "Only create this device's identity (signing and key-agreement keys) "
      + "and print where its public keys are, for the federation's roster; then exit.")
  boolean init;

  @Option(names = "--new-run", description = "If the run in the state directory has finished, start a new one "
      + "(its ledger is kept as ledger-<time>.jsonl; the finished run's final model, which the broker may still "
      + "retain, is ignored). Without it a finished run is only reported, and a run in progress is always resumed.")
  boolean newRun;

  @Option(names = "--check", description = "Only check whether this device is ready for a run (settings, state "
      + "directory, keys, roster, data, broker and who is online, energy meter), recording nothing; exit 0 if it is, "
      + "1 if a check failed.")
  boolean check;

  @Override
  public Integer call() throws Exception {
    if (check && (init || newRun)) {
      throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--check only checks and starts nothing: "
          + "give it alone (hdfl peer --config " + config + " --check)");
    }
    if (init && newRun) { // --init only creates the identity: a --new-run with it would be silently ignored
      throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--init only creates this device's identity "
          + "and starts no run: give --new-run to the run that follows (hdfl peer --config " + config + " --new-run)");
    }
    PrintWriter err = spec.commandLine().getErr();
    PeerConfig cfg = PeerConfig.read(config);
    java.util.List<String> repeated = PeerConfig.repeatedKeys(config);
    if (!repeated.isEmpty()) {
      err.println("hdfl peer " + cfg.peerId() + ": WARNING: " + config + " sets " + repeated + " more than once; the "
          + "last line of each counts");
    }
    if (check) {
      PrintWriter out = spec.commandLine().getOut();
      int failed = new io.hdfl.device.DeviceCheck(cfg, config, UserErrorHandler::userMessage).run(line -> {
        out.println(line);
        out.flush();
      });
      return failed == 0 ? 0 : 1;
    }
    if (init) {
      java.nio.file.Path pub = new DevicePeer(cfg, VectorKernelsProvider.get()).init(line -> {
        err.println("hdfl peer " + cfg.peerId() + ": " + line);
        err.flush();
      });
      spec.commandLine().getOut().printf("public keys of %s: %s (copy %s.pub and %s.kx.pub into every peer's roster: %s;"
          + " or have the federation sign a roster with them: hdfl roster sign)%n",
          cfg.peerId(), pub, cfg.peerId(), cfg.peerId(), cfg.rosterDir());
      return 0;
    }
    // systemctl stop sends SIGTERM: the JVM runs its shutdown hooks and exits 143. Say so, as the
    // journal otherwise ends mid-run without a word; every commit is crash-safe (README, Crash safety).
    java.util.concurrent.atomic.AtomicBoolean running = new java.util.concurrent.atomic.AtomicBoolean(true);
    Thread onSignal = new Thread(() -> {
      if (running.get()) {
        err.println("hdfl peer " + cfg.peerId() + ": stopping on a signal: what it committed is in " + cfg.stateDir()
            + "; started again, it resumes a run in progress or reports a finished one");
        err.flush();
      }
    }, "hdfl-peer-stop");
    Runtime.getRuntime().addShutdownHook(onSignal);
    DevicePeer.Outcome o;
    try {
      o = new DevicePeer(cfg, VectorKernelsProvider.get()).run(line -> {
        err.println("hdfl peer " + cfg.peerId() + ": " + line);
        err.flush();
      }, newRun);
    } finally {
      running.set(false);
      try {
        Runtime.getRuntime().removeShutdownHook(onSignal);
      } catch (IllegalStateException shuttingDown) {
        // the hook runs (or ran) and says nothing now
      }
    }
    PrintWriter out = spec.commandLine().getOut();
    out.printf("final model after round %d: %s%n", o.rounds(), o.finalModel());
    if (o.ledger() != null) {
      // the roster directory holds the peers' public keys, unless the federation signs a roster instead
      String keys = holdsKeysOfEveryEntry(cfg.rosterDir(), o.ledger()) ? cfg.rosterDir().toString() : "KEYS_DIR";
      out.printf("ledger: %s (check it: hdfl ledger verify %s --keys %s)%n", o.ledger(), o.ledger(), keys);
      // the report cannot tell from the ledger whether hops were sealed: without the flag it assumes a wire reader
      out.printf("privacy: hdfl privacy report %s --keys %s --retrain-epochs %d%s%n", o.ledger(), keys,
          cfg.settings().retrainEpochs(), cfg.settings().encryption() != null ? " --wire-encrypted" : "");
    }
    if (o.releases() != null) {
      out.printf("releases: %s (the updates this device sent; check them against the aggregator's ledger: hdfl ledger"
          + " verify AGGREGATOR_LEDGER --keys %s --releases %s)%n", o.releases(),
          holdsKeysOfEveryEntry(cfg.rosterDir(), o.releases()) ? cfg.rosterDir().toString()
              : "KEYS_DIR", o.releases());
    }
    return 0;
  }

  /** Whether {@code dir} holds a valid public key ({@code <id>.pub}) of every peer that signed an entry of {@code ledger}. */
  private static boolean holdsKeysOfEveryEntry(Path dir, Path ledger) {
    try (LedgerReader r = LedgerReader.open(ledger)) {
      KeyDirectory keys = KeyDirectory.open(dir);
      Set<String> peers = new HashSet<>();
      for (String line = r.next(); line != null; line = r.next()) {
        String peer = LedgerCodec.parse(line).peer();
        if (peers.add(peer) && keys.find(peer).isEmpty()) {
          return false;
        }
      }
      return !peers.isEmpty();
    } catch (IOException | RuntimeException e) {
      return false; // no such directory, an unreadable ledger: the generic hint does
    }
  }
}
