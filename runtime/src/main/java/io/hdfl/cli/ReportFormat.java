package io.hdfl.cli;

import io.hdfl.hd.Evaluation;
import io.hdfl.local.EvaluationReport;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Human and JSON renderings of evaluation results shared by {@code train} and {@code eval}. */
final class ReportFormat {
  private ReportFormat() {}

  static void printEvaluation(PrintWriter out, EvaluationReport r, List<String> classNames, boolean perClass) {
    Evaluation e = r.evaluation();
    out.printf("  accuracy   %.2f %%   macro-F1 %.4f   mean top-2 margin %.4f   (%d test samples)%n",
        100 * e.accuracy(), e.macroF1(), e.meanMargin(), r.samples());
    out.printf("  inference  %.1f µs/sample (encode + classify)%n", r.inferMicros());
    if (perClass) {
      out.println("  per-class recall:");
      double[] recall = e.recall();
      StringBuilder line = new StringBuilder("   ");
      for (int c = 0; c < recall.length; c++) {
        String cell = String.format(" %s=%s", classNames.get(c),
            Double.isNaN(recall[c]) ? "-" : String.format("%.2f", recall[c]));
        if (line.length() + cell.length() > 100) {
          out.println(line);
          line = new StringBuilder("   ");
        }
        line.append(cell);
      }
      out.println(line);
    }
  }

  static Map<String, Object> evaluationJson(EvaluationReport r) {
    Evaluation e = r.evaluation();
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("accuracy", JsonOutput.number(e.accuracy()));
    m.put("macro_f1", JsonOutput.number(e.macroF1()));
    m.put("mean_margin", JsonOutput.number(e.meanMargin()));
    m.put("test_samples", r.samples());
    m.put("infer_us", r.inferMicros());
    List<Double> recall = new java.util.ArrayList<>();
    for (double v : e.recall()) {
      recall.add(JsonOutput.number(v));
    }
    m.put("recall", recall);
    m.put("confusion", e.confusion());
    return m;
  }
}
