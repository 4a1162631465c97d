package io.hdfl.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.Options;

/** Argument handling, run planning and result arithmetic of the harness (no benchmark is run). */
class KernelBenchmarksTest {

  @Test
  void parsesHarnessOptionsRegexesAndJmhPassThrough() {
    KernelBenchmarks.Args a = KernelBenchmarks.parse("--quick", "-f", "2", "Cos", "--out", "r.json", "-p", "dim=2000",
        "axpy");
    assertTrue(a.quick());
    assertEquals("r.json", a.outFile());
    assertEquals(List.of("-f", "2", "-p", "dim=2000"), a.jmhArgs());
    assertTrue(a.filter().matcher("io.hdfl.bench.CosBenchmark.cosVector").find());
    assertTrue(a.filter().matcher("io.hdfl.bench.AxpyBenchmark.axpyScalar").find());
    assertFalse(a.filter().matcher("io.hdfl.bench.ProjectionBenchmark.projectScalar").find());
    assertThrows(IllegalArgumentException.class, () -> KernelBenchmarks.parse("--bogus"));
    assertThrows(IllegalArgumentException.class, () -> KernelBenchmarks.parse("-f"));
  }

  @Test
  void quickPlanUsesTheSmallShapeAndScalarSkipsTheSlowShape() {
    List<RunPlan> quick = RunPlan.plans(true, false, Pattern.compile("project"));
    assertEquals(1, quick.size());
    assertEquals(Map.of("shape", List.of(ProjectionBenchmark.QUICK_SHAPE)), quick.get(0).params());

    List<RunPlan> full = RunPlan.plans(false, false, Pattern.compile("projectScalar"));
    assertEquals(1, full.size());
    assertFalse(full.get(0).params().get("shape").contains(ProjectionBenchmark.SLOW_SCALAR_SHAPE));
    assertNull(RunPlan.plans(false, true, Pattern.compile("projectScalar")).get(0).params().get("shape"));
    assertTrue(RunPlan.all().size() >= 10);
  }

  @Test
  void optionsAlwaysAddTheVectorModuleAndLetTheUserOverrideDefaults() throws Exception {
    RunPlan plan = RunPlan.plans(true, false, Pattern.compile("projectVector")).get(0);
    Options user = new CommandLineOptions("-f", "3", "-jvmArgsAppend", "-Xmx2g", "-p", "shape=7352x561x2000");
    Options o = KernelBenchmarks.options(plan, true, user);
    assertEquals(3, o.getForkCount().get());
    assertEquals(List.of("-Xmx2g", "--add-modules", "jdk.incubator.vector"), List.copyOf(o.getJvmArgsAppend().get()));
    assertEquals(List.of("7352x561x2000"), List.copyOf(o.getParameter("shape").get()));
    assertTrue(o.shouldFailOnError().get());
  }

  @Test
  void convertsScoresAndPairsVectorWithScalar() {
    assertEquals(2e-3, KernelResult.secondsPerOp(2, "ms/op"), 1e-15);
    assertEquals(5e-7, KernelResult.secondsPerOp(2, "ops/us"), 1e-18);
    assertEquals(2.0 * 512 * 784 * 2000, WorkPerOp.of("ProjectionBenchmark", Map.of("shape", "512x784x2000")).amount());
    assertEquals(2.0 * 1000 * 26 * 10000,
        WorkPerOp.of("SimilarityBenchmark", Map.of("queries", "1000", "classes", "26", "dim", "10000")).amount());
    assertEquals(2.0 * 1000 * 10 * 2000,
        WorkPerOp.of("CodeSimilarityBenchmark", Map.of("queries", "1000", "classes", "10", "dim", "2000")).amount());
    assertEquals(2.0 * 600 * 10 * 2000, WorkPerOp.of("PassScoringBenchmark",
        Map.of("peers", "100", "order", "shuffled", "classes", "10", "dim", "2000")).amount());
    WorkPerOp noise = WorkPerOp.of("NoiseBenchmark", Map.of("values", "20000"));
    assertEquals(20000, noise.amount());
    assertEquals("Gelem/s", noise.rateUnit());

    KernelResult s = result("cosScalar", "scalar", Map.of("cosVariant", "default", "len", "8"), 4e-3);
    KernelResult v = result("cosVector", "vector", Map.of("cosVariant", "intrinsic", "len", "8"), 1e-3);
    List<KernelResult> paired = KernelResult.withSpeedups(List.of(s, v));
    assertNull(paired.get(0).speedup());
    assertEquals(4.0, paired.get(1).speedup(), 1e-12);
  }

  private static KernelResult result(String method, String impl, Map<String, String> params, double seconds) {
    return new KernelResult("CosBenchmark", method, "cos", impl, params, "avgt", seconds * 1e3, 0, "ms/op", seconds,
        WorkPerOp.of("CosBenchmark", params), null);
  }
}
