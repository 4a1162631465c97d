package io.hdfl.sensors.signal;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Strict number parsing for CSV signal files: plain decimals only (no hex, no {@code f}/{@code d}
 * suffixes, bounded length and exponent, so parsing a hostile token costs little).
 */
final class CsvNumbers {

  private static final Pattern DECIMAL = Pattern.compile("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d{1,3})?");
  private static final Pattern LABEL = Pattern.compile("\\d{1,9}");
  private static final int MAX_TOKEN = 64;

  private CsvNumbers() {}

  /**
   * A channel value: a decimal, or {@code NaN}/empty (a missing reading), or {@code inf}/{@code -inf}.
   *
   * @throws IllegalArgumentException if it is none of these or overflows float32
   */
  static float value(String s) {
    if (s.isEmpty()) {
      return Float.NaN;
    }
    switch (s.toLowerCase(Locale.ROOT)) {
      case "nan":
        return Float.NaN;
      case "inf", "+inf", "infinity", "+infinity":
        return Float.POSITIVE_INFINITY;
      case "-inf", "-infinity":
        return Float.NEGATIVE_INFINITY;
      default:
        break;
    }
    checkDecimal(s, "value");
    float v = Float.parseFloat(s);
    if (Float.isInfinite(v)) {
      throw new IllegalArgumentException("value '" + s + "' overflows float32");
    }
    return v;
  }

  /** A timestamp in nanoseconds from a decimal in units of {@code nanosPerUnit} ns, rounded half-even. */
  static long timestamp(String s, long nanosPerUnit) {
    if (s.isEmpty()) {
      throw new IllegalArgumentException("empty timestamp");
    }
    checkDecimal(s, "timestamp");
    BigDecimal d = new BigDecimal(s).multiply(BigDecimal.valueOf(nanosPerUnit));
    if (d.precision() - d.scale() > 19) {
      throw new IllegalArgumentException("timestamp '" + s + "' is out of range");
    }
    try {
      return d.setScale(0, RoundingMode.HALF_EVEN).longValueExact();
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException("timestamp '" + s + "' is out of range");
    }
  }

  /** A label: empty for none, else an integer ≥ 0. */
  static int label(String s) {
    if (s.isEmpty()) {
      return Sample.NO_LABEL;
    }
    if (!LABEL.matcher(s).matches()) {
      throw new IllegalArgumentException("label '" + s + "' is not an integer ≥ 0 (or empty for none)");
    }
    return Integer.parseInt(s);
  }

  private static void checkDecimal(String s, String what) {
    if (s.length() > MAX_TOKEN || !DECIMAL.matcher(s).matches()) {
      throw new IllegalArgumentException(what + " '" + (s.length() > 40 ? s.substring(0, 40) + "..." : s)
          + "' is not a decimal number");
    }
  }
}
