package io.hdfl.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.openjdk.jmh.annotations.Param;

/**
 * One JMH run: fully qualified benchmark methods plus parameter overrides (a parameter not listed
 * keeps its {@link Param} values). The harness needs several runs because JMH parameters apply to
 * every benchmark of a run, while the scalar kernels skip the largest shapes and the cos variants.
 *
 * @param benchmarks e.g. {@code io.hdfl.bench.ProjectionBenchmark.projectScalar}
 * @param params parameter name → values to run
 */
record RunPlan(List<String> benchmarks, Map<String, List<String>> params) {

  RunPlan {
    benchmarks = List.copyOf(benchmarks);
    params = Map.copyOf(params);
  }

  /**
   * The runs of a harness invocation, restricted to benchmarks whose name {@code filter} finds.
   *
   * @param quick small shapes only ({@code --quick})
   * @param slowScalar also run the scalar kernels at the shapes where one op takes about a minute
   */
  static List<RunPlan> plans(boolean quick, boolean slowScalar, Pattern filter) {
    List<RunPlan> plans = new ArrayList<>();
    if (quick) {
      Map<String, List<String>> small = Map.of("shape", List.of(ProjectionBenchmark.QUICK_SHAPE));
      plans.add(new RunPlan(List.of(
          name(ProjectionBenchmark.class, "projectScalar"), name(ProjectionBenchmark.class, "projectVector"),
          name(EncodeBenchmark.class, "encodeScalar"), name(EncodeBenchmark.class, "encodeVector")), small));
    } else {
      plans.add(scalarRun(ProjectionBenchmark.class, "projectScalar", ProjectionBenchmark.SLOW_SCALAR_SHAPE,
          slowScalar));
      plans.add(scalarRun(EncodeBenchmark.class, "encodeScalar", EncodeBenchmark.SLOW_SCALAR_SHAPE, slowScalar));
      plans.add(new RunPlan(List.of(
          name(ProjectionBenchmark.class, "projectVector"), name(EncodeBenchmark.class, "encodeVector")), Map.of()));
    }
    plans.add(new RunPlan(List.of(name(CosBenchmark.class, "cosScalar")),
        Map.of("cosVariant", List.of(CosBenchmark.DEFAULT_VARIANT))));
    plans.add(new RunPlan(List.of(
        name(CosBenchmark.class, "cosVector"),
        name(SimilarityBenchmark.class, "similarityScalar"), name(SimilarityBenchmark.class, "similarityVector"),
        name(CodeSimilarityBenchmark.class, "codeSimilarityScalar"),
        name(CodeSimilarityBenchmark.class, "codeSimilarityVector"),
        name(PassScoringBenchmark.class, "passScoringScalar"), name(PassScoringBenchmark.class, "passScoringVector"),
        name(AxpyBenchmark.class, "axpyScalar"), name(AxpyBenchmark.class, "axpyVector"),
        name(NoiseBenchmark.class, "atTurnScalar"), name(NoiseBenchmark.class, "atTurnVector"),
        name(NoiseBenchmark.class, "drawAheadScalar"), name(NoiseBenchmark.class, "drawAheadVector"),
        name(NoiseBenchmark.class, "addDrawnAheadScalar"), name(NoiseBenchmark.class, "addDrawnAheadVector")),
        Map.of()));

    List<RunPlan> filtered = new ArrayList<>();
    for (RunPlan p : plans) {
      List<String> keep = p.benchmarks.stream().filter(b -> filter.matcher(b).find()).toList();
      if (!keep.isEmpty()) {
        filtered.add(new RunPlan(keep, p.params));
      }
    }
    return filtered;
  }

  /** Every benchmark the harness knows, for {@code --list}. */
  static List<String> all() {
    List<String> names = new ArrayList<>();
    for (RunPlan p : plans(false, true, Pattern.compile(""))) {
      names.addAll(p.benchmarks);
    }
    return names;
  }

  private static RunPlan scalarRun(Class<?> cls, String method, String slowShape, boolean slowScalar) {
    Map<String, List<String>> params = new LinkedHashMap<>();
    if (!slowScalar) {
      List<String> shapes = new ArrayList<>(paramValues(cls, "shape"));
      shapes.remove(slowShape);
      params.put("shape", shapes);
    }
    return new RunPlan(List.of(name(cls, method)), params);
  }

  /** The fully qualified name of a benchmark method, checked to exist. */
  static String name(Class<?> cls, String method) {
    try {
      cls.getMethod(method);
    } catch (NoSuchMethodException e) {
      throw new IllegalStateException("no benchmark method " + cls.getName() + "." + method, e);
    }
    return cls.getName() + "." + method;
  }

  /** The values of a {@link Param} field, as declared. */
  static List<String> paramValues(Class<?> cls, String field) {
    try {
      return Arrays.asList(cls.getField(field).getAnnotation(Param.class).value());
    } catch (NoSuchFieldException e) {
      throw new IllegalStateException("no @Param field " + cls.getName() + "." + field, e);
    }
  }
}
