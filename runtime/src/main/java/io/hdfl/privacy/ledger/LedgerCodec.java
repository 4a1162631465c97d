package io.hdfl.privacy.ledger;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.io.NumberOutput;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hdfl.privacy.ledger.LedgerEntry.Kind;
import io.hdfl.privacy.ledger.LedgerEntry.Schedule;
import io.hdfl.privacy.ledger.LedgerEntry.Source;
import io.hdfl.privacy.ledger.LedgerEntry.Topology;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The ledger's line format: pure text ↔ {@link LedgerEntry}.
 *
 * <p>A line is {@code <body>,"sig":"<base64>"}} where {@code <body>} is a JSON object's text without
 * its closing brace, holding every field but {@code sig} in the fixed order of {@link #FIELDS}. The
 * signer writes the body once; the signature covers the ASCII bytes of {@code body + "}"} (the entry
 * without {@code sig}, itself a JSON object) and the next entry's {@code prev_hash} is the SHA-256 of
 * the whole line without its newline. Readers never re-serialize: they split the stored line
 * textually ({@link #split}) and check the signature over the exact bytes, then parse it
 * ({@link #parse}) only for the values.
 *
 * <p>Lines are pure ASCII: strings escape {@code "}, {@code \} and every character outside
 * {@code 0x20..0x7e} as JSON escapes. Doubles are written as the shortest decimal that parses back to
 * the same double ({@link #decimal}), computed with {@link BigDecimal} so that the text is the same on
 * every JDK (unlike {@link Double#toString}, whose output changed in JDK 19). NaN and infinities are
 * rejected.
 */
public final class LedgerCodec {
  /**
   * The JSON field names in the order every line holds them; {@code sig} is last. {@link #LATE} may
   * follow {@code contributors} in a star aggregate's line (written only when it names something), and
   * {@link #BUNDLED} {@code samples_total} in a ring update's line after round 1.
   */
  public static final List<String> FIELDS = List.of(
      "v", "federation", "peer", "kind", "topology", "round", "step", "samples_new", "samples_total",
      "sensitivity_scale", "variance_required", "variance_present_before", "variance_added",
      "variance_present_after", "epsilon", "delta0", "dim", "schedule", "noise_source", "not_for_deployment",
      "contributors", "reason", "prev_hash", "timestamp", "sig");

  /** The optional field of a star aggregate naming the late updates recorded since the last aggregate ({@link LedgerEntry#late()}). */
  public static final String LATE = "late";

  /**
   * The optional field of a ring update after round 1 that bundled samples ({@link
   * LedgerEntry#samplesBundled()}), after {@code samples_total}; written only when not zero.
   */
  public static final String BUNDLED = "samples_bundled";

  /** Ed25519 signatures are 64 bytes: 88 base64 characters ending in "==". */
  private static final Pattern SIG_TAIL = Pattern.compile(",\"sig\":\"([A-Za-z0-9+/]{86}==)\"}$");
  private static final ObjectMapper STRICT = strictMapper();
  private static final HexFormat HEX = HexFormat.of();

  /**
   * One SHA-256 digest per thread: a ring peer hashes two or three lines per hop, and looking the
   * algorithm up in the providers each time (a reflective construction) cost more than hashing.
   */
  private static final ThreadLocal<MessageDigest> SHA256 = ThreadLocal.withInitial(() -> {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every JDK", e);
    }
  });

  private LedgerCodec() {}

  /** A line split at its signature. */
  public record Split(String body, String signature) {
    /** The bytes the signature covers: {@code body + "}"}. */
    public byte[] signedBytes() {
      return LedgerCodec.signedBytes(body);
    }
  }

  // ---- writing ------------------------------------------------------------------------------

  /**
   * The canonical body of {@code e} (every field but {@code sig}, no closing brace). Validates what
   * the text depends on: ids, finite numbers, hash and timestamp shapes.
   *
   * @throws IllegalArgumentException if a value cannot be written
   */
  public static String body(LedgerEntry e) {
    if (!LedgerEntry.isValidId(e.federation())) {
      throw new IllegalArgumentException("federation id must match " + LedgerEntry.ID + ", got " + e.federation());
    }
    if (!LedgerEntry.isValidId(e.peer())) {
      throw new IllegalArgumentException("peer id must match " + LedgerEntry.ID + ", got " + e.peer());
    }
    if (!LedgerEntry.isHash(e.prevHash())) {
      throw new IllegalArgumentException("prev_hash must be 64 lower-case hex digits, got " + e.prevHash());
    }
    if (!LedgerTimestamp.isValid(e.timestamp())) {
      throw new IllegalArgumentException("timestamp must be ISO-8601 UTC (…Z), got " + e.timestamp());
    }
    if (e.reason().length() > LedgerEntry.MAX_REASON) {
      throw new IllegalArgumentException("reason longer than " + LedgerEntry.MAX_REASON + " characters");
    }
    if (e.contributors().size() + e.late().size() > LedgerEntry.MAX_CONTRIBUTORS) {
      throw new IllegalArgumentException("more than " + LedgerEntry.MAX_CONTRIBUTORS + " contributors and late updates");
    }
    String bundled = bundledProblem(e.kind(), e.topology(), e.round(), e.samplesNew(), e.samplesBundled());
    if (bundled != null) {
      throw new IllegalArgumentException(bundled);
    }
    StringBuilder b = new StringBuilder(640 + 67 * (e.contributors().size() + e.late().size()));
    b.append("{\"v\":").append(e.version());
    string(b, "federation", e.federation());
    string(b, "peer", e.peer());
    string(b, "kind", e.kind().wire());
    string(b, "topology", e.topology().wire());
    b.append(",\"round\":").append(e.round());
    b.append(",\"step\":").append(e.step());
    b.append(",\"samples_new\":").append(e.samplesNew());
    b.append(",\"samples_total\":").append(e.samplesTotal());
    if (e.samplesBundled() != 0) {
      b.append(",\"" + BUNDLED + "\":").append(e.samplesBundled());
    }
    number(b, "sensitivity_scale", e.sensitivityScale());
    number(b, "variance_required", e.requiredVariance());
    number(b, "variance_present_before", e.presentBefore());
    number(b, "variance_added", e.addedVariance());
    number(b, "variance_present_after", e.presentAfter());
    number(b, "epsilon", e.epsilon());
    number(b, "delta0", e.delta0());
    b.append(",\"dim\":").append(e.dim());
    string(b, "schedule", e.schedule().wire());
    string(b, "noise_source", e.source().wire());
    b.append(",\"not_for_deployment\":").append(e.notForDeployment());
    hashes(b, "contributors", e.contributors());
    if (!e.late().isEmpty()) {
      hashes(b, LATE, e.late());
    }
    string(b, "reason", e.reason());
    string(b, "prev_hash", e.prevHash());
    string(b, "timestamp", e.timestamp());
    return b.toString();
  }

  private static void hashes(StringBuilder b, String field, List<String> hashes) {
    b.append(",\"").append(field).append("\":[");
    for (int i = 0; i < hashes.size(); i++) {
      String h = hashes.get(i);
      if (!LedgerEntry.isHash(h)) {
        throw new IllegalArgumentException(field + " must hold entry hashes (64 lower-case hex digits), got " + h);
      }
      b.append(i == 0 ? "\"" : ",\"").append(h).append('"');
    }
    b.append(']');
  }

  /** The stored line (without newline) for a body and its base64 signature. */
  public static String line(String body, String signature) {
    return body + ",\"sig\":\"" + signature + "\"}";
  }

  /** The bytes a signature covers: the entry without {@code sig}, as a JSON object. */
  public static byte[] signedBytes(String body) {
    return (body + "}").getBytes(StandardCharsets.US_ASCII);
  }

  private static final String PREV_HASH_KEY = ",\"prev_hash\":\"";
  /** Characters from the prev_hash key to the end of a canonical line: key, hash, timestamp, signature. */
  private static final int CANONICAL_PREV_HASH_FROM_END = PREV_HASH_KEY.length() + 64
      + "\",\"timestamp\":\"".length() + LedgerTimestamp.LENGTH + "\",\"sig\":\"".length() + 88
      + "\"}".length();

  /**
   * The {@code prev_hash} of a canonical line, read textually without parsing the line (a peer reads
   * it for every line that travels with a model). Strings escape {@code "}, so the field's
   * unescaped name occurs once, followed by the timestamp as {@link #FIELDS} orders them.
   *
   * @throws LedgerFormatException if the line does not hold a well-formed prev_hash where the format puts it
   */
  public static String prevHashOf(String line) {
    int start = prevHashAt(line);
    return line.substring(start, start + 64);
  }

  /**
   * Where the 64 hex digits of a canonical line's {@code prev_hash} start, checked as {@link #prevHashOf}
   * checks them, for a reader that needs no copy of them.
   *
   * @throws LedgerFormatException if the line does not hold a well-formed prev_hash where the format puts it
   */
  public static int prevHashAt(String line) {
    String key = PREV_HASH_KEY;
    // Where a line written by this codec has it (a 24-character timestamp, an 88-character signature),
    // checked to be the last occurrence as lastIndexOf would find it; else searched for. (Latin-1
    // lastIndexOf is a character-by-character loop: a ring peer reads K lines' prev_hash per hop.)
    int guess = line.length() - CANONICAL_PREV_HASH_FROM_END;
    int at = guess >= 0 && line.startsWith(key, guess) && line.indexOf(key, guess + 1) < 0 ? guess
        : line.lastIndexOf(key);
    int start = at + key.length();
    int end = start + 64;
    if (at < 0 || !line.startsWith("\",\"timestamp\":\"", end)) {
      throw new LedgerFormatException("no prev_hash before the timestamp");
    }
    for (int i = start; i < end; i++) {
      char c = line.charAt(i);
      if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) {
        throw new LedgerFormatException("prev_hash must be 64 lower-case hex digits");
      }
    }
    return start;
  }

  /**
   * Whether {@code line}, as this codec writes it, is {@code peer}'s update of {@code round} and
   * {@code step} under {@code settings}, recording {@code samplesTotal} samples absorbed and
   * {@code presentAfter} as the variance present after it; read from the text without parsing the line
   * (a ring peer checks its sender's entry for every model it receives, and a cold JSON parse costs it
   * some 0.1 ms). The line must start with the canonical head up to {@code samples_new}; from there to
   * {@code schedule} a canonical line holds only numbers, and a JSON string cannot hold an unescaped
   * {@code ,"}, so the first {@code samples_total} and {@code variance_present_after} keys found are
   * the line's own, and must be followed by the expected values and settings. False for anything else,
   * a valid line not in canonical form included (parse it to tell). It reads these fields and nothing
   * else: where it says true and {@link #parse} reads the line, the parser reads these very values;
   * but a line the parser refuses (a repeated key, an unknown field or a bad timestamp further on)
   * can pass it, and {@code ledger verify} refuses that line.
   */
  public static boolean recordsUpdate(String line, LedgerSettings settings, String peer, int round, long step,
      long samplesTotal, double presentAfter) {
    // -0.0 is written as 0.0, which reads back as +0.0: a claim of -0.0 is not what the line records
    if (!Double.isFinite(presentAfter) || Double.doubleToRawLongBits(presentAfter) == Long.MIN_VALUE) {
      return false;
    }
    StringBuilder b = new StringBuilder(160);
    b.append("{\"v\":").append(LedgerEntry.FORMAT_VERSION);
    string(b, "federation", settings.federation());
    string(b, "peer", peer);
    string(b, "kind", LedgerEntry.Kind.UPDATE.wire());
    string(b, "topology", settings.topology().wire());
    b.append(",\"round\":").append(round).append(",\"step\":").append(step).append(",\"samples_new\":");
    if (!line.startsWith(b.toString())) {
      return false;
    }
    int from = b.length();
    String total = ",\"samples_total\":" + samplesTotal + ",";
    int at = line.indexOf(",\"samples_total\":", from);
    if (at < 0 || !line.startsWith(total, at)) {
      return false;
    }
    b.setLength(0);
    number(b, "variance_present_after", presentAfter);
    number(b, "epsilon", settings.params().epsilon());
    number(b, "delta0", settings.params().delta0());
    b.append(",\"dim\":").append(settings.params().dim());
    string(b, "schedule", settings.schedule().wire());
    b.append(",\"");
    at = line.indexOf(",\"variance_present_after\":", at + total.length() - 1);
    return at >= 0 && line.startsWith(b.toString(), at);
  }

  /** SHA-256 of the line's bytes (without newline), lower-case hex: the next entry's prev_hash. */
  public static String hash(String line) {
    // digest() leaves the digest reset for the next line
    return HEX.formatHex(SHA256.get().digest(line.getBytes(StandardCharsets.US_ASCII)));
  }

  /**
   * The shortest decimal text that parses back to exactly {@code d}, independent of the JDK: plain
   * for 10⁻³ ≤ |d| < 10⁷ ({@code 0.002}, {@code 4000.0}), otherwise {@code d.dddE±n}
   * ({@code 1.0E23}, {@code 5.0E-324}); zero is {@code 0.0}. Of several shortest texts, the one
   * nearest to d (the rounding of d to that many digits, ties to even).
   *
   * <p>A normal double that is not a power of two takes the digits of Jackson's Schubfach writer
   * (R. Giulietti's algorithm, JDK 19's {@code Double.toString}), which picks exactly that text: its
   * rounding interval is symmetric, so when any decimal of n digits lies in it, the one nearest to d
   * does. That is a few hundred nanoseconds instead of a few microseconds of {@code BigDecimal}
   * roundings and parses (a ledger line has 7 numbers, and every ring hop writes one), and it keeps
   * {@code BigDecimal} and the JDK's decimal conversions out of a federation's JIT work. Powers of two
   * (an asymmetric interval, where Schubfach may pick a shortest text that is not the nearest
   * rounding) and subnormals (where Schubfach prefers two digits to one) take {@link #decimalByRounding},
   * the definition itself; {@code LedgerCodecTest} compares the two.
   */
  public static String decimal(double d) {
    if (!Double.isFinite(d)) {
      throw new IllegalArgumentException("not a finite number: " + d);
    }
    if (d == 0) {
      return "0.0";
    }
    if (powerOfTwo(d) || Math.abs(d) < Double.MIN_NORMAL) {
      return decimalByRounding(d);
    }
    return reformat(NumberOutput.toString(d, true));
  }

  /**
   * {@link #decimal} by its definition: {@code d} rounded to 1, 2, … significant digits (half to
   * even) until the text parses back to d.
   */
  static String decimalByRounding(double d) {
    if (!Double.isFinite(d)) {
      throw new IllegalArgumentException("not a finite number: " + d);
    }
    if (d == 0) {
      return "0.0";
    }
    BigDecimal exact = new BigDecimal(d);
    if (powerOfTwo(d)) {
      // A power of two: the doubles around it are not equally far, so a rounding to more digits can
      // land closer to d yet outside its rounding interval. Try every count in turn.
      for (int digits = 1; digits <= 17; digits++) {
        String text = roundedText(exact, digits);
        if (Double.parseDouble(text) == d) {
          return text;
        }
      }
      throw new AssertionError("17 significant digits always round-trip a double: " + exact);
    }
    // Elsewhere d's rounding interval is symmetric, and rounding to n+1 digits lands at least as close
    // to d as rounding to n digits: the digit counts that round-trip are all counts from the shortest
    // on. The JDK's own Double.toString round-trips and is the shortest, or one digit longer (JDK 17
    // has such cases), so its digit count is tried first: usually two roundings decide, instead of
    // a binary search's 4-5. Only the roundings decide the text.
    int hint = Math.min(17, significantDigits(Double.toString(d)));
    String atHint = roundedText(exact, hint);
    if (Double.parseDouble(atHint) != d) {
      return shortest(exact, d, hint + 1, 17, null); // not expected, but then the answer is longer
    }
    if (hint == 1) {
      return atHint;
    }
    String below = roundedText(exact, hint - 1);
    if (Double.parseDouble(below) != d) {
      return atHint;
    }
    return shortest(exact, d, 1, hint - 1, below);
  }

  /** Whether the normal {@code d} is ± a power of two (no mantissa bits): the doubles around it are not equally far. */
  private static boolean powerOfTwo(double d) {
    return (Double.doubleToRawLongBits(d) & 0x000F_FFFF_FFFF_FFFFL) == 0;
  }

  /**
   * A Java-style decimal text ({@code -1.25E-7}, {@code 4000.0}) in {@link #decimal}'s form: its
   * significant digits and decimal exponent, laid out by {@link #layout}.
   */
  private static String reformat(String text) {
    boolean negative = text.charAt(0) == '-';
    int start = negative ? 1 : 0;
    int e = text.indexOf('E');
    int end = e < 0 ? text.length() : e;
    int exponent = e < 0 ? 0 : Integer.parseInt(text, e + 1, text.length(), 10);
    int point = text.indexOf('.');
    int integerDigits = (point < 0 ? end : point) - start;
    StringBuilder digits = new StringBuilder(20);
    int leadingZeros = 0;
    for (int i = start; i < end; i++) {
      char c = text.charAt(i);
      if (c == '.') {
        continue;
      }
      if (digits.length() == 0 && c == '0') {
        leadingZeros++;
      } else {
        digits.append(c);
      }
    }
    int last = digits.length();
    while (last > 1 && digits.charAt(last - 1) == '0') {
      last--;
    }
    digits.setLength(last);
    // the first significant digit of I.F x 10^exponent stands for 10^(exponent + |I| - 1 - leading zeros)
    return layout(negative, digits.toString(), exponent + integerDigits - 1 - leadingZeros);
  }

  /**
   * The rounding of {@code exact} (= d) to the fewest digits in [lo, hi] that parses back to d, by
   * binary search; {@code atHi} is the text at hi when known to round-trip (null: hi is 17, which
   * always does).
   */
  private static String shortest(BigDecimal exact, double d, int lo, int hi, String atHi) {
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      String text = roundedText(exact, mid);
      if (Double.parseDouble(text) == d) {
        hi = mid;
        atHi = text;
      } else {
        lo = mid + 1;
      }
    }
    return atHi != null ? atHi : roundedText(exact, hi);
  }

  /** Significant digits of a Double.toString text ("0.0020" has 1, "1.25E-7" has 3). */
  static int significantDigits(String text) {
    int first = -1;
    int last = -1;
    int count = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == 'E') {
        break;
      }
      if (c >= '0' && c <= '9') {
        if (c != '0') {
          if (first < 0) {
            first = count;
          }
          last = count;
        }
        count++;
      }
    }
    return first < 0 ? 1 : last - first + 1;
  }

  private static String roundedText(BigDecimal exact, int digits) {
    return format(exact.round(new MathContext(digits, RoundingMode.HALF_EVEN)));
  }

  private static String format(BigDecimal v) {
    BigDecimal r = v.stripTrailingZeros();
    String digits = r.unscaledValue().abs().toString();
    return layout(r.signum() < 0, digits, digits.length() - 1 - r.scale());
  }

  /**
   * {@link #decimal}'s form of the number with significant {@code digits} (no leading or trailing
   * zeros) whose first digit stands for 10^{@code exponent}.
   */
  private static String layout(boolean negative, String digits, int exponent) {
    StringBuilder b = new StringBuilder(26);
    if (negative) {
      b.append('-');
    }
    if (exponent >= -3 && exponent < 7) {
      if (exponent < 0) {
        b.append("0.").append("0".repeat(-exponent - 1)).append(digits);
      } else if (digits.length() > exponent + 1) {
        b.append(digits, 0, exponent + 1).append('.').append(digits, exponent + 1, digits.length());
      } else {
        b.append(digits).append("0".repeat(exponent + 1 - digits.length())).append(".0");
      }
    } else {
      b.append(digits.charAt(0)).append('.').append(digits.length() > 1 ? digits.substring(1) : "0");
      b.append('E').append(exponent);
    }
    return b.toString();
  }

  private static void number(StringBuilder b, String name, double v) {
    if (!Double.isFinite(v)) {
      throw new IllegalArgumentException(name + " must be a finite number, got " + v);
    }
    b.append(",\"").append(name).append("\":").append(decimal(v));
  }

  private static void string(StringBuilder b, String name, String v) {
    b.append(",\"").append(name).append("\":\"");
    for (int i = 0; i < v.length(); i++) {
      char ch = v.charAt(i);
      if (ch == '"' || ch == '\\') {
        b.append('\\').append(ch);
      } else if (ch >= 0x20 && ch < 0x7f) {
        b.append(ch);
      } else {
        b.append(String.format("\\u%04x", (int) ch));
      }
    }
    b.append('"');
  }

  // ---- reading ------------------------------------------------------------------------------

  /**
   * Splits a stored line at its signature, textually.
   *
   * @throws LedgerFormatException if the line does not end with {@code ,"sig":"<88 base64 chars>"}}
   */
  public static Split split(String line) {
    Matcher m = SIG_TAIL.matcher(line);
    if (!m.find()) {
      throw new LedgerFormatException("does not end with ,\"sig\":\"<Ed25519 signature, 88 base64 characters>\"}"
          + " (truncated or not a ledger line)");
    }
    return new Split(line.substring(0, m.start()), m.group(1));
  }

  /**
   * Parses a stored line strictly: one JSON object, no duplicate, unknown or missing field, fields in
   * the order of {@link #FIELDS}, each of its type and shape. Does not check values against each
   * other or the schedule; that is {@link LedgerVerifier}'s job.
   *
   * @throws LedgerFormatException naming the first problem
   */
  public static LedgerEntry parse(String line) {
    JsonNode root;
    try {
      root = STRICT.readTree(line);
    } catch (JsonProcessingException e) {
      throw new LedgerFormatException("not valid JSON: " + oneLine(e.getOriginalMessage()));
    }
    if (root == null || !root.isObject()) {
      throw new LedgerFormatException("not a JSON object");
    }
    checkFieldNames(root);
    int version = intField(root, "v");
    if (version != LedgerEntry.FORMAT_VERSION) {
      throw new LedgerFormatException("unsupported format version " + version + " (this hdfl reads "
          + LedgerEntry.FORMAT_VERSION + ")");
    }
    String federation = id(root, "federation");
    String peer = id(root, "peer");
    Kind kind = enumField(root, "kind", Kind.class);
    Topology topology = enumField(root, "topology", Topology.class);
    int round = intField(root, "round");
    long step = longField(root, "step");
    long samplesNew = longField(root, "samples_new");
    long samplesTotal = longField(root, "samples_total");
    long samplesBundled = root.has(BUNDLED) ? longField(root, BUNDLED) : 0;
    if (root.has(BUNDLED) && samplesBundled == 0) {
      throw new LedgerFormatException("field '" + BUNDLED + "' is written only when not zero");
    }
    String bundledProblem = bundledProblem(kind, topology, round, samplesNew, samplesBundled);
    if (bundledProblem != null) {
      throw new LedgerFormatException(bundledProblem);
    }
    double s = doubleField(root, "sensitivity_scale");
    double required = doubleField(root, "variance_required");
    double before = doubleField(root, "variance_present_before");
    double added = doubleField(root, "variance_added");
    double after = doubleField(root, "variance_present_after");
    double epsilon = doubleField(root, "epsilon");
    double delta0 = doubleField(root, "delta0");
    int dim = intField(root, "dim");
    Schedule schedule = enumField(root, "schedule", Schedule.class);
    Source source = enumField(root, "noise_source", Source.class);
    JsonNode nfd = root.get("not_for_deployment");
    if (!nfd.isBoolean()) {
      throw new LedgerFormatException("field 'not_for_deployment' must be true or false");
    }
    List<String> contributors = hashes(root.get("contributors"), "contributors", LedgerEntry.MAX_CONTRIBUTORS);
    List<String> late = root.has(LATE) ? hashes(root.get(LATE), LATE, LedgerEntry.MAX_CONTRIBUTORS - contributors.size())
        : List.of();
    if (root.has(LATE) && late.isEmpty()) {
      throw new LedgerFormatException("field 'late' is written only when it names a late update (got an empty array)");
    }
    String reason = text(root, "reason");
    if (reason.length() > LedgerEntry.MAX_REASON) {
      throw new LedgerFormatException("field 'reason' is longer than " + LedgerEntry.MAX_REASON + " characters");
    }
    String prevHash = text(root, "prev_hash");
    if (!LedgerEntry.isHash(prevHash)) {
      throw new LedgerFormatException("field 'prev_hash' must be 64 lower-case hex digits");
    }
    String timestamp = text(root, "timestamp");
    if (!LedgerTimestamp.isValid(timestamp)) {
      throw new LedgerFormatException("field 'timestamp' must be ISO-8601 UTC like 2025-01-31T12:00:00.000Z");
    }
    String sig = text(root, "sig");
    return new LedgerEntry(version, federation, peer, kind, topology, round, step, samplesNew, samplesTotal,
        samplesBundled, s,
        required, before, added, after, epsilon, delta0, dim, schedule, source, nfd.booleanValue(), contributors,
        late, reason, prevHash, timestamp, sig);
  }

  /** Why {@code samples_bundled} cannot be {@code bundled} in such an entry, or null (0: not written). */
  private static String bundledProblem(Kind kind, Topology topology, int round, long samplesNew, long bundled) {
    if (bundled == 0) {
      return null;
    }
    if (!LedgerEntry.recordsBundled(kind, topology, round)) {
      return "field '" + BUNDLED + "' belongs only to a ring update after round 1";
    }
    if (bundled < 0 || bundled > samplesNew) {
      return "field '" + BUNDLED + "' must be between 1 and samples_new (" + samplesNew + "), got " + bundled;
    }
    return null;
  }

  private static void checkFieldNames(JsonNode root) {
    Iterator<String> names = root.fieldNames();
    int i = 0;
    while (names.hasNext()) {
      String name = names.next();
      if (name.equals(LATE) && i > 0 && FIELDS.get(i - 1).equals("contributors")
          || name.equals(BUNDLED) && i > 0 && FIELDS.get(i - 1).equals("samples_total")) {
        continue; // an optional field, in its place
      }
      if (!FIELDS.contains(name)) {
        throw new LedgerFormatException("unknown field '" + oneLine(name) + "'");
      }
      if (i >= FIELDS.size() || !FIELDS.get(i).equals(name)) {
        String expected = FIELDS.get(Math.min(i, FIELDS.size() - 1));
        throw new LedgerFormatException(root.has(expected)
            ? "field '" + name + "' out of order (expected '" + expected + "')"
            : "missing field '" + expected + "'");
      }
      i++;
    }
    if (i < FIELDS.size()) {
      throw new LedgerFormatException("missing field '" + FIELDS.get(i) + "'");
    }
  }

  private static int intField(JsonNode root, String name) {
    JsonNode n = root.get(name);
    if (!n.isIntegralNumber() || !n.canConvertToInt()) {
      throw new LedgerFormatException("field '" + name + "' must be an integer (32-bit)");
    }
    return n.intValue();
  }

  private static long longField(JsonNode root, String name) {
    JsonNode n = root.get(name);
    if (!n.isIntegralNumber() || !n.canConvertToLong()) {
      throw new LedgerFormatException("field '" + name + "' must be an integer (64-bit)");
    }
    return n.longValue();
  }

  private static double doubleField(JsonNode root, String name) {
    JsonNode n = root.get(name);
    if (!n.isNumber() || !Double.isFinite(n.doubleValue())) {
      throw new LedgerFormatException("field '" + name + "' must be a finite number");
    }
    return n.doubleValue();
  }

  private static String text(JsonNode root, String name) {
    JsonNode n = root.get(name);
    if (!n.isTextual()) {
      throw new LedgerFormatException("field '" + name + "' must be a string");
    }
    return n.textValue();
  }

  private static String id(JsonNode root, String name) {
    String v = text(root, name);
    if (!LedgerEntry.isValidId(v)) {
      throw new LedgerFormatException("field '" + name + "' must match " + LedgerEntry.ID + ", got '" + oneLine(v) + "'");
    }
    return v;
  }

  private static <E extends Enum<E>> E enumField(JsonNode root, String name, Class<E> type) {
    String v = text(root, name);
    E e = LedgerEntry.fromWire(type, v);
    if (e == null) {
      List<String> allowed = new ArrayList<>();
      for (E c : type.getEnumConstants()) {
        allowed.add(c.name().toLowerCase(Locale.ROOT));
      }
      throw new LedgerFormatException("field '" + name + "' must be one of " + String.join("|", allowed)
          + ", got '" + oneLine(v) + "'");
    }
    return e;
  }

  private static List<String> hashes(JsonNode n, String field, int most) {
    if (!n.isArray()) {
      throw new LedgerFormatException("field '" + field + "' must be an array of entry hashes");
    }
    if (n.size() > most) {
      throw new LedgerFormatException("field '" + field + "' holds more than " + most + " hashes");
    }
    List<String> out = new ArrayList<>(n.size());
    for (JsonNode h : n) {
      if (!h.isTextual() || !LedgerEntry.isHash(h.textValue())) {
        throw new LedgerFormatException("field '" + field + "' must hold entry hashes (64 lower-case hex digits)");
      }
      out.add(h.textValue());
    }
    return out;
  }

  /** Keeps messages that quote input on one short line. */
  static String oneLine(String s) {
    if (s == null) {
      return "";
    }
    String t = s.replaceAll("[\\r\\n\\t]+", " ");
    return t.length() > 120 ? t.substring(0, 117) + "..." : t;
  }

  private static ObjectMapper strictMapper() {
    JsonFactory factory = JsonFactory.builder()
        .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
        // exact, like Double.parseDouble (FastDoubleParser, bundled with Jackson), and cheaper
        .enable(StreamReadFeature.USE_FAST_DOUBLE_PARSER)
        .streamReadConstraints(StreamReadConstraints.builder()
            .maxNestingDepth(4)
            .maxNumberLength(64)
            .maxStringLength(LedgerReader.MAX_LINE_BYTES)
            .build())
        .build();
    return new ObjectMapper(factory)
        .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
        .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY);
  }
}
