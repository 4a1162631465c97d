package io.hdfl.privacy.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hdfl.privacy.ledger.LedgerEntry.Kind;
import io.hdfl.privacy.ledger.LedgerEntry.Schedule;
import io.hdfl.privacy.ledger.LedgerEntry.Source;
import io.hdfl.privacy.ledger.LedgerEntry.Topology;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class LedgerCodecTest {
  private static final String SIG = "A".repeat(86) + "==";

  /** A fixed entry whose numbers include ones Double.toString prints differently on JDK 17 and 19+. */
  static LedgerEntry fixedEntry() {
    return new LedgerEntry(1, "fed-1", "peer-007", Kind.AGGREGATE, Topology.STAR, 3, 42, 600, 1800, 0.25,
        1.0E23, 2.82879384806159E17, 0.002, 8.41E21, 0.5, 1.0E-5, 2000, Schedule.FEDHDP, Source.SEEDED, true,
        List.of("ab".repeat(32), "cd".repeat(32)), "avg of 2 \"clients\" \\ \u00e9\n", "0".repeat(64),
        "2025-01-31T12:00:00.000Z", null);
  }

  @Test
  void bodyTextIsPinned() {
    // If this fails, the serializer changed: old ledgers still verify (verification never
    // re-serializes), but new ledgers would differ in bytes from what this version wrote.
    String expected = "{\"v\":1,\"federation\":\"fed-1\",\"peer\":\"peer-007\",\"kind\":\"aggregate\",\"topology\":\"star\","
        + "\"round\":3,\"step\":42,\"samples_new\":600,\"samples_total\":1800,\"sensitivity_scale\":0.25,"
        + "\"variance_required\":1.0E23,\"variance_present_before\":2.82879384806159E17,\"variance_added\":0.002,"
        + "\"variance_present_after\":8.41E21,\"epsilon\":0.5,\"delta0\":1.0E-5,\"dim\":2000,\"schedule\":\"fedhdp\","
        + "\"noise_source\":\"seeded\",\"not_for_deployment\":true,\"contributors\":[\""
        + "ab".repeat(32) + "\",\"" + "cd".repeat(32) + "\"],\"reason\":\"avg of 2 \\\"clients\\\" \\\\ \\u00e9\\u000a\","
        + "\"prev_hash\":\"" + "0".repeat(64) + "\",\"timestamp\":\"2025-01-31T12:00:00.000Z\"";
    assertEquals(expected, LedgerCodec.body(fixedEntry()));
    assertEquals(expected + ",\"sig\":\"" + SIG + "\"}", LedgerCodec.line(expected, SIG));
    // SHA-256 of the line, computed independently (Python hashlib)
    assertEquals("ed7946e852592cd147223f019539251e36cf1e832cabb5a441eed8985261df0c",
        LedgerCodec.hash(LedgerCodec.line(expected, SIG)));
  }

  /**
   * A star aggregate that records late updates names them in "late", right after "contributors";
   * written only when not empty, so every other line is byte for byte what it was; it round-trips,
   * and anywhere else, or empty, it is refused.
   */
  @Test
  void theLateFieldFollowsContributorsOnlyWhenItNamesSomething() {
    LedgerEntry base = fixedEntry();
    String late = "ef".repeat(32);
    LedgerEntry withLate = new LedgerEntry(1, "fed-1", "peer-007", Kind.AGGREGATE, Topology.STAR, 3, 42, 600, 1800,
        0.25, 1.0, 2.0, 0.5, 2.5, 0.5, 1.0E-5, 2000, Schedule.FEDHDP, Source.SEEDED, true, base.contributors(),
        List.of(late), "r", "0".repeat(64), base.timestamp(), null);
    String body = LedgerCodec.body(withLate);
    assertTrue(body.contains("\"cd".substring(1) + "cd".repeat(31) + "\"],\"late\":[\"" + late + "\"],\"reason\""), body);
    String line = LedgerCodec.line(body, SIG);
    assertEquals(List.of(late), LedgerCodec.parse(line).late());
    assertEquals(List.of(), LedgerCodec.parse(LedgerCodec.line(LedgerCodec.body(base), SIG)).late());
    assertTrue(!LedgerCodec.body(base).contains("late"), "not written when empty");
    LedgerFormatException empty = assertThrows(LedgerFormatException.class,
        () -> LedgerCodec.parse(line.replace("[\"" + late + "\"]", "[]")));
    assertTrue(empty.getMessage().contains("written only when it names a late update"), empty.getMessage());
    String moved = line.replace(",\"late\":[\"" + late + "\"]", "").replace(",\"prev_hash\"",
        ",\"late\":[\"" + late + "\"],\"prev_hash\"");
    LedgerFormatException misplaced = assertThrows(LedgerFormatException.class, () -> LedgerCodec.parse(moved));
    assertTrue(misplaced.getMessage().contains("unknown field 'late'"), misplaced.getMessage());
  }

  /**
   * A ring update after round 1 that bundled samples (live windows, or a restarted peer's data) says how
   * many in "samples_bundled", right after "samples_total"; written only when not zero, so every other
   * line is byte for byte what it was; it round-trips, and anywhere else, zero, or above samples_new,
   * it is refused.
   */
  @Test
  void theBundledFieldFollowsSamplesTotalOnlyInALaterRingUpdate() {
    LedgerEntry base = fixedEntry();
    LedgerEntry ring = new LedgerEntry(1, "fed-1", "peer-007", Kind.UPDATE, Topology.RING, 3, 42, 25, 1800, 7, 1.0,
        1.0, 2.0, 0.5, 2.5, 0.5, 1.0E-5, 2000, Schedule.PRIVATEDFL, Source.SEEDED, true, List.of(), List.of(), "r",
        "0".repeat(64), base.timestamp(), null);
    String body = LedgerCodec.body(ring);
    assertTrue(body.contains("\"samples_total\":1800,\"samples_bundled\":7,\"sensitivity_scale\""), body);
    String line = LedgerCodec.line(body, SIG);
    LedgerEntry parsed = LedgerCodec.parse(line);
    assertEquals(7, parsed.samplesBundled());
    assertEquals(7, parsed.bundledSamples());
    assertEquals(body, LedgerCodec.body(parsed), "it round-trips");
    String without = line.replace(",\"samples_bundled\":7", "");
    assertEquals(0, LedgerCodec.parse(without).bundledSamples(), "a later ring update without it bundled nothing");
    assertEquals(25, LedgerCodec.parse(without.replace("\"round\":3", "\"round\":1")).bundledSamples(),
        "round 1 bundles every sample it counts");
    assertTrue(!LedgerCodec.body(base).contains("bundled"), "not written when zero");
    for (String[] bad : new String[][] {
        {line.replace("\"samples_bundled\":7", "\"samples_bundled\":0"), "written only when not zero"},
        {line.replace("\"samples_bundled\":7", "\"samples_bundled\":26"), "between 1 and samples_new (25), got 26"},
        {line.replace("\"round\":3", "\"round\":1"), "only to a ring update after round 1"},
        {line.replace("\"topology\":\"ring\"", "\"topology\":\"star\""), "only to a ring update after round 1"},
        {line.replace(",\"samples_bundled\":7", "").replace(",\"reason\"", ",\"samples_bundled\":7,\"reason\""),
            "unknown field 'samples_bundled'"}}) {
      LedgerFormatException e = assertThrows(LedgerFormatException.class, () -> LedgerCodec.parse(bad[0]));
      assertTrue(e.getMessage().contains(bad[1]), e.getMessage());
    }
    assertThrows(IllegalArgumentException.class, () -> LedgerCodec.body(new LedgerEntry(1, "fed-1", "peer-007",
        Kind.UPDATE, Topology.RING, 1, 42, 25, 1800, 7, 1.0, 1.0, 2.0, 0.5, 2.5, 0.5, 1.0E-5, 2000, Schedule.PRIVATEDFL,
        Source.SEEDED, true, List.of(), List.of(), "r", "0".repeat(64), base.timestamp(), null)));
  }

  /**
   * recordsUpdate, the ring's textual check of a sender's entry, says true exactly when the parser
   * reads the same settings, peer, round, step, samples_total and variance_present_after from the line:
   * random ring updates (with and without samples_bundled, reasons that spell the keys out), each
   * field changed by one, and the line in a form the parser takes but no peer writes (false: the
   * caller then parses it).
   */
  @Test
  void recordsUpdateReadsTheFieldsAsTheParserDoes() {
    SplittableRandom r = new SplittableRandom(7);
    for (int i = 0; i < 300; i++) {
      int dim = 1 + r.nextInt(20000);
      double eps = r.nextDouble(0.01, 10);
      double delta0 = r.nextDouble(1e-9, 0.1);
      LedgerSettings settings = new LedgerSettings("fed-" + r.nextInt(3), Topology.RING,
          r.nextBoolean() ? Schedule.PRIVATEDFL : Schedule.BLACKBOX,
          io.hdfl.privacy.PrivacyParameters.withDelta0(dim, eps, delta0));
      int round = 1 + r.nextInt(40);
      long step = 1 + r.nextLong(1L << 40);
      long total = 1 + r.nextLong(1L << 50);
      long fresh = 1 + r.nextLong(Math.min(total, 1000));
      long bundled = round > 1 && r.nextBoolean() ? 1 + r.nextLong(fresh) : 0;
      double after = r.nextBoolean() ? r.nextDouble() * Math.pow(10, r.nextInt(-5, 25)) : 0.0;
      String reason = r.nextBoolean() ? "required" : ",\"samples_total\":" + total + ",\"variance_present_after\":1.0,";
      LedgerEntry e = new LedgerEntry(1, settings.federation(), "peer-" + r.nextInt(100), Kind.UPDATE, Topology.RING,
          round, step, fresh, total, bundled, 1.0, after, after / 2, after / 2, after, eps, delta0, dim,
          settings.schedule(), Source.SECURE, false, List.of(), List.of(), reason, "0".repeat(64),
          "2026-11-28T09:00:00.000Z", null);
      String line = LedgerCodec.line(LedgerCodec.body(e), SIG);
      LedgerEntry parsed = LedgerCodec.parse(line);
      assertTrue(settings.matches(parsed) && parsed.presentAfter() == after && parsed.samplesTotal() == total);
      assertTrue(LedgerCodec.recordsUpdate(line, settings, e.peer(), round, step, total, after), line);
      String p = e.peer();
      assertTrue(!LedgerCodec.recordsUpdate(line, settings, p + "0", round, step, total, after));
      assertTrue(!LedgerCodec.recordsUpdate(line, settings, p, round + 1, step, total, after));
      assertTrue(!LedgerCodec.recordsUpdate(line, settings, p, round, step - 1, total, after));
      assertTrue(!LedgerCodec.recordsUpdate(line, settings, p, round, step, total + 1, after));
      assertTrue(!LedgerCodec.recordsUpdate(line, settings, p, round, step, total, Math.nextUp(after)));
      assertTrue(!LedgerCodec.recordsUpdate(line, settings, p, round, step, total, Double.NaN));
      if (after == 0.0) {
        assertTrue(!LedgerCodec.recordsUpdate(line, settings, p, round, step, total, -0.0), "-0.0 reads back as 0.0");
      }
      String aggregate = line.replace("\"kind\":\"update\"", "\"kind\":\"aggregate\"");
      assertTrue(!LedgerCodec.recordsUpdate(aggregate, settings, p, round, step, total, after), "another kind");
      for (LedgerSettings other : List.of(
          new LedgerSettings(settings.federation() + "x", Topology.RING, settings.schedule(), settings.params()),
          new LedgerSettings(settings.federation(), Topology.STAR, settings.schedule(), settings.params()),
          new LedgerSettings(settings.federation(), Topology.RING, Schedule.NONE, settings.params()),
          new LedgerSettings(settings.federation(), Topology.RING, settings.schedule(),
              io.hdfl.privacy.PrivacyParameters.withDelta0(dim + 1, eps, delta0)),
          new LedgerSettings(settings.federation(), Topology.RING, settings.schedule(),
              io.hdfl.privacy.PrivacyParameters.withDelta0(dim, Math.nextUp(eps), delta0)),
          new LedgerSettings(settings.federation(), Topology.RING, settings.schedule(),
              io.hdfl.privacy.PrivacyParameters.withDelta0(dim, eps, Math.nextUp(delta0))))) {
        assertTrue(!other.matches(parsed));
        assertTrue(!LedgerCodec.recordsUpdate(line, other, p, round, step, total, after), other.toString());
      }
      String spaced = line.replace("\"samples_total\":", "\"samples_total\": ");
      assertEquals(total, LedgerCodec.parse(spaced).samplesTotal(), "the parser takes it");
      assertTrue(!LedgerCodec.recordsUpdate(spaced, settings, p, round, step, total, after));
    }
  }

  @Test
  void prevHashIsReadTextuallyAsTheParserReadsIt() {
    String prev = "3f".repeat(32);
    LedgerEntry base = fixedEntry();
    // a reason that spells the field out (escaped in the line) must not fool the textual reader
    String decoy = ",\"prev_hash\":\"" + "9".repeat(64) + "\",\"timestamp\":\"";
    LedgerEntry e = new LedgerEntry(1, "fed-1", "peer-007", Kind.AGGREGATE, Topology.STAR, 3, 42, 600, 1800, 0.25,
        1.0, 2.0, 0.5, 2.5, 0.5, 1.0E-5, 2000, Schedule.FEDHDP, Source.SEEDED, true, base.contributors(), decoy, prev,
        base.timestamp(), null);
    String line = LedgerCodec.line(LedgerCodec.body(e), SIG);
    assertEquals(prev, LedgerCodec.prevHashOf(line));
    assertEquals(LedgerCodec.parse(line).prevHash(), LedgerCodec.prevHashOf(line));
    assertThrows(LedgerFormatException.class, () -> LedgerCodec.prevHashOf("{\"v\":1}"));
    assertThrows(LedgerFormatException.class, () -> LedgerCodec.prevHashOf(line.replace(prev, "3F".repeat(32))));
    assertThrows(LedgerFormatException.class,
        () -> LedgerCodec.prevHashOf(line.replace(prev + "\",\"timestamp", prev + "\",\"time")));
  }

  /** prevHashAt as defined: the last occurrence of the key, then the checks. */
  private static int lastOccurrenceReading(String line) {
    String key = ",\"prev_hash\":\"";
    int at = line.lastIndexOf(key);
    int start = at + key.length();
    if (at < 0 || !line.startsWith("\",\"timestamp\":\"", start + 64)
        || !line.substring(start, start + 64).matches("[0-9a-f]{64}")) {
      return -1;
    }
    return start;
  }

  private static int reading(String line) {
    try {
      return LedgerCodec.prevHashAt(line);
    } catch (LedgerFormatException e) {
      return -1;
    }
  }

  @Test
  void prevHashIsFoundWhereACanonicalLineHasItAndAsTheLastOccurrenceOtherwise() {
    LedgerEntry base = fixedEntry();
    String line = LedgerCodec.line(LedgerCodec.body(base), SIG);
    assertEquals(base.prevHash(), LedgerCodec.prevHashOf(line));
    String field = ",\"prev_hash\":\"" + "ab".repeat(32) + "\",\"timestamp\":\"";
    // a second key after the canonical place, the line's length unchanged: the last one counts
    int canonical = line.lastIndexOf(",\"prev_hash\":\"");
    int tailFrom = canonical + 14 + 64;
    String tail = ",\"prev_hash\":\"" + "cd".repeat(32) + "\",\"timestamp\":\"";
    String twice = line.substring(0, tailFrom) + tail + "y".repeat(line.length() - tailFrom - tail.length());
    assertEquals(line.length(), twice.length());
    assertEquals(lastOccurrenceReading(twice), reading(twice));
    assertTrue(reading(twice) > canonical + 14, "the later key's hash");
    java.util.Random r = new java.util.Random(5);
    // the key moved off its canonical place, or spelled out again (unescaped, as no canonical line
    // has it) before or after the canonical one
    for (int i = 0; i < 3000; i++) {
      StringBuilder b = new StringBuilder(line);
      int edits = 1 + r.nextInt(3);
      for (int k = 0; k < edits; k++) {
        int at = r.nextInt(b.length() + 1);
        switch (r.nextInt(3)) {
          case 0 -> b.insert(at, field);
          case 1 -> b.insert(at, "x".repeat(1 + r.nextInt(3)));
          default -> b.delete(Math.min(at, b.length() - 1), Math.min(b.length(), at + 1 + r.nextInt(3)));
        }
      }
      String v = b.toString();
      assertEquals(lastOccurrenceReading(v), reading(v), v);
    }
  }

  @Test
  void decimalIsShortestAndTheSameOnEveryJdk() {
    // JDK 17's Double.toString gives 9.999999999999999E22, 2.82879384806159008E17, 1.9999999999999998E23
    // and 8.409999999999999E21 for the first four; JDK 19+ the shortest forms below.
    assertEquals("1.0E23", LedgerCodec.decimal(1.0E23));
    assertEquals("2.82879384806159E17", LedgerCodec.decimal(2.82879384806159E17));
    assertEquals("2.0E23", LedgerCodec.decimal(2.0E23));
    assertEquals("8.41E21", LedgerCodec.decimal(8.41E21));
    // 2 * MIN_VALUE: one digit suffices (JDK 19+ prints the closer two-digit 9.9E-324)
    assertEquals("1.0E-323", LedgerCodec.decimal(9.9E-324));
    assertEquals("5.0E-324", LedgerCodec.decimal(Double.MIN_VALUE));
    assertEquals("1.7976931348623157E308", LedgerCodec.decimal(Double.MAX_VALUE));
    assertEquals("0.002", LedgerCodec.decimal(0.002));
    assertEquals("1.0E-4", LedgerCodec.decimal(1e-4));
    assertEquals("4000.0", LedgerCodec.decimal(4000));
    assertEquals("1234567.0", LedgerCodec.decimal(1234567));
    assertEquals("1.0E7", LedgerCodec.decimal(1e7));
    assertEquals("0.1", LedgerCodec.decimal(0.1));
    assertEquals("-2.5", LedgerCodec.decimal(-2.5));
    assertEquals("0.0", LedgerCodec.decimal(0.0));
    assertEquals("0.0", LedgerCodec.decimal(-0.0));
    assertThrows(IllegalArgumentException.class, () -> LedgerCodec.decimal(Double.NaN));
    assertThrows(IllegalArgumentException.class, () -> LedgerCodec.decimal(Double.POSITIVE_INFINITY));
  }

  @Test
  void decimalRoundTripsAndIsNeverLongerThanDoubleToString() {
    SplittableRandom rnd = new SplittableRandom(7);
    for (int i = 0; i < 20_000; i++) {
      double d = i % 2 == 0 ? Double.longBitsToDouble(rnd.nextLong() & 0x7fefffffffffffffL)
          : rnd.nextDouble() * Math.pow(10, rnd.nextInt(-12, 12));
      String text = LedgerCodec.decimal(d);
      assertEquals(d, Double.parseDouble(text), text);
      assertTrue(digits(text) <= digits(Double.toString(d)), text + " vs " + d);
    }
  }

  @Test
  void decimalIsTheRoundingThatDefinesIt() {
    // the fast path (Schubfach's digits) against the definition: the nearest rounding to the fewest
    // digits that parses back, over random bit patterns, short decimals, both ends of every binade and
    // of the plain range, powers of two and subnormals
    SplittableRandom rnd = new SplittableRandom(11);
    List<Double> values = new java.util.ArrayList<>();
    for (int i = 0; i < 100_000; i++) {
      values.add(Double.longBitsToDouble(rnd.nextLong() & 0x7fefffffffffffffL));
      values.add(rnd.nextInt(1, 100_000) * Math.pow(10, rnd.nextInt(-330, 300)));
      values.add(rnd.nextDouble() * Math.pow(10, rnd.nextInt(-8, 9)));
    }
    for (int e = -1074; e <= 1023; e++) {
      double p = Math.scalb(1.0, e);
      values.addAll(List.of(p, Math.nextUp(p), Math.nextDown(p)));
    }
    for (int e = -330; e <= 308; e++) {
      double p = Double.parseDouble("1e" + e);
      values.addAll(List.of(p, Math.nextUp(p), Math.nextDown(p)));
    }
    values.addAll(List.of(0.001, Math.nextDown(0.001), 1e7, Math.nextDown(1e7), Double.MIN_NORMAL,
        Math.nextDown(Double.MIN_NORMAL), 9.9E-324, Double.MIN_VALUE, Double.MAX_VALUE, 72531.99468600233));
    for (double v : values) {
      double d = Math.abs(v);
      if (d == 0 || !Double.isFinite(d)) {
        continue;
      }
      String expected = LedgerCodec.decimalByRounding(d);
      assertEquals(expected, LedgerCodec.decimal(d), "for " + d);
      assertEquals("-" + expected, LedgerCodec.decimal(-d), "for " + -d);
    }
  }

  @Test
  void significantDigitsOfJdkTexts() {
    String[][] cases = {{"0.0020", "1"}, {"1.0E23", "1"}, {"9.999999999999999E22", "16"}, {"-4000.0", "1"},
        {"123.45", "5"}, {"1.25E-7", "3"}, {"0.0", "1"}, {"-0.0", "1"}, {"1.7976931348623157E308", "17"},
        {"2.82879384806159008E17", "18"}, {"100.5", "4"}};
    for (String[] c : cases) {
      assertEquals(Integer.parseInt(c[1]), LedgerCodec.significantDigits(c[0]), c[0]);
    }
  }

  /** decimal's search against the plain scan of every digit count it replaced, on doubles of every kind. */
  @Test
  void decimalEqualsTheShortestRoundingFoundByTryingEveryDigitCount() {
    SplittableRandom rnd = new SplittableRandom(11);
    for (int i = 0; i < 60_000; i++) {
      double d = switch (i % 6) {
        case 0 -> Double.longBitsToDouble(rnd.nextLong() & 0x7fefffffffffffffL); // any finite
        case 1 -> rnd.nextDouble() * Math.pow(10, rnd.nextInt(-12, 12)); // variances, scales
        case 2 -> rnd.nextInt(1, 100_000) * Math.pow(10, rnd.nextInt(-20, 20)); // short decimals
        case 3 -> Math.scalb(1.0, rnd.nextInt(-1074, 1024)); // powers of two, subnormal to huge
        case 4 -> Math.nextAfter(Math.scalb(1.0, rnd.nextInt(-1000, 1000)), rnd.nextBoolean() ? 0 : 1e300);
        default -> Double.longBitsToDouble(rnd.nextLong(1, 1L << 52)); // subnormals
      };
      if (rnd.nextBoolean()) {
        d = -d;
      }
      String text = LedgerCodec.decimal(d);
      assertEquals(0, scanEveryDigitCount(d).compareTo(new java.math.BigDecimal(text)),
          text + ", bits " + Long.toHexString(Double.doubleToRawLongBits(d)));
    }
  }

  /** The reference: the nearest rounding to the fewest digits, from 1, that parses back to d. */
  private static java.math.BigDecimal scanEveryDigitCount(double d) {
    java.math.BigDecimal exact = new java.math.BigDecimal(d);
    for (int digits = 1; digits <= 17; digits++) {
      java.math.BigDecimal r = exact.round(new java.math.MathContext(digits, java.math.RoundingMode.HALF_EVEN));
      if (Double.parseDouble(r.toString()) == d) {
        return r;
      }
    }
    throw new AssertionError("17 digits always round-trip");
  }

  private static int digits(String decimal) {
    String mantissa = decimal.split("E")[0].replace("-", "").replace(".", "").replaceFirst("^0+", "");
    return mantissa.replaceFirst("0+$", "").length();
  }

  @Test
  void parseReadsBackEveryField() {
    LedgerEntry e = fixedEntry();
    String line = LedgerCodec.line(LedgerCodec.body(e), SIG);
    LedgerEntry back = LedgerCodec.parse(line);
    assertEquals(e.withSignature(SIG), back);
    LedgerCodec.Split split = LedgerCodec.split(line);
    assertEquals(LedgerCodec.body(e), split.body());
    assertEquals(SIG, split.signature());
    assertEquals(LedgerCodec.body(e) + "}", new String(split.signedBytes(), java.nio.charset.StandardCharsets.US_ASCII));
  }

  @Test
  void bodyRejectsWhatCannotBeWritten() {
    LedgerEntry e = fixedEntry();
    assertThrows(IllegalArgumentException.class, () -> LedgerCodec.body(new LedgerEntry(1, "fed", "../etc", e.kind(),
        e.topology(), 1, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 10, e.schedule(), e.source(), true, List.of(), "", e.prevHash(),
        e.timestamp(), null)));
    IllegalArgumentException nan = assertThrows(IllegalArgumentException.class, () -> LedgerCodec.body(
        new LedgerEntry(1, "fed", "p", e.kind(), e.topology(), 1, 1, 1, 1, 1, Double.NaN, 0, 1, 1, 1, 1, 10,
            e.schedule(), e.source(), true, List.of(), "", e.prevHash(), e.timestamp(), null)));
    assertEquals("variance_required must be a finite number, got NaN", nan.getMessage());
    assertThrows(IllegalArgumentException.class, () -> LedgerCodec.body(new LedgerEntry(1, "fed", "p", e.kind(),
        e.topology(), 1, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 10, e.schedule(), e.source(), true, List.of(), "", "xyz",
        e.timestamp(), null)));
    assertThrows(IllegalArgumentException.class, () -> LedgerCodec.body(new LedgerEntry(1, "fed", "p", e.kind(),
        e.topology(), 1, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 10, e.schedule(), e.source(), true, List.of(), "",
        e.prevHash(), "yesterday", null)));
    assertThrows(IllegalArgumentException.class, () -> LedgerCodec.body(new LedgerEntry(1, "fed", "p", e.kind(),
        e.topology(), 1, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 10, e.schedule(), e.source(), true, List.of(), "x".repeat(201),
        e.prevHash(), e.timestamp(), null)));
  }

  @Test
  void splitNeedsTheSignatureTail() {
    String body = LedgerCodec.body(fixedEntry());
    String line = LedgerCodec.line(body, SIG);
    assertThrows(LedgerFormatException.class, () -> LedgerCodec.split(line.substring(0, line.length() - 1)));
    assertThrows(LedgerFormatException.class, () -> LedgerCodec.split(body + "}"));
    assertThrows(LedgerFormatException.class, () -> LedgerCodec.split(LedgerCodec.line(body, "A".repeat(88))));
    assertThrows(LedgerFormatException.class, () -> LedgerCodec.split(LedgerCodec.line(body, SIG) + " "));
  }

  @Test
  void parseIsStrict() {
    String line = LedgerCodec.line(LedgerCodec.body(fixedEntry()), SIG);
    assertProblem("not valid JSON: Duplicate field 'round'", line.replace("\"round\":3,", "\"round\":3,\"round\":3,"));
    assertProblem("unknown field 'extra'", line.replace("\"round\":3,", "\"round\":3,\"extra\":1,"));
    assertProblem("missing field 'round'", line.replace("\"round\":3,", ""));
    assertProblem("field 'step' out of order (expected 'round')",
        line.replace("\"round\":3,\"step\":42,", "\"step\":42,\"round\":3,"));
    assertProblem("field 'round' must be an integer (32-bit)", Tamper.set(line, "round", "3.0"));
    assertProblem("field 'round' must be an integer (32-bit)", Tamper.set(line, "round", "\"3\""));
    assertProblem("field 'step' must be an integer (64-bit)", Tamper.set(line, "step", "99999999999999999999"));
    assertProblem("field 'epsilon' must be a finite number", Tamper.set(line, "epsilon", "1e999"));
    assertProblem("field 'epsilon' must be a finite number", Tamper.set(line, "epsilon", "null"));
    assertProblem("field 'kind' must be one of update|aggregate, got 'merge'", Tamper.set(line, "kind", "\"merge\""));
    assertProblem("field 'not_for_deployment' must be true or false", Tamper.set(line, "not_for_deployment", "1"));
    assertProblem("field 'contributors' must hold entry hashes (64 lower-case hex digits)",
        Tamper.set(line, "contributors", "[\"AB\"]"));
    assertProblem("field 'prev_hash' must be 64 lower-case hex digits", Tamper.set(line, "prev_hash", "\"00\""));
    assertProblem("field 'timestamp' must be ISO-8601 UTC like 2025-01-31T12:00:00.000Z",
        Tamper.set(line, "timestamp", "\"2025-01-31 12:00\""));
    assertProblem("unsupported format version 2 (this hdfl reads 1)", Tamper.set(line, "v", "2"));
    assertTrue(problem(Tamper.set(line, "peer", "\"../x\"")).startsWith("field 'peer' must match"));
    assertTrue(problem("[" + line + "]").startsWith("not a JSON object"));
    assertTrue(problem(line + "{}").startsWith("not valid JSON"));
    assertTrue(problem(line.replace("{\"v\":1,", "{\"v\":1,,")).startsWith("not valid JSON"));
  }

  private static void assertProblem(String expected, String line) {
    assertEquals(expected, problem(line));
  }

  private static String problem(String line) {
    return assertThrows(LedgerFormatException.class, () -> LedgerCodec.parse(line)).problem();
  }

  @Test
  void hashIsSha256InLowerCaseHexAndEachLineIsHashedAfresh() throws Exception {
    // FIPS 180-2 test vectors; hashing one line must not leave state behind for the next
    String abc = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
    String empty = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
    assertEquals(abc, LedgerCodec.hash("abc"));
    assertEquals(empty, LedgerCodec.hash(""));
    assertEquals(abc, LedgerCodec.hash("abc"));
    // and on other threads, concurrently
    var pool = java.util.concurrent.Executors.newFixedThreadPool(4);
    try {
      List<java.util.concurrent.Future<Boolean>> checks = new java.util.ArrayList<>();
      for (int t = 0; t < 8; t++) {
        checks.add(pool.submit(() -> {
          for (int i = 0; i < 2000; i++) {
            if (!LedgerCodec.hash(i % 2 == 0 ? "abc" : "").equals(i % 2 == 0 ? abc : empty)) {
              return false;
            }
          }
          return true;
        }));
      }
      for (var c : checks) {
        assertTrue(c.get());
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
