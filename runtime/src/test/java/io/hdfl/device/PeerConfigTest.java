package io.hdfl.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hdfl.federation.Topology;
import io.hdfl.hd.EncodingPrecision;
import io.hdfl.privacy.schedule.ScheduleMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PeerConfigTest {
  /** The keys every config needs (a role and its keys besides). */
  private static final String MINIMAL =
      "federation = f\npeer.id = a\nbroker = tcp://h:1883\nclasses = 2\nstate.dir = s\ndata.train = d\n";
  /** A ring peer of a ring of one. */
  private static final String A_RING_PEER = MINIMAL + "role = ring\nring.order = a\n";
  @TempDir Path dir;

  static Path example(String name) {
    Path root = Path.of(System.getProperty("hdfl.repo.root", ".."));
    return root.resolve("deploy/examples").resolve(name);
  }

  @Test
  void shippedExamplesAreValid() throws Exception {
    PeerConfig ring = PeerConfig.read(example("ring-peer.properties"));
    assertEquals("press-02", ring.peerId());
    assertEquals(List.of("press-01", "press-02", "press-03"), ring.ringOrder());
    assertEquals(Topology.RING, ring.settings().topology());
    assertEquals(ScheduleMode.PRIVATEDFL, ring.settings().privacy());
    assertEquals("secure", ring.noise());
    assertEquals("quality", ring.labelColumn());
    assertEquals(java.util.Optional.of("quality"), ring.loadOptions().labelColumnName());
    assertEquals(List.of("timestamp"), ring.loadOptions().ignoredColumns());
    assertEquals(EncodingPrecision.INT8, ring.encodings(), "the default");
    PeerConfig agg = PeerConfig.read(example("star-aggregator.properties"));
    assertEquals(8, agg.starClients());
    assertEquals(900, agg.settings().encoder().features());
    assertEquals(6, agg.settings().quorum());
    PeerConfig client = PeerConfig.read(example("star-client.properties"));
    assertEquals(500, client.settings().perRound());
    assertEquals(ScheduleMode.FEDHDP, client.settings().privacy());
    assertEquals(1.0, client.settings().params().delta0(), "fedhdp: delta = 1/samples");
    PeerConfig pi = PeerConfig.read(example("star-client-ads1115.properties"));
    assertEquals(SignalConfig.HARDWARE, pi.signal().source());
    assertEquals("1", pi.signal().sourceKeys().getProperty("signal.ads1115.0.bus"));
    PeerConfig gw = PeerConfig.read(example("star-client-sparkplug.properties"));
    assertEquals(SignalConfig.SPARKPLUG, gw.signal().source());
    assertEquals(5000, gw.signal().warmupSamples());
    PeerConfig json = PeerConfig.read(example("star-client-mqtt-json.properties"));
    assertEquals(SignalConfig.MQTT_JSON, json.signal().source());
    assertEquals("plant-7/mill-3/telemetry", json.signal().sourceKeys().getProperty("ingest.topic"));
    assertEquals("tcp://gateway.plant-7.local:1883", json.signal().sourceKeys().getProperty("ingest.broker"));
    assertEquals(10, json.signal().windowSize());
    assertEquals("/quality", json.signal().sourceKeys().getProperty("ingest.label"));
  }

  @Test
  void aRosterSignedByTheFederationKeyIsConfiguredBesideTheRosterDirectory() throws Exception {
    Path f = dir.resolve("p.properties");
    String base = MINIMAL + "role = ring\nring.order = a, b\n";
    Files.writeString(f, base + "roster.federation.key = /etc/hdfl/federation.pub\n");
    PeerConfig c = PeerConfig.read(f);
    assertEquals(Path.of("/etc/hdfl/federation.pub"), c.federationKey());
    assertEquals(dir.resolve("s/roster/roster.signed"), c.signedRoster(), "default: roster.dir/roster.signed");
    Files.writeString(f, base + "roster.federation.key = fed.pub\nroster.signed = r.signed\n");
    assertEquals(dir.resolve("r.signed"), PeerConfig.read(f).signedRoster());
    assertEquals(null, PeerConfig.read(example("ring-peer.properties")).federationKey(), "pinned files only");
    assertTrue(refusal(f, base + "roster.federation.key = fed.pub\nencryption = none\n")
        .contains("'roster.federation.key' needs encrypted hops"));
    assertTrue(refusal(f, base + "roster.signed = r.signed\n")
        .contains("'roster.signed' needs 'roster.federation.key'"));
  }

  @Test
  void errorsNameTheKey() throws Exception {
    Path f = dir.resolve("p.properties");
    String base = MINIMAL;
    assertTrue(refusal(f, base + "role = ring\nring.order = a, b\ndim = many\n")
        .contains("'dim' must be a whole number, got 'many'"));
    assertTrue(refusal(f, base + "role = relay\n")
        .contains("'role' must be ring, star-client or aggregator"));
    assertTrue(refusal(f, base + "role = aggregator\n")
        .contains("'star.clients' is required"));
    assertTrue(refusal(f, base + "role = ring\nring.order = a, a\n")
        .contains("lists a peer twice"));
    assertTrue(refusal(f, A_RING_PEER + "data.ignore-columns = time, machine, time\n")
        .contains("'data.ignore-columns' is not a list of columns: column 'time' is ignored twice"));
    assertTrue(refusal(f, A_RING_PEER + "data.ignore-columns = time,,machine\n")
        .contains("'data.ignore-columns' is not a list of columns: an ignored column is blank"));
    assertTrue(refusal(f, MINIMAL + "role = aggregator\nstar.clients = 2\nfeatures = 4\ndata.label-column = y\n")
        .contains("'data.label-column' does not apply to an aggregator (it has no local data)"));
    assertTrue(refusal(f, A_RING_PEER + "data.source = synthetic-machining\ndata.ignore-columns = t\n")
        .contains("'data.ignore-columns' applies to a CSV 'data.train'; data.source is synthetic-machining"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> PeerConfig.read(dir.resolve("none")))
        .getMessage().endsWith("no such file"));
  }

  /** Found by PeerConfigFuzzTest: a byte that is not UTF-8 came out as "Input length = 1", naming no file. */
  @Test
  void aFileThatIsNotUtf8IsRefusedByName() throws Exception {
    Path f = dir.resolve("latin1.properties");
    Files.write(f, "federation = caf\u00e9\n".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
    assertEquals(f + ": not UTF-8 text (a configuration file is read as UTF-8)",
        assertThrows(IllegalArgumentException.class, () -> PeerConfig.read(f)).getMessage());
  }

  /**
   * Found by PeerConfigFuzzTest: a bad privacy, encoder or similarity name (and the range checks of the
   * settings behind them) came out without the file or key, and a value with an escaped line break
   * broke the one-line message.
   */
  @Test
  void everyValueErrorNamesTheFileOnOneLine() throws Exception {
    Path f = dir.resolve("p.properties");
    String base = A_RING_PEER;
    assertEquals(f + ": 'privacy' is not valid: unknown mode 'privatedf' (expected privatedfl, fedhdp, blackbox or none)",
        refusal(f, base + "privacy = privatedf\n"));
    assertTrue(refusal(f, base + "epsilon = -1\n").startsWith(f + ": epsilon must be"));
    assertEquals(f + ": 'encodings' is not valid: unknown encodings 'int4' (expected float32 or int8)",
        refusal(f, base + "encodings = int4\n"));
    Files.writeString(f, base + "encodings = float32\n");
    assertEquals(EncodingPrecision.FLOAT32, PeerConfig.read(f).encodings());
    assertEquals(f + ": 'dim' must be a whole number, got '1\\u000a2'",
        refusal(f, base + "dim = 1\\n2\n"));
  }

  /** A timeout of 0 fired at once: every hand-off skipped, every device done with a one-step model. */
  @Test
  void timeoutsMustBeAtLeastASecondAndADeadlineNotNegative() throws Exception {
    Path f = dir.resolve("p.properties");
    String base = A_RING_PEER;
    for (String key : new String[] {"ack.timeout.seconds", "start.timeout.seconds", "run.timeout.seconds"}) {
      assertEquals(f + ": '" + key + "' must be at least 1 second, got 0", refusal(f, base + key + " = 0\n"));
    }
    assertEquals(f + ": 'deadline.seconds' must be at least 0 seconds, got -5",
        refusal(f, base + "deadline.seconds = -5\n"));
    Files.writeString(f, base + "deadline.seconds = 0\nack.timeout.seconds = 3\n");
    PeerConfig ok = PeerConfig.read(f);
    assertEquals(java.time.Duration.ZERO, ok.settings().roundDeadline(), "aggregate as soon as the quorum is in");
    assertEquals(java.time.Duration.ofSeconds(3), ok.settings().ackTimeout());
  }

  /**
   * Ingest from the federation's own broker (no ingest.broker) takes its TLS and credentials, and
   * ingest paths are read beside the config file, as every path is; both used to be missed (an ssl://
   * broker with an ACL refused the ingest connection; a relative CA was looked up in the working
   * directory, /var/lib/hdfl under systemd).
   */
  @Test
  void ingestFromTheFederationsBrokerTakesItsTlsAndCredentialsAndPathsBesideTheConfig() throws Exception {
    Path f = dir.resolve("ingest.properties");
    String base = "federation = f\npeer.id = a\nclasses = 3\nstate.dir = s\nrole = star-client\n"
        + "data.source = sparkplug\ningest.group = g\ningest.edge-node = n\ningest.rate = 500\n"
        + "ingest.metrics = load = m:Load\ningest.label.metric = m:Class\ningest.classes = a, b, c\n";
    Files.writeString(f, base + "broker = ssl://h:8883\nbroker.ca = ca.pem\nbroker.username = a\nbroker.password = pw\n");
    java.util.Properties keys = PeerConfig.read(f).signal().sourceKeys();
    assertEquals(dir.resolve("ca.pem").toString(), keys.getProperty("ingest.ca"));
    assertEquals("a", keys.getProperty("ingest.username"));
    assertEquals("pw", keys.getProperty("ingest.password"));
    Files.writeString(f, base + "broker = ssl://h:8883\nbroker.ca = ca.pem\nbroker.username = a\n"
        + "ingest.broker = ssl://gw:8883\ningest.ca = certs/gw.pem\n");
    keys = PeerConfig.read(f).signal().sourceKeys();
    assertEquals(dir.resolve("certs/gw.pem").toString(), keys.getProperty("ingest.ca"), "its own, beside the config");
    assertEquals(null, keys.getProperty("ingest.username"), "another broker: nothing of the federation's");
    Files.writeString(f, base + "broker = ssl://h:8883\nbroker.cert = b.crt\nbroker.key = b.key\nbroker.username = a\n"
        + "broker.password = pw\ningest.cert = i.crt\ningest.password = own\n");
    keys = PeerConfig.read(f).signal().sourceKeys();
    assertEquals(null, keys.getProperty("ingest.key"), "a certificate is never paired with the broker's key");
    assertEquals("own", keys.getProperty("ingest.password"), "nor a password with the broker's user");
    assertEquals(null, keys.getProperty("ingest.username"));
  }

  @Test
  void anIna219IsConfiguredByItsKeysAndBadOnesNameTheKey() throws Exception {
    Path f = dir.resolve("p.properties");
    String base = A_RING_PEER;
    Files.writeString(f, base);
    assertEquals(null, PeerConfig.read(f).ina219(), "auto by default");
    Files.writeString(f, base + "energy.meter = ina219\nenergy.ina219.bus = 3\nenergy.ina219.address = 0x45\n"
        + "energy.ina219.shunt-ohms = 0.05\nenergy.ina219.max-amps = 6\n");
    io.hdfl.sensors.energy.Ina219Config ina = PeerConfig.read(f).ina219();
    assertEquals(3, ina.bus());
    assertEquals(0x45, ina.address());
    assertEquals(0.05, ina.shuntOhms());
    assertTrue(refusal(f, base + "energy.meter = ina219\nenergy.ina219.address = 0x70\n")
        .contains("'energy.meter' ina219: INA219 at i2c-1/0x70: an INA219 answers at 0x40..0x4F"));
    assertTrue(refusal(f, base + "energy.ina219.bus = 2\n")
        .contains("'energy.meter' must be ina219 for the energy.ina219.* keys to apply"));
    assertTrue(refusal(f, base + "energy.meter = ina226\n")
        .contains("'energy.meter' must be auto or ina219, got 'ina226'"));
  }

  /**
   * {@code energy.radio}: an INA219 meters a board's supply, radio included, so nothing is added to
   * it by default; every other meter (the processor's, or the CPU-time model) gets the profile's radio
   * estimate added, unless told that its rail includes the radio.
   */
  @Test
  void theRadioIsEstimatedUnlessTheMetersRailIncludesIt() throws Exception {
    Path f = dir.resolve("p.properties");
    String base = A_RING_PEER;
    Files.writeString(f, base);
    assertFalse(PeerConfig.read(f).radioMeasured(), "auto meter: the radio is estimated");
    Files.writeString(f, base + "energy.meter = ina219\n");
    assertTrue(PeerConfig.read(f).radioMeasured(), "an INA219 on the supply measures the radio too");
    Files.writeString(f, base + "energy.meter = ina219\nenergy.radio = estimate\n");
    assertFalse(PeerConfig.read(f).radioMeasured());
    Files.writeString(f, base + "energy.radio = measured\n");
    assertTrue(PeerConfig.read(f).radioMeasured());
    assertTrue(refusal(f, base + "energy.radio = wifi\n").contains("'energy.radio' must be measured"));
  }

  /** Writes {@code config} to {@code f} and returns why {@link PeerConfig#read} refuses it. */
  /**
   * A live ring peer retrains on its latest window.keep windows (5000 unless set), at least per-round;
   * the key is refused where no windows are kept between rounds (a star client, stored data).
   */
  @Test
  void windowKeepBoundsALiveRingPeersWindowsAndIsRefusedWhereNothingIsKept() throws Exception {
    Path f = dir.resolve("p.properties");
    String live = A_RING_PEER.replace("data.train = d\n", "") + "data.source = synthetic-machining\nper-round = 40\n";
    Files.writeString(f, live);
    assertEquals(SignalConfig.DEFAULT_KEPT_WINDOWS, PeerConfig.read(f).signal().keptWindows());
    Files.writeString(f, live.replace("per-round = 40", "per-round = 8000"));
    assertEquals(8000, PeerConfig.read(f).signal().keptWindows(), "by default at least a turn's windows");
    Files.writeString(f, live + "window.keep = 40\n");
    assertEquals(40, PeerConfig.read(f).signal().keptWindows());
    assertEquals(f + ": 'window.keep' must be at least per-round (40): the windows of one turn are all retrained on,"
        + " got 39", refusal(f, live + "window.keep = 39\n"));
    assertEquals(f + ": 'window.keep' applies to a ring peer (a star-client keeps no windows between rounds)",
        refusal(f, live.replace("role = ring\nring.order = a\n", "role = star-client\n") + "window.keep = 400\n"));
    assertEquals(f + ": 'window.keep' applies to a ring peer learning from a live source (data.source); stored data"
        + " are all kept", refusal(f, A_RING_PEER + "window.keep = 400\n"));
    assertTrue(refusal(f, live + "window.keep = lots\n").startsWith(f + ": 'window.keep' "));
  }

  /**
   * A channel mapped to nothing ("feed[mm/min] =", after a space) is refused: its empty JSON pointer
   * would take the whole payload, an object, so the channel would be NaN in every sample.
   */
  @Test
  void aJsonChannelWithoutAPointerIsRefused() throws Exception {
    Path f = dir.resolve("p.properties");
    String base = "federation = f\npeer.id = a\nclasses = 3\nstate.dir = s\nrole = star-client\n"
        + "broker = tcp://h:1883\ndata.source = mqtt-json\ningest.topic = t\ningest.rate = 50\n";
    Files.writeString(f, base + "ingest.channels = load[%] = /spindle/load, feed[mm/min] = /x/feed\n");
    assertEquals(2, PeerConfig.read(f).signal().sourceKeys().getProperty("ingest.channels").split(",").length);
    for (String bad : new String[] {"load[%] = /spindle/load, feed[mm/min] =", "load[%] = /spindle/load, = /x",
        "load[%] /spindle/load"}) {
      String m = refusal(f, base + "ingest.channels = " + bad + "\n");
      assertTrue(m.contains("'ingest.channels' wants name[unit] = source"), m);
    }
  }

  private static String refusal(Path f, String config) throws Exception {
    Files.writeString(f, config);
    return assertThrows(IllegalArgumentException.class, () -> PeerConfig.read(f)).getMessage();
  }
}
