package io.hdfl.bench;

import java.util.Map;

/**
 * The useful work one benchmark op does, to turn time per op into a rate: FLOP for the GEMM,
 * similarity, pass-scoring and axpy kernels ({@code 2·n·f·D}, {@code 2·nq·S·D}, {@code 2·D}), elements for cos and
 * for noise (values of a model update).
 *
 * @param amount work per op, in {@code unit}s
 * @param unit {@code "FLOP"} or {@code "elem"}
 */
record WorkPerOp(double amount, String unit) {
  static final String FLOP = "FLOP";
  static final String ELEMENTS = "elem";

  /**
   * The work of an op of the given benchmark class (simple name) with the given parameters, or null
   * when the class is not one of ours.
   */
  static WorkPerOp of(String benchmarkClass, Map<String, String> params) {
    switch (benchmarkClass) {
      case "ProjectionBenchmark":
      case "EncodeBenchmark":
        return new WorkPerOp(Shape.parse(params.get("shape")).gemmFlops(), FLOP);
      case "SimilarityBenchmark":
      case "CodeSimilarityBenchmark":
        return new WorkPerOp(2.0 * num(params, "queries") * num(params, "classes") * num(params, "dim"), FLOP);
      case "PassScoringBenchmark":
        return new WorkPerOp(2.0 * PassScoringBenchmark.SAMPLES * num(params, "classes") * num(params, "dim"), FLOP);
      case "AxpyBenchmark":
        return new WorkPerOp(2.0 * num(params, "dim"), FLOP);
      case "CosBenchmark":
        return new WorkPerOp(num(params, "len"), ELEMENTS);
      case "NoiseBenchmark":
        return new WorkPerOp(num(params, "values"), ELEMENTS);
      default:
        return null;
    }
  }

  private static double num(Map<String, String> params, String key) {
    String v = params.get(key);
    if (v == null) {
      throw new IllegalArgumentException("missing benchmark parameter " + key);
    }
    return Double.parseDouble(v);
  }

  /** Rate in giga-units per second ({@code GFLOP/s} or {@code Gelem/s}) at the given time per op. */
  double gigaPerSecond(double secondsPerOp) {
    return amount / secondsPerOp / 1e9;
  }

  /** {@code "GFLOP/s"} or {@code "Gelem/s"}. */
  String rateUnit() {
    return "G" + unit + "/s";
  }
}
