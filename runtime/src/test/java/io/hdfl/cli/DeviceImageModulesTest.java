package io.hdfl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CLI in a JVM limited to the device image's modules ({@code deploy/image/modules}, the list
 * {@code deploy/build-image} links): an encrypted ring over the embedded MQTT broker runs, its
 * ledger verifies, the plots are skipped with a note instead of failing, and a plot that was asked
 * for is refused with one line. A module the image lacks shows up here as a NoClassDefFoundError.
 */
class DeviceImageModulesTest {
  private static final Path MODULES = Path.of("..", "deploy", "image", "modules");

  @TempDir Path dir;

  /** The linked modules: bare names (lines starting with '-' are left out, '#' are comments). */
  static List<String> imageModules() throws IOException {
    List<String> mods = new ArrayList<>();
    for (String line : Files.readAllLines(MODULES, StandardCharsets.UTF_8)) {
      String l = line.strip();
      if (!l.isEmpty() && !l.startsWith("#") && !l.startsWith("-")) {
        mods.add(l);
      }
    }
    return mods;
  }

  private CliRun runLimited(String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "--limit-modules", String.join(",", imageModules()), "--add-modules", "jdk.incubator.vector",
        "-XX:+UseParallelGC", "-cp", System.getProperty("java.class.path"), "io.hdfl.cli.Main"));
    cmd.addAll(List.of(args));
    Path out = dir.resolve("stdout");
    Path err = dir.resolve("stderr");
    Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    if (!p.waitFor(120, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("timed out: " + cmd);
    }
    return new CliRun(p.exitValue(), Files.readString(out), Files.readString(err));
  }

  @Test
  void theModuleListIsReadable() throws Exception {
    List<String> mods = imageModules();
    assertTrue(mods.contains("java.base") && mods.contains("jdk.incubator.vector"), mods.toString());
    assertFalse(mods.contains("java.desktop"), "the device image leaves java.desktop out");
  }

  @Test
  void anEncryptedRingOverMqttRunsWithTheImageModulesAndSkipsThePlots() throws Exception {
    Path run = dir.resolve("run");
    CliRun r = runLimited("simulate", "--source", "synthetic-machining", "--peers", "2", "--rounds", "2",
        "--dim", "256", "--per-round", "20", "--transport", "mqtt", "--encryption", "auto", "--noise", "secure",
        "--out", run.toString(), "--json");
    assertEquals(0, r.code(), r.out() + r.err());
    assertTrue(r.out().contains("\"final_accuracy\""), r.out());
    for (String png : List.of("accuracy.png", "noise.png", "energy.png")) {
      assertFalse(Files.exists(run.resolve(png)), png + " needs java.desktop");
    }
    assertTrue(Files.readString(run.resolve("summary.md")).contains("Plots not drawn: this Java runtime has no "
        + "java.desktop module"), Files.readString(run.resolve("summary.md")));
    CliRun v = runLimited("ledger", "verify", run.resolve("ledger.jsonl").toString());
    assertEquals(0, v.code(), v.out() + v.err());
    assertTrue(v.out().contains("ledger OK: 4 entries"), v.out());
  }

  @Test
  void aPlotAskedForIsRefusedOnOneLine() throws Exception {
    Path png = dir.resolve("schedule.png");
    CliRun r = runLimited("privacy", "schedule", "--mode", "privatedfl", "--dim", "1000", "--epsilon", "1",
        "--peers", "3", "--samples", "300", "--rounds", "2", "--plot", png.toString());
    assertEquals(2, r.code(), r.out() + r.err());
    assertTrue(r.err().contains("hdfl: error: --plot: this Java runtime has no java.desktop module"), r.err());
    assertFalse(r.err().contains("\tat "), "no stack trace: " + r.err());
    assertFalse(Files.exists(png));
  }
}
