package io.hdfl.bench;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The machine-readable results file: environment plus one object per measured benchmark. */
final class ResultsJson {
  private ResultsJson() {}

  /**
   * @param environment flat string facts about the run (JDK, CPU count, kernel descriptions, ...)
   */
  static String render(Map<String, String> environment, List<KernelResult> results) {
    StringBuilder sb = new StringBuilder("{\n  \"environment\": {");
    String sep = "\n";
    for (Map.Entry<String, String> e : environment.entrySet()) {
      sb.append(sep).append("    ").append(str(e.getKey())).append(": ").append(str(e.getValue()));
      sep = ",\n";
    }
    sb.append("\n  },\n  \"results\": [");
    sep = "\n";
    for (KernelResult r : ResultTable.sorted(results)) {
      sb.append(sep).append("    {");
      sb.append("\"benchmark\": ").append(str(r.benchmarkClass() + "." + r.method()));
      sb.append(", \"op\": ").append(str(r.op()));
      sb.append(", \"impl\": ").append(str(r.impl()));
      sb.append(", \"params\": {");
      String ps = "";
      for (Map.Entry<String, String> p : r.params().entrySet()) {
        sb.append(ps).append(str(p.getKey())).append(": ").append(str(p.getValue()));
        ps = ", ";
      }
      sb.append("}");
      sb.append(", \"mode\": ").append(str(r.mode()));
      sb.append(", \"score\": ").append(num(r.score()));
      sb.append(", \"scoreError\": ").append(num(r.scoreError()));
      sb.append(", \"scoreUnit\": ").append(str(r.scoreUnit()));
      sb.append(", \"secondsPerOp\": ").append(num(r.secondsPerOp()));
      if (r.work() != null) {
        sb.append(", \"workPerOp\": ").append(num(r.work().amount()));
        sb.append(", \"workUnit\": ").append(str(r.work().unit()));
        sb.append(", \"rate\": ").append(num(r.rate()));
        sb.append(", \"rateUnit\": ").append(str(r.work().rateUnit()));
      }
      sb.append(", \"speedupVsScalar\": ").append(r.speedup() == null ? "null" : num(r.speedup()));
      sb.append("}");
      sep = ",\n";
    }
    sb.append("\n  ]\n}\n");
    return sb.toString();
  }

  private static String num(double v) {
    return Double.isFinite(v) ? String.format(Locale.ROOT, "%.6g", v) : "null";
  }

  static String str(String s) {
    StringBuilder sb = new StringBuilder("\"");
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"': sb.append("\\\""); break;
        case '\\': sb.append("\\\\"); break;
        case '\n': sb.append("\\n"); break;
        case '\r': sb.append("\\r"); break;
        case '\t': sb.append("\\t"); break;
        default:
          if (c < 0x20) {
            sb.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
          } else {
            sb.append(c);
          }
      }
    }
    return sb.append('"').toString();
  }
}
