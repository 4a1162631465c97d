package io.hdfl.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PrivacyCommandTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  /** |actual − expected| ≤ 1e-12·|expected|. */
  private static void assertClose(double expected, double actual, String what) {
    assertEquals(expected, actual, 1e-12 * Math.abs(expected), what);
  }

  private static double sumLn(long n) {
    double s = 0;
    for (long i = 2; i <= n; i++) {
      s += Math.log(i);
    }
    return s;
  }

  private static JsonNode json(String... args) throws Exception {
    CliRun r = CliRun.of(args);
    assertEquals(0, r.code(), r.err());
    assertEquals(1, r.out().strip().lines().count(), "one JSON object on one line");
    return JSON.readTree(r.out());
  }

  private static List<String> fields(JsonNode node) {
    List<String> names = new ArrayList<>();
    node.fieldNames().forEachRemaining(names::add);
    return names;
  }

  @Test
  void privateDflJsonRowsAreTheClosedForms() throws Exception {
    JsonNode j = json("privacy", "schedule", "--mode", "privatedfl", "--dim", "2000", "--epsilon", "1",
        "--delta0", "1e-3", "--peers", "3", "--samples", "600", "--rounds", "5", "--json");
    assertEquals("privatedfl", j.get("mode").asText());
    assertEquals(2000, j.get("dim").asInt());
    assertEquals(1.0, j.get("epsilon").asDouble());
    assertEquals(1e-3, j.get("delta0").asDouble());
    assertEquals(3, j.get("peers").asInt());
    double c = 2 * 2000 / 1.0;
    JsonNode steps = j.get("steps");
    assertEquals(15, steps.size());
    for (JsonNode row : steps) {
      assertEquals(List.of("step", "round", "peer", "samples", "required", "present", "added", "blackbox"), fields(row));
      long t = row.get("step").asLong();
      assertEquals(t, 3 * (row.get("round").asLong() - 1) + row.get("peer").asLong());
      double xi = c * Math.log(1.25 * t * 600 / 1e-3);
      assertClose(xi, row.get("required").asDouble(), "ξ(" + t + ")");
      assertClose(xi, row.get("present").asDouble(), "present(" + t + ")");
      assertClose(t == 1 ? xi : c * Math.log((double) t / (t - 1)), row.get("added").asDouble(), "Γ(" + t + ")");
      assertClose(c * (t * Math.log(1.25 * 600 / 1e-3) + sumLn(t)), row.get("blackbox").asDouble(), "Ξ(" + t + ")");
    }
    JsonNode totals = j.get("totals");
    assertClose(c * Math.log(1.25 * 15 * 600 / 1e-3), totals.get("added").asDouble(), "Σ Γ = ξ(T)");
    assertEquals(15, totals.get("rows").asInt());
    assertTrue(totals.get("blackbox_over_added").asDouble() > 10);
  }

  @Test
  void fedHdPrivacyJsonRowsAreTheClosedForms() throws Exception {
    int k = 4;
    int l = 50;
    JsonNode j = json("privacy", "schedule", "--mode", "fedhdp", "--dim", "10000", "--epsilon", "2", "--peers",
        String.valueOf(k), "--per-round", String.valueOf(l), "--rounds", "6", "--json");
    assertEquals("fedhdp", j.get("mode").asText());
    assertEquals(1.0, j.get("delta0").asDouble(), "δ = 1/samples");
    assertEquals(l, j.get("per_round").asInt());
    double c = 2 * 10000 / 4.0;
    int r = 0;
    double blind = 0;
    for (JsonNode row : j.get("steps")) {
      r++;
      assertEquals(List.of("step", "round", "peer", "samples", "required", "present", "added", "blackbox", "gamma",
          "server_added"), fields(row));
      double gammaK = r == 1 ? c * Math.log(1.25 * l)
          : c / k * (k * Math.log(1.25 * (r - 1) * k * l + 1.25 * l) - Math.log(1.25 * (r - 2) * k * l + 1.25 * l));
      double xiG = c / (k * k) * Math.log(1.25 * k * l * r);
      double psiG = c / k * Math.log(1.25 * (r - 1) * k * l + 1.25 * l);
      blind += c * Math.log(1.25 * ((r - 1) * k * l + l));
      assertClose(gammaK, row.get("added").asDouble(), "Γ_k^" + r);
      assertClose(xiG, row.get("required").asDouble(), "ξ_g^" + r);
      assertClose(psiG, row.get("present").asDouble(), "Ψ_g^" + r);
      assertClose(psiG / xiG, row.get("gamma").asDouble(), "γ^" + r);
      assertClose(blind, row.get("blackbox").asDouble(), "blind client " + r);
      assertEquals(0.0, row.get("server_added").asDouble(), 0.0);
    }
    assertEquals(6, r);
    assertEquals(0, j.get("totals").get("server_added_rounds").asInt());
    assertTrue(j.get("totals").get("min_gamma").asDouble() > 1);
  }

  @Test
  void blackBoxAndNoneJson() throws Exception {
    JsonNode bb = json("privacy", "schedule", "--mode", "blackbox", "--dim", "100", "--epsilon", "0.5", "--peers", "2",
        "--samples", "10", "--rounds", "3", "--json");
    double c = 2 * 100 / 0.25;
    for (JsonNode row : bb.get("steps")) {
      long t = row.get("step").asLong();
      assertClose(c * Math.log(1.25 * t * 10 / 1e-3), row.get("added").asDouble(), "full requirement, default δ0");
      assertClose(c * (t * Math.log(1.25 * 10 / 1e-3) + sumLn(t)), row.get("present").asDouble(), "Ξ(" + t + ")");
    }
    JsonNode none = json("privacy", "schedule", "--mode", "none", "--dim", "100", "--epsilon", "0.5", "--peers", "2",
        "--samples", "10", "--rounds", "3", "--json");
    assertTrue(none.get("delta0").isNull());
    assertEquals(6, none.get("steps").size());
    for (JsonNode row : none.get("steps")) {
      for (String key : List.of("required", "present", "added", "blackbox")) {
        assertEquals(0.0, row.get(key).asDouble(), 0.0);
      }
    }
    assertTrue(none.get("totals").get("blackbox_over_added").isNull(), "0/0 is null, not NaN");
  }

  @Test
  void csvHasAHeaderAndOneLinePerRow() {
    CliRun r = CliRun.of("privacy", "schedule", "--mode", "privatedfl", "--dim", "500", "--epsilon", "1", "--peers",
        "2", "--samples", "100", "--rounds", "4", "--csv");
    assertEquals(0, r.code(), r.err());
    List<String> lines = r.out().lines().toList();
    assertEquals("step,round,peer,samples,required,present,added,blackbox", lines.get(0));
    assertEquals(9, lines.size());
    String[] row = lines.get(8).split(",");
    assertEquals("8", row[0]);
    assertEquals("4", row[1]);
    assertEquals("2", row[2]);
    assertEquals("800", row[3]);
    assertClose(1000 * Math.log(1.25 * 800 / 1e-3), Double.parseDouble(row[4]), "ξ(8)");
    assertClose(1000 * Math.log(8.0 / 7), Double.parseDouble(row[6]), "Γ(8)");

    CliRun star = CliRun.of("privacy", "schedule", "--mode", "fedhdp", "--dim", "500", "--epsilon", "1", "--peers",
        "2", "--per-round", "100", "--rounds", "2", "--csv");
    assertEquals(0, star.code(), star.err());
    assertEquals("step,round,peer,samples,required,present,added,blackbox,gamma,server_added",
        star.out().lines().findFirst().orElseThrow());
  }

  @Test
  void tableIsShortenedForLongSchedules() {
    CliRun small = CliRun.of("privacy", "schedule", "--mode", "privatedfl", "--dim", "500", "--epsilon", "1",
        "--peers", "3", "--samples", "100", "--rounds", "2");
    assertEquals(0, small.code(), small.err());
    assertTrue(small.out().contains("required") && small.out().contains("black-box"), small.out());
    assertFalse(small.out().contains("not shown"));
    assertTrue(small.out().contains("totals: added"), small.out());

    CliRun big = CliRun.of("privacy", "schedule", "--mode", "privatedfl", "--dim", "500", "--epsilon", "1",
        "--peers", "10", "--samples", "100", "--rounds", "10");
    assertEquals(0, big.code(), big.err());
    assertTrue(big.out().contains("40 rows not shown"), big.out());
    assertTrue(big.out().lines().anyMatch(line -> line.trim().startsWith("100 ")), "last row shown");
    assertTrue(big.out().lines().takeWhile(l -> !l.startsWith("honest composition")).count() < 70);

    CliRun star = CliRun.of("privacy", "schedule", "--mode", "fedhdp", "--dim", "500", "--epsilon", "1",
        "--peers", "2", "--per-round", "1", "--rounds", "3");
    assertEquals(0, star.code(), star.err());
    assertTrue(star.out().contains("server: added noise in 1 of 3 rounds"), star.out());
  }

  /**
   * Planned for the secure source (the default), the grid each step snaps the model to counts in the
   * record's sensitivity, so the final model's guarantee is a little weaker than with seeded noise.
   */
  @Test
  void theSecureSourcesGridIsPlannedForUnlessSeededNoiseIsAsked() throws Exception {
    String[] args = {"privacy", "schedule", "--mode", "privatedfl", "--dim", "10000", "--epsilon", "0.1", "--peers", "20",
        "--samples", "100", "--rounds", "10", "--retrain-epochs", "0", "--json"};
    var mapper = new com.fasterxml.jackson.databind.ObjectMapper();
    var secure = mapper.readTree(CliRun.of(args).out()).get("composition");
    String[] seededArgs = java.util.Arrays.copyOf(args, args.length + 2);
    seededArgs[args.length] = "--noise";
    seededArgs[args.length + 1] = "seeded";
    var seeded = mapper.readTree(CliRun.of(seededArgs).out()).get("composition");
    assertEquals("secure", secure.get("noise").asText());
    assertEquals("seeded", seeded.get("noise").asText());
    double muSecure = secure.get("observers").get(0).get("mu").asDouble();
    double muSeeded = seeded.get("observers").get(0).get("mu").asDouble();
    assertTrue(muSecure > muSeeded * 1.001, muSecure + " against " + muSeeded);
    String[] bad = java.util.Arrays.copyOf(seededArgs, seededArgs.length);
    bad[bad.length - 1] = "gaussian";
    CliRun r = CliRun.of(bad);
    assertEquals(2, r.code());
    assertTrue(r.err().contains("--noise must be secure or seeded, got 'gaussian'"), r.err());
  }

  /** A large ε is printed with the exact figure of one release beside it, not as the guarantee. */
  @Test
  void aHeadlineTheClassicalCalibrationDoesNotMeetIsFlagged() throws Exception {
    CliRun big = CliRun.of("privacy", "schedule", "--mode", "privatedfl", "--dim", "2000", "--epsilon", "10",
        "--peers", "5", "--samples", "100", "--rounds", "3", "--retrain-epochs", "0");
    assertEquals(0, big.code(), big.err());
    assertTrue(big.out().contains("WARNING: the classical calibration is proven for epsilon < 1; at epsilon = 10.0"),
        big.out());
    assertTrue(!big.out().contains("The headline epsilon holds per released model"), big.out());
    CliRun one = CliRun.of("privacy", "schedule", "--mode", "privatedfl", "--dim", "2000", "--epsilon", "1",
        "--peers", "5", "--samples", "100", "--rounds", "3", "--retrain-epochs", "0");
    assertTrue(!one.out().contains("classical calibration"), one.out());
    // at ε = 9 the final model's δ (5.6e-10) still meets it, but the first release, calibrated at
    // δ0/N = 1.7e-6, has exact ε 9.06: it is flagged, in the JSON too
    String[] nine = {"privacy", "schedule", "--mode", "privatedfl", "--dim", "2000", "--epsilon", "9", "--peers", "100",
        "--samples", "600", "--rounds", "30", "--retrain-epochs", "0", "--json"};
    var json = new com.fasterxml.jackson.databind.ObjectMapper().readTree(CliRun.of(nine).out()).get("composition");
    assertTrue(json.get("calibration_warning").asText().contains("at epsilon = 9.0 and delta = 1.67e-06"), json.toString());
    nine[7] = "1";
    json = new com.fasterxml.jackson.databind.ObjectMapper().readTree(CliRun.of(nine).out()).get("composition");
    assertTrue(json.get("calibration_warning").isNull(), json.toString());
  }

  @Test
  void honestCompositionNamesEachObserverAndFlagsWeakerGuarantees() throws Exception {
    String[] args = {"privacy", "schedule", "--mode", "privatedfl", "--dim", "2000", "--epsilon", "1",
        "--peers", "5", "--samples", "100", "--rounds", "3", "--retrain-epochs", "0"};
    CliRun r = CliRun.of(args);
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().contains("honest composition"), r.out());
    assertTrue(r.out().contains("final-model user") && r.out().contains("another peer")
        && r.out().contains("wire reader"), r.out());
    assertTrue(r.out().contains("WEAKER"), "the wire reader differencing hops is weaker: " + r.out());

    String[] json = java.util.Arrays.copyOf(args, args.length + 2);
    json[args.length] = "--json";
    json[args.length + 1] = "--wire-encrypted";
    CliRun j = CliRun.of(json);
    assertEquals(0, j.code(), j.err());
    var comp = new com.fasterxml.jackson.databind.ObjectMapper().readTree(j.out()).get("composition");
    assertEquals(true, comp.get("wire_encrypted").asBoolean());
    assertEquals(2, comp.get("observers").size(), "no wire reader when payloads are encrypted");
    var fin = comp.get("observers").get(0);
    assertEquals("final-model user", fin.get("observer").asText());
    // One release, E = 0: exact ε below RDP ε, both finite; with full noise the final model keeps the headline.
    assertTrue(fin.get("epsilon_exact").asDouble() <= fin.get("epsilon_rdp").asDouble());
    assertFalse(fin.get("weaker_than_headline").asBoolean(), j.out());
    assertEquals(0.0 + 1 / (5.0 * 100 * 3) * 1e-3, comp.get("delta").asDouble(), 1e-18);
  }

  @Test
  void badInputsGetOneErrorLineAndExitCode2() {
    String[] base = {"privacy", "schedule", "--dim", "100", "--epsilon", "1", "--peers", "3", "--rounds", "2"};
    String[][] cases = {
        {"--mode", "fedhdp", "--samples", "10"},
        {"--mode", "fedhdp"},
        {"--mode", "fedhdp", "--per-round", "10", "--delta0", "0.01"},
        {"--mode", "privatedfl", "--per-round", "10"},
        {"--mode", "privatedfl"},
        {"--mode", "blackbox", "--samples", "10", "--delta0", "1"},
        {"--mode", "privatedfl", "--samples", "10", "--delta0", "0"},
        {"--mode", "privatedfl", "--samples", "0"},
        {"--mode", "privatedfl", "--samples", "10", "--json", "--csv"},
        {"--mode", "privatedfl", "--samples", "10", "--plot", dir.resolve("p.svg").toString()},
    };
    String[] expected = {
        "--samples is for the ring modes; --mode fedhdp takes --per-round L",
        "--mode fedhdp needs --per-round L (samples per client per round)",
        "--delta0 is not used by --mode fedhdp (δ = 1/samples)",
        "--per-round is for --mode fedhdp; --mode privatedfl takes --samples N",
        "--mode privatedfl needs --samples N (samples per peer per step)",
        "--delta0 must be in (0, 1), got 1.0",
        "--delta0 must be in (0, 1), got 0.0",
        "--samples (N, samples per peer) must be >= 1, got 0",
        "--json and --csv cannot be combined",
        "--plot writes PNG: the file name must end in .png, got " + dir.resolve("p.svg"),
    };
    for (int i = 0; i < cases.length; i++) {
      String[] args = concat(base, cases[i]);
      CliRun r = CliRun.of(args);
      assertEquals(2, r.code(), String.join(" ", args) + "\n" + r.err());
      assertEquals("hdfl: error: " + expected[i], r.err().strip(), String.join(" ", args));
      assertEquals("", r.out());
    }
    CliRun eps = CliRun.of("privacy", "schedule", "--mode", "privatedfl", "--dim", "100", "--epsilon", "0",
        "--peers", "3", "--samples", "10", "--rounds", "2");
    assertEquals(2, eps.code());
    assertEquals("hdfl: error: --epsilon must be a finite number > 0, got 0.0", eps.err().strip());
    CliRun dim = CliRun.of("privacy", "schedule", "--mode", "fedhdp", "--dim", "0", "--epsilon", "1",
        "--peers", "3", "--per-round", "10", "--rounds", "2");
    assertEquals("hdfl: error: --dim must be >= 1, got 0", dim.err().strip());
    CliRun peers = CliRun.of("privacy", "schedule", "--mode", "fedhdp", "--dim", "10", "--epsilon", "1",
        "--peers", "0", "--per-round", "10", "--rounds", "2");
    assertEquals("hdfl: error: --peers (K, clients) must be >= 1, got 0", peers.err().strip());
    CliRun mode = CliRun.of("privacy", "schedule", "--mode", "gossip", "--dim", "10", "--epsilon", "1",
        "--peers", "2", "--samples", "10", "--rounds", "2");
    assertEquals(2, mode.code());
    assertTrue(mode.err().contains("unknown mode 'gossip'"), mode.err());
    assertFalse(Files.exists(dir.resolve("p.svg")));
  }

  @Test
  void plotIsAReadablePng() throws Exception {
    Path png = dir.resolve("out/schedule.png");
    JsonNode j = json("privacy", "schedule", "--mode", "privatedfl", "--dim", "2000", "--epsilon", "1", "--peers",
        "5", "--samples", "100", "--rounds", "8", "--json", "--plot", png.toString());
    assertEquals(40, j.get("steps").size(), "--plot leaves stdout a single JSON object");
    assertPng(png);
    for (String[] mode : new String[][] {{"fedhdp", "--per-round", "1"}, {"blackbox", "--samples", "10"},
        {"none", "--samples", "10"}}) {
      Path file = dir.resolve(mode[0] + ".png");
      CliRun r = CliRun.of("privacy", "schedule", "--mode", mode[0], "--dim", "100", "--epsilon", "1", "--peers", "2",
          mode[1], mode[2], "--rounds", "4", "--plot", file.toString());
      assertEquals(0, r.code(), r.err());
      assertTrue(r.out().contains("plot written to " + file), r.out());
      assertPng(file);
    }
  }

  private static void assertPng(Path file) throws Exception {
    byte[] bytes = Files.readAllBytes(file);
    assertTrue(bytes.length > 1000, "size " + bytes.length);
    assertArrayEquals(new byte[] {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'}, Arrays.copyOf(bytes, 8));
    BufferedImage image = ImageIO.read(file.toFile());
    assertEquals(900, image.getWidth());
    assertEquals(500, image.getHeight());
  }

  @Test
  void helpListsThePrivacyCommand() {
    CliRun help = CliRun.of("--help");
    assertTrue(help.out().contains("privacy"), help.out());
    CliRun sub = CliRun.of("privacy", "schedule", "--help");
    assertEquals(0, sub.code());
    assertTrue(sub.out().contains("--per-round") && sub.out().contains("--plot"), sub.out());
  }

  private static String[] concat(String[] a, String[] b) {
    String[] all = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, all, a.length, b.length);
    return all;
  }
}
