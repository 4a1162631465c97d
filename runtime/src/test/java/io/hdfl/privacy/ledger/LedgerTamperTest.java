package io.hdfl.privacy.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hdfl.privacy.ledger.Verification.Check;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tampering with every field of an entry. Without the key, any change fails at that entry (form,
 * chain or signature); with every key (re-signed and re-chained), a change to a field that matters
 * still fails at that entry, on conformance.
 */
class LedgerTamperTest {
  @TempDir Path dir;

  /** Line 6 of the ring fixture: peer-002's update in round 2, step 6. */
  private static final int TARGET = 5;

  /** A different, still well-formed value for every field of {@code line}. */
  private static Map<String, String> tampered(LedgerFixture f, String line) {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("v", "2");
    m.put("federation", "\"other\"");
    m.put("peer", "\"peer-001\"");
    m.put("kind", "\"aggregate\"");
    m.put("topology", "\"star\"");
    m.put("round", "1");
    m.put("step", "5");
    m.put("samples_new", "101");
    m.put("samples_total", "601");
    m.put("sensitivity_scale", "0.5");
    for (String v : List.of("variance_required", "variance_present_before", "variance_added", "variance_present_after")) {
      m.put(v, LedgerCodec.decimal(Double.parseDouble(Tamper.value(line, v)) * 1.01));
    }
    m.put("epsilon", "2.0");
    m.put("delta0", "1.0E-4");
    m.put("dim", "4000");
    m.put("schedule", "\"blackbox\"");
    m.put("noise_source", "\"secure\"");
    m.put("not_for_deployment", "false");
    m.put("contributors", "[\"" + LedgerCodec.hash(f.line(0)) + "\"]");
    m.put("reason", "\"edited\"");
    m.put("prev_hash", "\"" + LedgerCodec.hash(f.line(2)) + "\"");
    m.put("timestamp", "\"2030-01-01T00:00:00.000Z\"");
    m.put("sig", Tamper.value(f.line(3), "sig"));
    for (Map.Entry<String, String> e : m.entrySet()) {
      assertNotEquals(Tamper.value(line, e.getKey()), e.getValue(), e.getKey());
    }
    return m;
  }

  @Test
  void everyFieldIsCoveredByTheTamperTable() throws Exception {
    LedgerFixture f = LedgerFixture.ring(dir);
    assertEquals(LedgerCodec.FIELDS, List.copyOf(tampered(f, f.line(TARGET)).keySet()));
  }

  @Test
  void tamperingWithoutTheKeyFailsAtThatEntry() throws Exception {
    LedgerFixture f = LedgerFixture.ring(dir);
    String line = f.line(TARGET);
    for (Map.Entry<String, String> t : tampered(f, line).entrySet()) {
      Verification v = f.verify(f.with(TARGET, Tamper.set(line, t.getKey(), t.getValue())));
      String what = t.getKey() + " -> " + v.summary();
      assertFalse(v.ok(), what);
      assertEquals(TARGET + 1, v.badLine(), what);
      assertNotNull(v.reason(), what);
      Check expected = switch (t.getKey()) {
        case "v" -> Check.FORMAT;
        case "prev_hash" -> Check.CHAIN;
        default -> Check.SIGNATURE;
      };
      assertEquals(expected, v.failedCheck(), what);
    }
  }

  @Test
  void tamperingWithEveryKeyFailsConformanceAtThatEntry() throws Exception {
    LedgerFixture f = LedgerFixture.ring(dir);
    String line = f.line(TARGET);
    for (Map.Entry<String, String> t : tampered(f, line).entrySet()) {
      String field = t.getKey();
      if (field.equals("sig")) {
        continue; // re-signing replaces it
      }
      String edited = Tamper.set(line, field, t.getValue());
      Verification v = f.verify(Tamper.forge(f.lines, TARGET, edited, f.keyOf(edited), f.keys));
      String what = field + " -> " + v.summary();
      switch (field) {
        case "reason", "timestamp" -> assertTrue(v.ok(), "informational field, not checked: " + what);
        case "v" -> assertFailure(v, TARGET, Check.FORMAT, "unsupported format version 2", what);
        case "prev_hash" -> assertFailure(v, TARGET, Check.CHAIN, "prev_hash does not match", what);
        default -> assertFailure(v, TARGET, Check.CONFORMANCE, "", what);
      }
    }
  }

  @Test
  void conformanceReasonsNameTheBrokenRule() throws Exception {
    LedgerFixture f = LedgerFixture.ring(dir);
    String line = f.line(TARGET);
    Map<String, String> t = tampered(f, line);
    Map<String, String> reasons = new LinkedHashMap<>();
    reasons.put("federation", "federation other differs from the ledger's sim (line 1)");
    reasons.put("peer", "peer peer-001 already updated the model in round 2");
    reasons.put("kind", "an aggregate entry must name the client entries it averaged");
    reasons.put("topology", "topology star differs from the ledger's ring (line 1)");
    reasons.put("round", "round 1 after round 2 (rounds never decrease)");
    reasons.put("step", "step 5 does not increase (previous entry: step 5)");
    reasons.put("samples_new", "samples_total 600 but the previous update held 500 samples and this update absorbed 101");
    reasons.put("samples_total", "samples_total 601 but the previous update held 500 samples");
    reasons.put("sensitivity_scale", "sensitivity_scale of an update must be 1, got 0.5");
    reasons.put("variance_required", "variance_required ");
    reasons.put("variance_present_before", "variance_present_before ");
    reasons.put("variance_added", "variance_added ");
    reasons.put("variance_present_after", "variance_present_after ");
    reasons.put("epsilon", "epsilon 2.0 differs from the ledger's 1.0 (line 1)");
    reasons.put("delta0", "delta0 1.0E-4 differs from the ledger's 1.0E-5 (line 1)");
    reasons.put("dim", "dim 4000 differs from the ledger's 2000 (line 1)");
    reasons.put("schedule", "schedule blackbox differs from the ledger's privatedfl (line 1)");
    reasons.put("noise_source", "not_for_deployment is true but noise_source is secure");
    reasons.put("not_for_deployment", "not_for_deployment is false but noise_source is seeded");
    reasons.put("contributors", "an update entry has no contributors, got 1");
    for (Map.Entry<String, String> r : reasons.entrySet()) {
      String edited = Tamper.set(line, r.getKey(), t.get(r.getKey()));
      Verification v = f.verify(Tamper.forge(f.lines, TARGET, edited, f.keyOf(edited), f.keys));
      assertTrue(v.reason().startsWith(r.getValue()), r.getKey() + " -> " + v.reason());
      assertEquals("peer-001".equals(LedgerCodec.parse(edited).peer()) ? "peer-001" : "peer-002", v.badPeer());
    }
  }

  @Test
  void reSignedEntryWithWrongArithmeticFailsOnConformance() throws Exception {
    LedgerFixture f = LedgerFixture.ring(dir);
    String line = f.line(TARGET);
    LedgerEntry e = LedgerCodec.parse(line);
    // a peer that adds half the noise it must and keeps its own numbers consistent
    double added = e.addedVariance() / 2;
    String edited = Tamper.set(Tamper.set(line, "variance_added", LedgerCodec.decimal(added)),
        "variance_present_after", LedgerCodec.decimal(e.presentBefore() + added));
    Verification v = f.verify(Tamper.forge(f.lines, TARGET, edited, f.keyOf(edited), f.keys));
    assertFailure(v, TARGET, Check.CONFORMANCE, "variance_added ", v.summary());
    assertTrue(v.reason().contains("schedule privatedfl requires"), v.reason());
    assertEquals("ledger INVALID at line 6 (peer peer-002): " + v.reason(), v.summary());
  }

  @Test
  void starAggregateTampering() throws Exception {
    LedgerFixture f = LedgerFixture.star(dir);
    int agg = 7; // line 8: the server's round-2 aggregate of lines 5-7
    String line = f.line(agg);
    String c5 = LedgerCodec.hash(f.line(4));
    String c6 = LedgerCodec.hash(f.line(5));
    String c7 = LedgerCodec.hash(f.line(6));
    String c1 = LedgerCodec.hash(f.line(0));
    Map<String, String> contributors = new LinkedHashMap<>();
    contributors.put("[\"" + c5 + "\",\"" + c6 + "\"]", "sensitivity_scale 0.3333333333333333 but an average of 2");
    contributors.put("[\"" + c5 + "\",\"" + c6 + "\",\"" + c1 + "\"]", "contributor " + c1.substring(0, 12)
        + "… is not an update entry of round 2");
    contributors.put("[\"" + c5 + "\",\"" + c6 + "\",\"" + c6 + "\"]", "contributor " + c6.substring(0, 12)
        + "… listed twice");
    contributors.put("[\"" + c7 + "\",\"" + c6 + "\",\"" + c5 + "\"]", null); // order does not matter
    for (Map.Entry<String, String> c : contributors.entrySet()) {
      String edited = Tamper.set(line, "contributors", c.getKey());
      Verification v = f.verify(Tamper.forge(f.lines, agg, edited, f.keyOf(edited), f.keys));
      if (c.getValue() == null) {
        assertTrue(v.ok(), v.summary());
      } else {
        assertFailure(v, agg, Check.CONFORMANCE, c.getValue(), v.summary());
        assertEquals("server", v.badPeer());
      }
    }
    LedgerEntry e = LedgerCodec.parse(line);
    String lessPresent = Tamper.set(line, "variance_present_before", LedgerCodec.decimal(e.presentBefore() * 0.9));
    assertFailure(f.verify(Tamper.forge(f.lines, agg, lessPresent, f.keyOf(lessPresent), f.keys)), agg,
        Check.CONFORMANCE, "variance_present_before", "aggregate present");
    String moreSamples = Tamper.set(Tamper.set(line, "samples_total", "301"), "samples_new", "151");
    assertFailure(f.verify(Tamper.forge(f.lines, agg, moreSamples, f.keyOf(moreSamples), f.keys)), agg,
        Check.CONFORMANCE, "samples_new 151 but the contributors absorbed 150", "aggregate samples");
    String asUpdate = Tamper.set(Tamper.set(line, "kind", "\"update\""), "contributors", "[]");
    // Relabelled as a client update it would have to chain to the previous aggregate, not to line 7.
    assertFailure(f.verify(Tamper.forge(f.lines, agg, asUpdate, f.keyOf(asUpdate), f.keys)), agg,
        Check.CHAIN, "prev_hash of a client update", "aggregate recorded as update");
  }

  @Test
  void starClientsOfARoundMayArriveInAnyOrderButNotMoveRounds() throws Exception {
    LedgerFixture f = LedgerFixture.star(dir);
    // Lines 5-7 are round 2's clients: the aggregator writes them in arrival order.
    List<String> swapped = new java.util.ArrayList<>(f.lines);
    java.util.Collections.swap(swapped, 4, 6);
    // The aggregate chains to the line before it, so re-sign it (as the aggregator would have).
    String agg = Tamper.set(swapped.get(7), "prev_hash", "\"" + LedgerCodec.hash(swapped.get(6)) + "\"");
    List<String> rest = Tamper.forge(swapped, 7, agg, f.keyOf(agg), f.keys);
    assertTrue(f.verify(rest).ok(), f.verify(rest).summary());
    // A round-2 client line moved after the round-2 aggregate chains to the wrong aggregate.
    List<String> moved = new java.util.ArrayList<>(f.lines);
    String c = moved.remove(4);
    moved.add(8, c);
    Verification v = f.verify(moved);
    assertFalse(v.ok());
  }

  @Test
  void starClientTampering() throws Exception {
    LedgerFixture f = LedgerFixture.star(dir);
    int client = 5; // line 6: client-002 in round 2, starting from the round-1 aggregate
    String line = f.line(client);
    String fresh = Tamper.set(line, "variance_present_before", "0.0");
    assertFailure(f.verify(Tamper.forge(f.lines, client, fresh, f.keyOf(fresh), f.keys)), client,
        Check.CONFORMANCE, "variance_present_before 0.000000000 but the last aggregate left", "fresh start");
    String round3 = Tamper.set(line, "round", "3");
    assertFailure(f.verify(Tamper.forge(f.lines, client, round3, f.keyOf(round3), f.keys)), client,
        Check.CONFORMANCE, "round 3 entry while round 2 is not yet aggregated", "round");
    // relabelled as a round-1 update recorded late, it would have to chain to the model of round 1
    String round1 = Tamper.set(line, "round", "1");
    assertFailure(f.verify(Tamper.forge(f.lines, client, round1, f.keyOf(round1), f.keys)), client,
        Check.CHAIN, "prev_hash of a client update does not match", "round");
  }

  static void assertFailure(Verification v, int index, Check check, String reasonPrefix, String what) {
    assertFalse(v.ok(), what);
    assertEquals(index + 1, v.badLine(), what);
    assertEquals(check, v.failedCheck(), what);
    assertTrue(v.reason().startsWith(reasonPrefix), what + " / reason: " + v.reason());
  }
}
