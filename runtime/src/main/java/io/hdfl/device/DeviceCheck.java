package io.hdfl.device;

import io.hdfl.data.Dataset;
import io.hdfl.federation.FederationSettings;
import io.hdfl.federation.PeerList;
import io.hdfl.federation.Topics;
import io.hdfl.privacy.ledger.PeerKeys;
import io.hdfl.security.HopKeys;
import io.hdfl.security.RosterHistory;
import io.hdfl.sensors.energy.DetectedMeter;
import io.hdfl.transport.MqttTransport;
import io.hdfl.transport.Transport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * {@code hdfl peer --config FILE --check}: whether a device is ready for a run, checked the way a
 * start checks it but without starting one, and all at once (a start stops at its first problem): the
 * settings, the state directory, the device's keys, the roster, the data, the broker (with who is
 * online) and the energy meter. It records nothing (no key is created, no roster accepted, no run
 * begun, no INA219 programmed) and connects under its own client id ({@code
 * <federation>-<peer.id>-check}, no last will), so that it can run beside the device's service
 * without taking its connection.
 */
public final class DeviceCheck {
  /** How long the check listens for the peers' retained announcements. */
  static final Duration LISTEN = Duration.ofMillis(1500);

  /** A check's outcome: ok, a warning (the run can go on), or a failure (the start would stop). */
  enum Verdict {
    OK("ok"), WARN("warning"), FAIL("FAILED");

    private final String word;

    Verdict(String word) {
      this.word = word;
    }
  }

  /** One check: what it looked at and what it found. */
  record Item(String what, Verdict verdict, String detail) {
    String line() {
      return String.format("%-8s %-9s %s", verdict.word, what, detail);
    }
  }

  private final PeerConfig cfg;
  private final Path configFile;
  private final java.util.function.Function<Throwable, String> describe;
  /** What the steps found that the closing line repeats: a finished run, this id announced online. */
  private boolean finishedRun;
  private boolean announcedOnline;
  /** This device's keys as the keys step loaded them (null where it failed, or hops are not encrypted). */
  private PeerKeys identity;
  private HopKeys hopKeys;

  /**
   * @param describe a failure's one-line message (the CLI's, which says what is wrong with a file an
   *     exception names only)
   */
  public DeviceCheck(PeerConfig cfg, Path configFile, java.util.function.Function<Throwable, String> describe) {
    this.cfg = cfg;
    this.configFile = configFile;
    this.describe = describe;
  }

  /** A step that finds one {@link Item}; an exception is its failure, in its message. */
  @FunctionalInterface
  private interface Step {
    Item run() throws Exception;
  }

  /** Runs every check, writing each one's line to {@code out}; returns how many failed. */
  public int run(Consumer<String> out) {
    int failed = 0;
    int warned = 0;
    Step[] steps = {this::settings, this::stateDir, this::keys, this::roster, this::data, this::broker, this::energy};
    String[] names = {"settings", "state.dir", "keys", "roster", "data", "broker", "energy"};
    for (int i = 0; i < steps.length; i++) {
      Item item;
      try {
        item = steps[i].run();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        out.accept(new Item(names[i], Verdict.FAIL, "interrupted").line());
        return failed + 1;
      } catch (Exception | Error e) {
        String message = describe.apply(e);
        item = new Item(names[i], Verdict.FAIL, message != null ? message
            : e.getMessage() == null ? e.toString() : e.getMessage());
      }
      failed += item.verdict() == Verdict.FAIL ? 1 : 0;
      warned += item.verdict() == Verdict.WARN ? 1 : 0;
      out.accept(item.line());
    }
    if (failed > 0) {
      out.accept("not ready: " + failed + " of " + steps.length + " checks failed");
    } else {
      String start = "hdfl peer --config " + configFile;
      out.accept("ready" + (warned == 0 ? ": every check passed" : ", with " + warned + " warning(s)") + " ("
          + (announcedOnline ? "a device under this peer.id is online: start this one only once it has stopped"
          : finishedRun ? start + " only reports the finished run; " + start + " --new-run starts another"
          : start + " starts the run") + ")");
    }
    return failed;
  }

  private Item settings() {
    FederationSettings s = cfg.settings();
    String role = switch (cfg.role()) {
      case "ring" -> "ring peer of " + cfg.ringOrder().size() + " in the order " + cfg.ringOrder();
      case "star-client" -> "star client";
      default -> "aggregator of " + cfg.starClients() + " client(s), quorum "
          + (s.quorum() == 0 ? cfg.starClients() : Math.min(cfg.starClients(), s.quorum()));
    };
    String detail = "'" + cfg.peerId() + "' of federation '" + s.federation() + "', " + role + "; " + s.rounds()
        + " rounds, " + s.encoder().kind().id() + " encoder, dim " + s.encoder().dim() + ", " + cfg.classes()
        + " classes, privacy " + s.privacy().name().toLowerCase(java.util.Locale.ROOT) + " (epsilon "
        + s.params().epsilon() + "), noise " + cfg.noise();
    return cfg.noise().equals("seeded")
        ? new Item("settings", Verdict.WARN, detail + ": seeded noise can be removed by anyone who knows the seed, "
            + "not for deployment ('noise = secure')")
        : new Item("settings", Verdict.OK, detail);
  }

  private Item stateDir() throws Exception {
    Path dir = cfg.stateDir();
    if (Files.exists(dir) && !Files.isDirectory(dir)) {
      return new Item("state.dir", Verdict.FAIL, dir + " is not a directory: give 'state.dir' a directory this user "
          + "owns");
    }
    if (!Files.exists(dir)) {
      Path existing = dir.toAbsolutePath().getParent();
      while (existing != null && !Files.exists(existing)) {
        existing = existing.getParent();
      }
      if (existing == null || !Files.isDirectory(existing) || !Files.isWritable(existing)) {
        return new Item("state.dir", Verdict.FAIL, dir + " does not exist and cannot be created by this user ("
            + existing + " is not a directory it may write in): give it a directory it owns");
      }
      return new Item("state.dir", Verdict.OK, dir + " will be created; no run yet");
    }
    if (!Files.isReadable(dir) || !Files.isExecutable(dir)) {
      return new Item("state.dir", Verdict.FAIL, dir + " cannot be read by this user: run the check as the device's "
          + "service user (sudo runuser -u hdfl -- hdfl peer --config " + configFile + " --check)");
    }
    StateCheckpoints checkpoints = new StateCheckpoints(dir, cfg.settings().federation(), cfg.peerId(), cfg.role(),
        DevicePeer.expectations(cfg.settings()));
    java.util.OptionalInt finished = checkpoints.finished();
    if (finished.isPresent()) {
      finishedRun = true;
      checkpoints.finishedFinal(); // a --new-run reads it first: a damaged one stops it
      return new Item("state.dir", Verdict.OK, dir + ": a run that finished after round " + finished.getAsInt() + " ("
          + "a start reports it; --new-run starts another" + (Files.isWritable(dir) ? ")"
          : ", and needs the directory writable: it is not for this user)"));
    }
    // what a start reads before it connects, read the same way: damaged state stops here as it would there
    checkpoints.previousFinal();
    boolean resuming = DevicePeer.resumes(cfg, checkpoints);
    if (resuming) {
      switch (cfg.role()) {
        case "ring" -> {
          checkpoints.ring();
          checkpoints.received();
        }
        case "star-client" -> checkpoints.client();
        default -> checkpoints.aggregator();
      }
      checkpoints.noisePosition();
    }
    if (!Files.isWritable(dir)) {
      return new Item("state.dir", Verdict.FAIL, dir + " cannot be written by this user: give it a directory it owns "
          + "(or run the check as the device's service user)");
    }
    return new Item("state.dir", Verdict.OK, dir + " is writable; " + (resuming ? "a run in progress (a start "
        + "resumes it)" : "no run yet"));
  }

  private Item keys() throws Exception {
    Path identityFile = DevicePeer.identityFile(cfg);
    Path hopFile = DevicePeer.hopKeyFile(cfg);
    boolean needsHop = cfg.settings().encryption() != null;
    if (Files.notExists(identityFile) || (needsHop && Files.notExists(hopFile))) {
      return new Item("keys", Verdict.FAIL, "no identity in " + cfg.stateDir() + " yet: create it with hdfl peer "
          + "--config " + configFile + " --init, and put its public keys into the roster");
    }
    identity = PeerKeys.load(cfg.peerId(), identityFile);
    if (needsHop) {
      hopKeys = HopKeys.load(cfg.peerId(), hopFile);
    }
    return new Item("keys", Verdict.OK, identityFile + (needsHop ? " and " + hopFile : "") + " (owner-only)");
  }

  private Item roster() throws Exception {
    if (cfg.settings().encryption() == null) {
      return new Item("roster", Verdict.WARN, "hops are NOT encrypted ('encryption = none'): the broker and any "
          + "subscriber can read the models, and nothing authenticates them");
    }
    List<String> said = new ArrayList<>();
    DevicePeer.AdmittedRoster admitted = DevicePeer.admittedRoster(cfg, said::add);
    if (admitted.signed() != null) {
      RosterHistory.check(DevicePeer.rosterRecord(cfg), admitted.signed(), cfg.signedRoster());
    }
    if (identity == null || hopKeys == null) {
      return new Item("roster", Verdict.FAIL, DevicePeer.rosterSource(cfg) + " read; whether it admits this device "
          + "cannot be told before its keys exist (above)");
    }
    DevicePeer.checkAdmits(cfg, admitted.roster(), hopKeys, identity);
    try { // a start checks only a ring's partners: the others learn late that this device is not admitted
      admitted.roster().agreementKey(cfg.peerId());
      admitted.roster().signingKey(cfg.peerId());
    } catch (io.hdfl.security.SealException e) {
      return new Item("roster", Verdict.FAIL, DevicePeer.rosterSource(cfg) + " does not admit this device ('"
          + cfg.peerId() + "'): " + (cfg.federationKey() != null ? "have the federation sign a roster with it"
          : "copy its keys/" + cfg.peerId() + HopKeys.PUBLIC_SUFFIX + " and keys/" + cfg.peerId() + ".pub there")
          + ", on every device; its peers refuse its frames until then");
    }
    String warning = said.stream().filter(l -> l.startsWith("WARNING: ")).findFirst().orElse(null);
    String detail = DevicePeer.rosterSource(cfg) + " admits this device with its own keys" + (cfg.role().equals("ring")
        ? " and every peer of the order" : "") + "; hops encrypted with " + cfg.settings().encryption().configName();
    return warning == null ? new Item("roster", Verdict.OK, detail)
        : new Item("roster", Verdict.WARN, detail + "; " + warning.substring("WARNING: ".length()));
  }

  private Item data() throws Exception {
    if (cfg.role().equals("aggregator")) {
      String noFeatures = DevicePeer.aggregatorWithoutFeatures(cfg); // as a start refuses it
      if (noFeatures != null) {
        return new Item("data", Verdict.FAIL, noFeatures);
      }
      return new Item("data", Verdict.OK, "an aggregator learns from no data of its own (its clients' features: "
          + cfg.settings().encoder().features() + ")");
    }
    if (cfg.signal() != null) {
      return new Item("data", Verdict.OK, "live data from '" + cfg.signal().source() + "', windows of "
          + cfg.signal().windowSize() + " samples: opened when the run starts, not by this check");
    }
    Dataset d = DevicePeer.storedData(cfg); // as a start reads it
    return new Item("data", Verdict.OK, cfg.trainData() + ": " + d.size() + " samples x " + d.featureCount()
        + " features, " + d.numClasses() + " classes " + PeerList.of(d.classNames()));
  }

  private Item broker() throws Exception {
    String clientId = DevicePeer.clientId(cfg) + "-check";
    long t0 = System.nanoTime();
    Set<String> online;
    long connectMs;
    Transport t;
    try {
      t = MqttTransport.connect(DevicePeer.brokerSettings(cfg, clientId).build());
    } catch (io.hdfl.transport.TransportException e) {
      String m = String.valueOf(e.getMessage());
      if (!m.contains("not authorized") && !m.contains("rejected client id")) {
        throw e;
      }
      throw new io.hdfl.transport.TransportException(m + " (the check connects as client '" + clientId
          + "': a broker whose rules name client ids may refuse that one and take the device's)", e);
    }
    try (t) {
      connectMs = (System.nanoTime() - t0) / 1_000_000;
      PeerAnnouncements peers = PeerAnnouncements.follow(t, new Topics(cfg.settings().federation()));
      Thread.sleep(LISTEN.toMillis()); // the retained announcements come right after the subscription
      if (!t.isConnected()) {
        return new Item("broker", Verdict.FAIL, cfg.broker() + " answered, then dropped the connection (as client '"
            + clientId + "') while the check listened for the peers' announcements");
      }
      online = new TreeSet<>(peers.onlineNow());
    }
    String detail = cfg.broker() + " answered in " + connectMs + " ms (as client '" + clientId + "'); peers online "
        + "now: " + PeerList.of(online);
    if (cfg.role().equals("ring") && cfg.ringOrder().size() > 1) {
      Set<String> absent = new TreeSet<>(cfg.ringOrder());
      absent.removeAll(online);
      absent.remove(cfg.peerId());
      detail += absent.isEmpty() ? "; every other peer of the order is online" : "; not online yet: "
          + PeerList.of(absent);
    } else if (cfg.role().equals("aggregator")) {
      Set<String> others = new TreeSet<>(online);
      others.remove(cfg.peerId());
      detail += " (" + others.size() + " besides this one; 'star.clients' " + cfg.starClients() + ")";
    }
    if (online.contains(cfg.peerId())) {
      announcedOnline = true;
      return new Item("broker", Verdict.WARN, detail + "; '" + cfg.peerId() + "' itself is announced online: this "
          + "device's service is running, or another device has this peer.id");
    }
    return new Item("broker", Verdict.OK, detail);
  }

  private Item energy() {
    io.hdfl.sensors.energy.DeviceProfile profile = DevicePeer.profile(cfg);
    if (cfg.ina219() != null) {
      // the chip is programmed when a meter opens it: a check beside a running service would reprogram it
      return new Item("energy", Verdict.OK, "an INA219 ('energy.meter = ina219'): not opened by the check (a running "
          + "service may be sampling it); a start opens it and stops if it does not answer");
    }
    DetectedMeter meter = DevicePeer.energyMeter(cfg, profile);
    try {
      String reason = meter.reason();
      return new Item("energy", Verdict.OK, reason.startsWith("energy: ") ? reason.substring(8) : reason);
    } finally {
      meter.meter().close();
    }
  }
}
