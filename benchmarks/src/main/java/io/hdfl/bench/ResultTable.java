package io.hdfl.bench;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/** The human-readable summary: time per op, rate and vector/scalar speedup per benchmark. */
final class ResultTable {
  private ResultTable() {}

  /** Results in table order: by class, op and parameters, scalar before vector. */
  static List<KernelResult> sorted(List<KernelResult> results) {
    List<KernelResult> l = new ArrayList<>(results);
    l.sort(Comparator.comparing(KernelResult::benchmarkClass)
        .thenComparing(KernelResult::op)
        .thenComparing(ResultTable::paramOrderKey)
        .thenComparing(KernelResult::impl)
        .thenComparing(KernelResult::paramText));
    return l;
  }

  private static final Pattern DIGITS = Pattern.compile("\\d+");

  /** Parameter values in order, digit runs zero-padded so that 2000 sorts before 10000. */
  private static String paramOrderKey(KernelResult r) {
    StringBuilder sb = new StringBuilder();
    r.params().forEach((k, v) -> {
      if (!KernelResult.VARIANT_PARAMS.contains(k)) {
        String padded = DIGITS.matcher(v).replaceAll(m -> "0".repeat(Math.max(0, 12 - m.group().length())) + m.group());
        sb.append(k).append('=').append(padded).append(' ');
      }
    });
    return sb.toString();
  }

  static String render(List<KernelResult> results) {
    List<String[]> rows = new ArrayList<>();
    rows.add(new String[] {"Benchmark", "Params", "Time/op", "Rate", "Vector/scalar"});
    for (KernelResult r : sorted(results)) {
      int dp = decimals(r.score());
      String err = Double.isNaN(r.scoreError()) ? "" : " ± " + fixed(r.scoreError(), dp);
      String rate = r.work() == null ? ""
          : fixed(r.rate(), Math.max(2, decimals(r.rate()) - 1)) + " " + r.work().rateUnit();
      String speedup = r.speedup() == null ? "" : String.format(Locale.ROOT, "%.2fx", r.speedup());
      rows.add(new String[] {r.benchmarkClass() + "." + r.method(), r.paramText(),
          fixed(r.score(), dp) + err + " " + r.scoreUnit(), rate, speedup});
    }
    int[] w = new int[5];
    for (String[] row : rows) {
      for (int c = 0; c < w.length; c++) {
        w[c] = Math.max(w[c], row[c].length());
      }
    }
    StringBuilder sb = new StringBuilder();
    for (String[] row : rows) {
      sb.append(String.format(Locale.ROOT, "%-" + w[0] + "s  %-" + w[1] + "s  %" + w[2] + "s  %" + w[3]
          + "s  %" + w[4] + "s", (Object[]) row).stripTrailing()).append('\n');
    }
    String cos = cosVerdict(results);
    if (!cos.isEmpty()) {
      sb.append('\n').append(cos).append('\n');
    }
    return sb.toString();
  }

  /** Which Panama cos variant was faster, when both were measured; else empty. */
  static String cosVerdict(List<KernelResult> results) {
    KernelResult poly = null;
    KernelResult intrinsic = null;
    for (KernelResult r : results) {
      if (r.benchmarkClass().equals("CosBenchmark") && r.impl().equals("vector")) {
        String v = r.params().get("cosVariant");
        if ("polynomial".equals(v)) {
          poly = r;
        } else if ("intrinsic".equals(v)) {
          intrinsic = r;
        }
      }
    }
    if (poly == null || intrinsic == null) {
      return "";
    }
    boolean polyWins = poly.secondsPerOp() <= intrinsic.secondsPerOp();
    KernelResult fast = polyWins ? poly : intrinsic;
    KernelResult slow = polyWins ? intrinsic : poly;
    return String.format(Locale.ROOT, "Panama cos: %s is faster (%.2f vs %.2f Gelem/s, %.2fx)",
        polyWins ? "polynomial" : "intrinsic (VectorOperators.COS)", fast.rate(), slow.rate(),
        slow.secondsPerOp() / fast.secondsPerOp());
  }

  /** Decimals that show at least four significant digits of {@code v} (at most 6). */
  static int decimals(double v) {
    double a = Math.abs(v);
    if (!(a > 0) || Double.isInfinite(a)) {
      return 0;
    }
    return Math.max(0, Math.min(6, 3 - (int) Math.floor(Math.log10(a))));
  }

  static String fixed(double v, int decimals) {
    return Double.isNaN(v) ? "NaN" : String.format(Locale.ROOT, "%." + decimals + "f", v);
  }
}
