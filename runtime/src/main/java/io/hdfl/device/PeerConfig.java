package io.hdfl.device;

import io.hdfl.data.LoadOptions;
import io.hdfl.security.HopAead;

import io.hdfl.federation.FederationSettings;
import io.hdfl.federation.Topology;
import io.hdfl.hd.EncoderKind;
import io.hdfl.hd.EncoderSpec;
import io.hdfl.hd.EncodingPrecision;
import io.hdfl.hd.Similarity;
import io.hdfl.privacy.PrivacyParameters;
import io.hdfl.privacy.ledger.LedgerEntry;
import io.hdfl.privacy.schedule.ScheduleMode;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;

/**
 * One device's configuration, read from a properties file (see README "Run a peer"). Unknown keys
 * are errors, so a typo never silently falls back to a default; every error names the key.
 *
 * @param role {@code ring}, {@code star-client} or {@code aggregator}
 * @param ringOrder ring: every peer id in ring order (this peer included)
 * @param starClients aggregator: the number of clients K
 * @param signal the live data source ({@code data.source} other than {@code file}), or null: {@code data.train}
 * @param rosterDir the admitted peers' public keys ({@code <id>.kx.pub}, {@code <id>.pub}, {@code
 *     revoked}); used when hops are encrypted ({@code encryption}, on by default)
 * @param federationKey the federation's Ed25519 public key ({@code roster.federation.key}): members of
 *     the roster it signed are admitted too; null: only the pinned files
 * @param signedRoster the roster signed by the federation key ({@code roster.signed}, default {@code
 *     roster.dir/roster.signed}); used only with {@code federationKey}
 * @param encodings how a peer keeps the encodings it retrains on every round ({@code encodings}: {@code
 *     int8}, the default, or {@code float32}): its stored data, or a ring peer's live windows (those it
 *     collects between turns join them in the same form); a star client's per-round windows stay float32
 * @param radioMeasured whether the energy meter's rail includes the radio ({@code energy.radio =
 *     measured}; the default with an INA219, which meters a board's supply), so that a round's energy
 *     adds no radio estimate; otherwise ({@code estimate}, the default with every other meter, which
 *     meters the processor or models it) the profile's radio estimate is added to it
 */
public record PeerConfig(
    String peerId,
    String role,
    FederationSettings settings,
    List<String> ringOrder,
    int starClients,
    int classes,
    String broker,
    String username,
    String password,
    Path caFile,
    Path clientCert,
    Path clientKey,
    Path trainData,
    String labelColumn,
    List<String> ignoredColumns,
    String noise,
    String profile,
    Path stateDir,
    Duration startTimeout,
    Duration runTimeout,
    Path rosterDir,
    Path federationKey,
    Path signedRoster,
    SignalConfig signal,
    EncodingPrecision encodings,
    io.hdfl.sensors.energy.Ina219Config ina219,
    boolean radioMeasured) {

  static final Set<String> KEYS = Set.of("federation", "peer.id", "role", "encodings", "ring.order", "star.clients", "classes",
      "broker", "broker.username", "broker.password", "broker.ca", "broker.cert", "broker.key", "data.train",
      "data.label-column", "data.ignore-columns", "encoder", "dim", "features", "basis.seed", "similarity", "privacy", "epsilon", "delta0",
      "rounds", "epochs", "per-round", "quorum", "deadline.seconds", "ack.timeout.seconds", "noise",
      "energy.profile", "state.dir", "start.timeout.seconds", "run.timeout.seconds", "seed",
      "broker.max-packet", "encryption", "roster.dir", "roster.federation.key", "roster.signed", "data.source", "synthetic.machine", "window.size",
      "window.stride", "window.warmup", "window.keep", "energy.meter", "energy.ina219.bus", "energy.ina219.address",
      "energy.ina219.shunt-ohms", "energy.ina219.max-amps", "energy.radio");

  /** Reads and validates a configuration file. */
  public static PeerConfig read(Path file) throws IOException {
    Properties p = new Properties();
    try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      p.load(r);
    } catch (NoSuchFileException e) {
      throw new IllegalArgumentException(file + ": no such file");
    } catch (CharacterCodingException e) {
      throw new IllegalArgumentException(file + ": not UTF-8 text (a configuration file is read as UTF-8)");
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(file + ": not a properties file (" + e.getMessage() + ")");
    }
    Set<String> unknown = new TreeSet<>(p.stringPropertyNames());
    unknown.removeAll(KEYS);
    unknown.removeIf(key -> key.startsWith("signal.") || key.startsWith("ingest.")); // checked below when used
    unknown.removeAll(Set.of("replay.file", "replay.speed"));
    if (!unknown.isEmpty()) {
      StringBuilder meant = new StringBuilder();
      for (String key : unknown.stream().limit(5).toList()) {
        KeySuggestion.nearest(key, KEYS).ifPresent(k -> meant.append(meant.length() == 0 ? " (" : "; ")
            .append("'").append(Keys.printable(key)).append("': did you mean '").append(k).append("'?"));
      }
      throw new IllegalArgumentException(file + ": unknown key(s) " + Keys.printable(unknown.toString())
          + (meant.length() == 0 ? "" : meant + ")") + " (known: " + new TreeSet<>(KEYS) + ")");
    }
    try {
      return parse(file, p);
    } catch (IllegalArgumentException e) {
      // Every error names the file (and the key where one is to blame), on one line.
      String m = Keys.printable(String.valueOf(e.getMessage()));
      throw m.startsWith(file + ": ") ? e : new IllegalArgumentException(file + ": " + m, e);
    }
  }

  /**
   * The keys {@code file} sets more than once, sorted. A properties file's last line for a key counts,
   * so an edit made at the top of a file is silently overridden by an older line further down: a
   * device names them at start. Call after {@link #read} has accepted the file.
   */
  public static List<String> repeatedKeys(Path file) throws IOException {
    Map<String, Integer> seen = new java.util.TreeMap<>();
    Properties counting = new Properties() {
      @Override
      public synchronized Object put(Object key, Object value) {
        seen.merge(String.valueOf(key), 1, Integer::sum);
        return super.put(key, value);
      }
    };
    try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      counting.load(r);
    }
    return seen.entrySet().stream().filter(e -> e.getValue() > 1).map(e -> Keys.printable(e.getKey())).toList();
  }

  private static PeerConfig parse(Path file, Properties p) {
    Keys k = new Keys(file, p);
    String peerId = k.id("peer.id");
    String role = k.required("role").toLowerCase(Locale.ROOT);
    if (!List.of("ring", "star-client", "aggregator").contains(role)) {
      throw k.bad("role", "must be ring, star-client or aggregator");
    }
    Topology topology = role.equals("ring") ? Topology.RING : Topology.STAR;
    ScheduleMode mode = k.parsed("privacy", topology == Topology.RING ? "privatedfl" : "fedhdp", ScheduleMode::parse);
    int dim = k.integer("dim", 2000);
    double epsilon = k.real("epsilon", 1.0);
    PrivacyParameters params = mode == ScheduleMode.FEDHDP ? PrivacyParameters.perSampleDelta(dim, epsilon)
        : PrivacyParameters.withDelta0(dim, epsilon, k.real("delta0", 1e-3));
    long seed = k.integer("seed", 42);
    EncoderSpec encoder = new EncoderSpec(k.parsed("encoder", "cos", EncoderKind::parse), k.integer("features", 0) == 0
        ? 1 : k.integer("features", 0), dim, k.integer("basis.seed", 42));
    FederationSettings settings = FederationSettings.builder().federation(k.id("federation")).topology(topology)
        .privacy(mode).params(params).encoder(encoder).similarity(k.parsed("similarity", "cosine", Similarity::parse))
        .rounds(k.integer("rounds", 5)).retrainEpochs(k.integer("epochs", 1)).perRound(k.integer("per-round", 100))
        .quorum(k.integer("quorum", 0)).roundDeadline(Duration.ofSeconds(k.seconds("deadline.seconds", 30, 0)))
        .ackTimeout(Duration.ofSeconds(k.seconds("ack.timeout.seconds", 10, 1))).seed(seed)
        .maxPacketBytes(k.integer("broker.max-packet", 0)).encryption(encryption(k)).build();
    List<String> order = List.of();
    if (role.equals("ring")) {
      order = Arrays.stream(k.required("ring.order").split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
      if (!order.contains(peerId)) {
        throw k.bad("ring.order", "does not contain this peer's id '" + peerId + "'");
      }
      if (new TreeSet<>(order).size() != order.size()) {
        throw k.bad("ring.order", "lists a peer twice");
      }
    }
    int clients = role.equals("aggregator") ? k.integer("star.clients", 0) : 0;
    if (role.equals("aggregator") && clients < 1) {
      throw k.bad("star.clients", "is required for an aggregator and must be >= 1");
    }
    int classes = k.integer("classes", 0);
    if (classes < 1) {
      throw k.bad("classes", "is required (every peer must agree on the number of classes) and must be >= 1");
    }
    String noise = k.text("noise", "secure");
    if (!noise.equals("secure") && !noise.equals("seeded")) {
      throw k.bad("noise", "must be secure or seeded");
    }
    Path base = file.toAbsolutePath().getParent();
    SignalConfig signal = signal(k, p, role, base, (int) settings.perRound());
    Path rosterDir = k.path("roster.dir", base) != null ? k.path("roster.dir", base)
        : k.requiredPath("state.dir", base).resolve("roster");
    Path federationKey = k.path("roster.federation.key", base);
    if (federationKey != null && settings.encryption() == null) {
      throw k.bad("roster.federation.key", "needs encrypted hops ('encryption' is none): without them no frame is "
          + "checked against the roster");
    }
    if (federationKey == null && k.text("roster.signed", null) != null) {
      throw k.bad("roster.signed", "needs 'roster.federation.key' (the key that signed it)");
    }
    Path signedRoster = k.path("roster.signed", base) != null ? k.path("roster.signed", base)
        : rosterDir.resolve("roster.signed");
    io.hdfl.sensors.energy.Ina219Config ina219 = ina219(k);
    return new PeerConfig(peerId, role, settings, order, clients, classes, k.required("broker"),
        k.text("broker.username", null), k.text("broker.password", null), k.path("broker.ca", base),
        k.path("broker.cert", base), k.path("broker.key", base),
        role.equals("aggregator") || signal != null ? k.path("data.train", base) : k.requiredPath("data.train", base),
        labelColumn(k, role, signal), ignoredColumns(k, role, signal), noise, k.text("energy.profile", null),
        k.requiredPath("state.dir", base), Duration.ofSeconds(k.seconds("start.timeout.seconds", 120, 1)),
        Duration.ofSeconds(k.seconds("run.timeout.seconds", 3600, 1)), rosterDir, federationKey, signedRoster, signal,
        k.parsed("encodings", "int8", EncodingPrecision::parse), ina219, radioMeasured(k, ina219 != null));
  }

  /**
   * {@code energy.radio}: {@code measured} (the meter's rail includes the radio) or {@code estimate}
   * (add the profile's radio estimate); by default measured with an INA219 (a board's supply), else
   * estimate.
   */
  private static boolean radioMeasured(Keys k, boolean ina219) {
    String v = k.text("energy.radio", ina219 ? "measured" : "estimate");
    if (!v.equals("measured") && !v.equals("estimate")) {
      throw k.bad("energy.radio", "must be measured (the meter's rail includes the radio) or estimate, got '" + v + "'");
    }
    return v.equals("measured");
  }

  /**
   * {@code energy.meter}: {@code auto} (the best meter found, else the CPU-time model) or {@code
   * ina219}, an INA219 on I2C described by {@code energy.ina219.bus} (1), {@code .address} (0x40),
   * {@code .shunt-ohms} (0.1) and {@code .max-amps} (3.2); null for auto.
   */
  private static io.hdfl.sensors.energy.Ina219Config ina219(Keys k) {
    String meter = k.text("energy.meter", "auto");
    boolean inaKeys = k.p().stringPropertyNames().stream().anyMatch(n -> n.startsWith("energy.ina219."));
    if (meter.equals("auto")) {
      if (inaKeys) {
        throw k.bad("energy.meter", "must be ina219 for the energy.ina219.* keys to apply");
      }
      return null;
    }
    if (!meter.equals("ina219")) {
      throw k.bad("energy.meter", "must be auto or ina219, got '" + meter + "'");
    }
    String a = k.text("energy.ina219.address", "0x40");
    int address;
    try {
      address = Integer.decode(a);
    } catch (NumberFormatException e) {
      throw k.bad("energy.ina219.address", "must be an I2C address such as 0x40, got '" + a + "'");
    }
    try {
      io.hdfl.sensors.energy.Ina219Config.Builder b =
          io.hdfl.sensors.energy.Ina219Config.builder(k.integer("energy.ina219.bus", 1)).address(address);
      if (k.text("energy.ina219.shunt-ohms", null) != null) {
        b.shuntOhms(k.real("energy.ina219.shunt-ohms", 0.1));
      }
      if (k.text("energy.ina219.max-amps", null) != null) {
        b.maxExpectedAmps(k.real("energy.ina219.max-amps", 3.2));
      }
      return b.build();
    } catch (IllegalArgumentException e) {
      throw k.bad("energy.meter", "ina219: " + e.getMessage());
    }
  }

  /** The broker's {@code broker.<f>} paths as {@code ingest.<f>}, all of them, when none of the ingest ones is given. */
  private static void inherit(Keys k, Path base, Properties sourceKeys, List<String> fields) {
    if (fields.stream().anyMatch(f -> sourceKeys.getProperty("ingest." + f) != null)) {
      return;
    }
    for (String f : fields) {
      Path v = k.path("broker." + f, base);
      if (v != null) {
        sourceKeys.setProperty("ingest." + f, v.toString());
      }
    }
  }

  /**
   * {@code window.keep}: how many of its latest live windows a ring peer retrains on (at least the
   * {@code per-round} it collects between two turns). A star client learns {@code per-round} new windows
   * each round and keeps none, so the key is refused there, as with stored data.
   */
  private static int keptWindows(Keys k, Properties p, String role, int perRound) {
    if (p.getProperty("window.keep") == null) {
      return Math.max(SignalConfig.DEFAULT_KEPT_WINDOWS, perRound); // a turn's windows, at least
    }
    if (!role.equals("ring")) {
      throw k.bad("window.keep", "applies to a ring peer (a " + role + " keeps no windows between rounds)");
    }
    int keep = k.integer("window.keep", SignalConfig.DEFAULT_KEPT_WINDOWS);
    if (keep < perRound) {
      throw k.bad("window.keep", "must be at least per-round (" + perRound + "): the windows of one turn are all"
          + " retrained on, got " + keep);
    }
    return keep;
  }

  /** {@code data.source} and its keys: null for {@code file} (the default). */
  private static SignalConfig signal(Keys k, Properties p, String role, Path base, int perRound) {
    String source = k.text("data.source", "file");
    boolean hasSignalKeys = p.stringPropertyNames().stream().anyMatch(key -> key.startsWith("signal."));
    boolean hasIngestKeys = p.stringPropertyNames().stream().anyMatch(key -> key.startsWith("ingest."));
    if (source.equals("file")) {
      if (p.getProperty("window.keep") != null) {
        throw k.bad("window.keep", "applies to a ring peer learning from a live source (data.source); stored data"
            + " are all kept");
      }
      if (hasSignalKeys || hasIngestKeys) {
        throw k.bad("data.source", "is file (the default), so the " + (hasSignalKeys ? "signal" : "ingest")
            + ".* keys would be ignored: set it to " + (hasSignalKeys ? "hardware" : "mqtt-json or sparkplug"));
      }
      return null;
    }
    if (role.equals("aggregator")) {
      throw k.bad("data.source", "does not apply to an aggregator (it has no local data)");
    }
    int size = k.integer("window.size", 10);
    int keep = keptWindows(k, p, role, perRound);
    boolean mqtt = source.equals(SignalConfig.MQTT_JSON) || source.equals(SignalConfig.SPARKPLUG);
    String prefix = mqtt ? "ingest." : source.equals(SignalConfig.REPLAY) ? "replay." : "signal.";
    Properties sourceKeys = new Properties();
    for (String key : p.stringPropertyNames()) {
      if (key.startsWith(prefix)) {
        sourceKeys.setProperty(key, p.getProperty(key));
      }
    }
    try {
      if (source.equals(SignalConfig.HARDWARE)) {
        io.hdfl.sensors.signal.pi4j.HardwareSignalConfig.fromProperties(sourceKeys, "signal."); // checks, opens nothing
      } else if (hasSignalKeys) {
        throw new IllegalArgumentException("signal.* keys describe hardware inputs; data.source is " + source);
      }
      if (source.equals(SignalConfig.REPLAY)) {
        Path recording = k.requiredPath("replay.file", base);
        sourceKeys.setProperty("replay.file", recording.toString());
        ReplaySource.pacing(sourceKeys.getProperty("replay.speed", "fast"));
      } else if (p.getProperty("replay.file") != null || p.getProperty("replay.speed") != null) {
        throw new IllegalArgumentException("replay.* keys need data.source = replay");
      }
      if (mqtt) {
        for (String f : List.of("ingest.ca", "ingest.cert", "ingest.key")) { // beside the config, as every path
          if (sourceKeys.getProperty(f) != null) {
            sourceKeys.setProperty(f, k.path(f, base).toString());
          }
        }
        if (p.getProperty("ingest.broker") == null) {
          // ingest from the federation's own broker: with its TLS and credentials unless told otherwise;
          // a certificate and its key, and a user and its password, are taken as pairs
          inherit(k, base, sourceKeys, List.of("ca"));
          inherit(k, base, sourceKeys, List.of("cert", "key"));
          if (sourceKeys.getProperty("ingest.username") == null && sourceKeys.getProperty("ingest.password") == null
              && p.getProperty("broker.username") != null) {
            sourceKeys.setProperty("ingest.username", p.getProperty("broker.username"));
            sourceKeys.setProperty("ingest.password", p.getProperty("broker.password", ""));
          }
        }
        IngestSource.check(source, sourceKeys);
      } else if (hasIngestKeys) {
        throw new IllegalArgumentException("ingest.* keys describe MQTT ingest; data.source is " + source);
      }
      return new SignalConfig(source, k.integer("synthetic.machine", 0), size, k.integer("window.stride", size),
          k.integer("window.warmup", 2000), sourceKeys, keep);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(k.file() + ": " + e.getMessage());
    }
  }

  /** {@code encryption}: auto (default), aes-gcm, chacha20-poly1305, or none for unencrypted hops. */
  private static HopAead encryption(Keys k) {
    String v = k.text("encryption", "auto");
    if (v.equalsIgnoreCase("none")) {
      return null;
    }
    try {
      return HopAead.parse(v);
    } catch (IllegalArgumentException e) {
      throw k.bad("encryption", "must be auto, aes-gcm, chacha20-poly1305 or none, got '" + v + "'");
    }
  }

  /**
   * {@code data.ignore-columns}: the columns of a CSV {@code data.train} that hold no feature (a time
   * stamp, a machine id), comma-separated, by header name or 0-based index; none by default.
   */
  private static List<String> ignoredColumns(Keys k, String role, SignalConfig signal) {
    String v = k.text("data.ignore-columns", null);
    if (v == null) {
      return List.of();
    }
    storedDataOnly(k, "data.ignore-columns", role, signal);
    List<String> columns = Arrays.stream(v.split(",", -1)).map(String::trim).toList();
    try {
      return LoadOptions.builder().ignoredColumns(columns).build().ignoredColumns();
    } catch (IllegalArgumentException e) {
      throw k.bad("data.ignore-columns", "is not a list of columns: " + e.getMessage());
    }
  }

  /** {@code data.label-column}: the label column of a CSV {@code data.train}, by name or 0-based index; null by default. */
  private static String labelColumn(Keys k, String role, SignalConfig signal) {
    String v = k.text("data.label-column", null);
    if (v != null) {
      storedDataOnly(k, "data.label-column", role, signal);
    }
    return v;
  }

  /** Refuses a {@code data.train} column key where no stored data is read: it would be ignored silently. */
  private static void storedDataOnly(Keys k, String key, String role, SignalConfig signal) {
    if (role.equals("aggregator")) {
      throw k.bad(key, "does not apply to an aggregator (it has no local data)");
    }
    if (signal != null) {
      throw k.bad(key, "applies to a CSV 'data.train'; data.source is " + signal.source());
    }
  }

  /** How {@code data.train} is read: its label column and ignored columns ({@code data.*}). */
  public LoadOptions loadOptions() {
    LoadOptions.Builder b = LoadOptions.builder().ignoredColumns(ignoredColumns);
    if (labelColumn != null) {
      b.labelColumn(labelColumn.strip());
    }
    return b.build();
  }

  /** The settings with the feature count the data actually has. */
  public PeerConfig withFeatures(int features) {
    FederationSettings s = settings.withFeatures(features);
    return new PeerConfig(peerId, role, s, ringOrder, starClients, classes, broker, username, password, caFile,
        clientCert, clientKey, trainData, labelColumn, ignoredColumns, noise, profile, stateDir, startTimeout, runTimeout, rosterDir,
        federationKey, signedRoster, signal, encodings, ina219, radioMeasured);
  }

  /** Typed access to the properties with errors that name the file and key. */
  private record Keys(Path file, Properties p) {
    String text(String key, String dflt) {
      String v = p.getProperty(key);
      return v == null || v.isBlank() ? dflt : v.trim();
    }

    String required(String key) {
      String v = text(key, null);
      if (v == null) {
        throw bad(key, "is required");
      }
      return v;
    }

    String id(String key) {
      String v = required(key);
      if (!LedgerEntry.isValidId(v)) {
        throw bad(key, "must match " + LedgerEntry.ID + ", got '" + v + "'");
      }
      return v;
    }

    int integer(String key, int dflt) {
      String v = text(key, null);
      try {
        return v == null ? dflt : Integer.parseInt(v);
      } catch (NumberFormatException e) {
        throw bad(key, "must be a whole number, got '" + v + "'");
      }
    }

    /**
     * A duration in whole seconds of at least {@code min}: a timeout of 0 would fire at once (every
     * ring hand-off skipped, every device done with a one-step model), a negative one is meaningless.
     */
    int seconds(String key, int dflt, int min) {
      int v = integer(key, dflt);
      if (v < min) {
        throw bad(key, "must be at least " + min + " second" + (min == 1 ? "" : "s") + ", got " + v);
      }
      return v;
    }

    double real(String key, double dflt) {
      String v = text(key, null);
      try {
        return v == null ? dflt : Double.parseDouble(v);
      } catch (NumberFormatException e) {
        throw bad(key, "must be a number, got '" + v + "'");
      }
    }

    /** The value of {@code key} (or {@code dflt}) through {@code parser}, whose refusal names the key. */
    <T> T parsed(String key, String dflt, java.util.function.Function<String, T> parser) {
      String v = text(key, dflt);
      try {
        return parser.apply(v);
      } catch (IllegalArgumentException e) {
        throw bad(key, "is not valid: " + e.getMessage());
      }
    }

    Path path(String key, Path base) {
      String v = text(key, null);
      return v == null ? null : resolve(key, base, v);
    }

    Path requiredPath(String key, Path base) {
      return resolve(key, base, required(key));
    }

    private Path resolve(String key, Path base, String v) {
      try {
        return base.resolve(v);
      } catch (java.nio.file.InvalidPathException e) {
        throw bad(key, "is not a valid path: '" + v + "'");
      }
    }

    IllegalArgumentException bad(String key, String why) {
      return new IllegalArgumentException(file + ": '" + key + "' " + printable(why));
    }

    /** {@code s} on one line: control characters (a value may hold escaped line breaks) as {@code \\uXXXX}. */
    static String printable(String s) {
      StringBuilder b = new StringBuilder(s.length());
      for (int i = 0; i < s.length(); i++) {
        char c = s.charAt(i);
        if (Character.isISOControl(c) || c == '\u2028' || c == '\u2029') {
          b.append(String.format("\\u%04x", (int) c));
        } else {
          b.append(c);
        }
      }
      return b.toString();
    }
  }
}
