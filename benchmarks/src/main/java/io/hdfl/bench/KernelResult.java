package io.hdfl.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;

/**
 * One measured benchmark: which op, which implementation, its parameters, the JMH score, and the
 * derived time per op, rate and (for a vector result with a scalar twin) speedup.
 *
 * @param benchmarkClass simple class name, e.g. {@code ProjectionBenchmark}
 * @param method benchmark method, e.g. {@code projectVector}
 * @param op method without its {@code Scalar}/{@code Vector} suffix
 * @param impl {@code scalar}, {@code vector}, or {@code other}
 * @param params JMH parameters, sorted by name
 * @param mode JMH mode label, e.g. {@code avgt}
 * @param score JMH primary score
 * @param scoreError JMH 99.9% half-width (NaN when there are too few samples)
 * @param scoreUnit JMH unit, e.g. {@code ms/op}
 * @param secondsPerOp the score as seconds per op
 * @param work work per op, or null
 * @param speedup scalar time / vector time for vector results with a scalar twin, else null
 */
record KernelResult(String benchmarkClass, String method, String op, String impl, Map<String, String> params,
    String mode, double score, double scoreError, String scoreUnit, double secondsPerOp, WorkPerOp work,
    Double speedup) {

  /**
   * Parameters that only select a vector variant: a vector result is paired with the scalar result
   * that matches it on every other parameter.
   */
  static final List<String> VARIANT_PARAMS = List.of("cosVariant");

  static KernelResult of(RunResult run) {
    BenchmarkParams bp = run.getParams();
    String full = bp.getBenchmark();
    int dot = full.lastIndexOf('.');
    String cls = full.substring(full.lastIndexOf('.', dot - 1) + 1, dot);
    String method = full.substring(dot + 1);
    String impl = method.endsWith("Scalar") ? "scalar" : method.endsWith("Vector") ? "vector" : "other";
    String op = impl.equals("other") ? method : method.substring(0, method.length() - 6);
    Map<String, String> params = new TreeMap<>();
    for (String key : bp.getParamsKeys()) {
      params.put(key, bp.getParam(key));
    }
    Result<?> r = run.getPrimaryResult();
    double seconds = secondsPerOp(r.getScore(), r.getScoreUnit());
    return new KernelResult(cls, method, op, impl, params, bp.getMode().shortLabel(), r.getScore(),
        r.getScoreError(), r.getScoreUnit(), seconds, WorkPerOp.of(cls, params), null);
  }

  /** Converts a JMH score ({@code x/op} time or {@code ops/x} throughput) to seconds per op. */
  static double secondsPerOp(double score, String unit) {
    String[] parts = unit.split("/");
    if (parts.length != 2) {
      return Double.NaN;
    }
    if (parts[1].equals("op")) {
      return score * seconds(parts[0]);
    }
    if (parts[0].equals("ops")) {
      return seconds(parts[1]) / score;
    }
    return Double.NaN;
  }

  private static double seconds(String unit) {
    switch (unit) {
      case "ns": return 1e-9;
      case "us": return 1e-6;
      case "ms": return 1e-3;
      case "s": return 1.0;
      case "min": return 60.0;
      case "hr": return 3600.0;
      case "day": return 86400.0;
      default: return Double.NaN;
    }
  }

  /** Rate in giga-units per second, or NaN without a work model. */
  double rate() {
    return work == null ? Double.NaN : work.gigaPerSecond(secondsPerOp);
  }

  /** {@code "k=v k=v"} over the parameters. */
  String paramText() {
    StringBuilder sb = new StringBuilder();
    params.forEach((k, v) -> sb.append(sb.length() == 0 ? "" : " ").append(k).append('=').append(v));
    return sb.toString();
  }

  private Map<String, String> paramsWithoutVariants() {
    Map<String, String> m = new TreeMap<>(params);
    VARIANT_PARAMS.forEach(m::remove);
    return m;
  }

  KernelResult withSpeedup(Double s) {
    return new KernelResult(benchmarkClass, method, op, impl, params, mode, score, scoreError, scoreUnit,
        secondsPerOp, work, s);
  }

  /**
   * Fills in the speedup of every vector result that has a scalar twin (same class, op and
   * parameters, variant parameters aside; an exact parameter match is preferred).
   */
  static List<KernelResult> withSpeedups(List<KernelResult> results) {
    List<KernelResult> out = new ArrayList<>(results.size());
    for (KernelResult v : results) {
      if (!v.impl.equals("vector")) {
        out.add(v);
        continue;
      }
      KernelResult twin = null;
      for (KernelResult s : results) {
        if (!s.impl.equals("scalar") || !s.benchmarkClass.equals(v.benchmarkClass) || !s.op.equals(v.op)) {
          continue;
        }
        if (s.params.equals(v.params)) {
          twin = s;
          break;
        }
        if (twin == null && s.paramsWithoutVariants().equals(v.paramsWithoutVariants())) {
          twin = s;
        }
      }
      out.add(twin == null ? v : v.withSpeedup(twin.secondsPerOp / v.secondsPerOp));
    }
    return out;
  }

  KernelResult {
    Objects.requireNonNull(benchmarkClass, "benchmarkClass");
    params = Collections.unmodifiableMap(new TreeMap<>(params));
  }
}
