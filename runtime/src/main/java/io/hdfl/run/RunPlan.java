package io.hdfl.run;

import io.hdfl.data.Partitioner;
import io.hdfl.federation.FederationSettings;
import io.hdfl.hd.EncodingPrecision;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Everything {@code hdfl simulate} needs besides the federation's own settings: the data, how it is
 * split over the peers, the transport, the noise source, the energy profile and where to write.
 *
 * @param transport {@code mqtt} or {@code loopback}
 * @param brokerUrl an external broker, or null for the embedded one
 * @param noise {@code seeded} or {@code secure}
 * @param profile energy/device profile name or spec (see DeviceProfiles)
 * @param encodings how every peer keeps its cached encodings (and the test set is kept)
 * @param perRoundChosen whether the star's L was given ({@code --per-round}); if not, a run on data files
 *     lowers the default to what the smallest client shard can give every round
 */
public record RunPlan(
    FederationSettings settings,
    Path train,
    Path test,
    Partitioner.Scheme split,
    int peers,
    String transport,
    String brokerUrl,
    String noise,
    String profile,
    int threads,
    Duration timeout,
    Path out,
    String source,
    EncodingPrecision encodings,
    boolean perRoundChosen,
    io.hdfl.data.LoadOptions loading) {

  /**
   * The {@code hdfl eval} command that scores the run's final model as the run did: on its test file
   * ({@code FILE} for a live source, which has none) and with its cached encodings' precision.
   */
  public String evalCommand() {
    return "hdfl eval --model " + shellWord(new RunFolder(out).modelFile().toString()) + " --test "
        + (test != null ? shellWord(test.toString()) : "FILE") + loadingFlags()
        + (encodings == EncodingPrecision.INT8 ? " --encodings int8" : "");
  }

  /** The CSV options of {@link #loading} as the commands that read data take them (" --label-column y"). */
  private String loadingFlags() {
    StringBuilder b = new StringBuilder();
    loading.labelColumnName().ifPresent(n -> b.append(" --label-column ").append(shellWord(n)));
    loading.labelColumnIndex().ifPresent(i -> b.append(" --label-column '#").append(i).append("'"));
    if (!loading.ignoredColumns().isEmpty()) { // a name with a comma in it cannot be given here: by its index
      b.append(" --ignore-columns ").append(shellWord(String.join(",", loading.ignoredColumns())));
    }
    return b.toString();
  }

  /** {@code word} as one shell word: as it is when it is plain, else in single quotes. */
  private static String shellWord(String word) {
    return word.matches("[A-Za-z0-9_.,:/+=-]+") ? word : "'" + word.replace("'", "'\\''") + "'";
  }

  /** The built-in live signal source {@code simulate --source} names (instead of data files). */
  public static final String SYNTHETIC_MACHINING = "synthetic-machining";

  /** A run on data files with int8 encodings. */
  public RunPlan(FederationSettings settings, Path train, Path test, Partitioner.Scheme split, int peers, String transport,
      String brokerUrl, String noise, String profile, int threads, Duration timeout, Path out) {
    this(settings, train, test, split, peers, transport, brokerUrl, noise, profile, threads, timeout, out, null,
        EncodingPrecision.INT8, true, io.hdfl.data.LoadOptions.defaults());
  }

  /** This plan with {@code s} as its federation's settings. */
  public RunPlan withSettings(FederationSettings s) {
    return new RunPlan(s, train, test, split, peers, transport, brokerUrl, noise, profile, threads, timeout, out, source,
        encodings, perRoundChosen, loading);
  }

  public RunPlan {
    java.util.Objects.requireNonNull(encodings, "encodings");
    java.util.Objects.requireNonNull(loading, "loading");
    if (peers < 1) {
      throw new IllegalArgumentException("--peers must be >= 1, got " + peers);
    }
    if (threads < 1) {
      throw new IllegalArgumentException("--threads must be >= 1, got " + threads);
    }
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("--timeout must be >= 1 s, got " + timeout.toSeconds() + " s");
    }
    if (!transport.equals("mqtt") && !transport.equals("loopback")) {
      throw new IllegalArgumentException("--transport must be mqtt or loopback, got '" + transport + "'");
    }
    if (!noise.equals("seeded") && !noise.equals("secure")) {
      throw new IllegalArgumentException("--noise must be seeded or secure, got '" + noise + "'");
    }
    if (source != null && !source.equals(SYNTHETIC_MACHINING)) {
      throw new IllegalArgumentException("--source must be " + SYNTHETIC_MACHINING + ", got '" + source + "'");
    }
    if (brokerUrl != null && transport.equals("loopback")) {
      throw new IllegalArgumentException("--broker needs --transport mqtt");
    }
    if (brokerUrl != null) {
      io.hdfl.transport.MqttSettings.normalizeUri(brokerUrl); // a bad URL is told before the data load
    }
  }
}
