package io.hdfl.privacy.ledger;

import io.hdfl.privacy.PrivacyParameters;
import io.hdfl.privacy.ledger.LedgerEntry.Kind;
import io.hdfl.privacy.ledger.LedgerEntry.Schedule;
import io.hdfl.privacy.ledger.LedgerEntry.Source;
import io.hdfl.privacy.ledger.LedgerEntry.Topology;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Check (d) of {@link LedgerVerifier}: fed the entries in ledger order, says whether each one
 * follows the ledger's settings, the model lineage and its schedule's variance arithmetic,
 * recomputed here from {@link PrivacyParameters} (never taken from an accountant).
 *
 * <p>With p = PrivacyParameters(D, ε, δ0) and s the entry's sensitivity scale:
 * <ul>
 *   <li>privatedfl / fedhdp: required = p.requiredVariance(total, s), added = max(0, required −
 *       present_before); blackbox: added = required (it cannot see earlier noise); none: every
 *       variance is 0; always present_after = present_before + added;
 *   <li>ring: every entry is an update, starting from the previous entry's present_after and total
 *       (0 and 0 for the first): total = previous total + samples_new, s = 1;
 *   <li>star: a client update starts from the last aggregate (0 and 0 before the first), s = 1; an
 *       aggregate of K contributors (update entries of the current round, distinct peers, every
 *       update since the last aggregate) has present_before = Σ present_after / K², total = base + Σ
 *       (client total − base), samples_new = Σ samples_new, s = 1/K; a client update of a round
 *       already aggregated (late: the aggregator received it after averaging the round, and records
 *       it because its noise was drawn and it was sent) starts from the last aggregate before its
 *       round, by a peer that did not update in that round, and may come anywhere after that round's
 *       aggregate (the step and round order below do not apply to it); the next aggregate names
 *       every late update recorded since the previous one in its {@code late} list, once each, and
 *       nothing else, so none before the last aggregate can be removed or added unnoticed; a ledger
 *       may end with late updates the next aggregate has yet to name (its aggregator waits for that
 *       round), which are counted apart;
 *   <li>all entries share federation, topology, schedule, ε, δ0 and D; steps strictly increase,
 *       rounds never decrease, a peer updates at most once per round; not_for_deployment is true
 *       exactly for seeded noise.
 * </ul>
 * Variances are compared with relative tolerance {@value #TOLERANCE}; for added, plus a few ulps of
 * the difference's operands ({@link #addedMatches}); present_before of an update and present_after
 * up to the rounding of one operation ({@link #sameUpToRounding}); sample counts exactly.
 */
final class ScheduleConformance {
  static final double TOLERANCE = 1e-9;

  private record ClientUpdate(String peer, double presentAfter, long total, long samplesNew) {}

  /** Star: the model as a round's aggregate left it, and the peers that updated in that round. */
  private record AggregatedRound(double presentAfter, long total, java.util.BitSet peers) {}

  private LedgerEntry first;
  private PrivacyParameters params;
  private long lastStep;
  private int lastRound;
  // ring: the model as the previous update left it; star: as the last aggregate left it
  private double presentAfter;
  private long total;
  // the current round's updates (star: since the last aggregate), by peer and by entry hash
  private int currentRound;
  private final Set<String> roundPeers = new HashSet<>();
  private final Map<String, ClientUpdate> roundUpdates = new LinkedHashMap<>();
  private int aggregateRound;
  /** Star: every aggregated round (for updates recorded late); peers as indexes into {@link #peerIndex}. */
  private final java.util.TreeMap<Integer, AggregatedRound> aggregated = new java.util.TreeMap<>();
  private final Map<String, Integer> peerIndex = new HashMap<>();
  private long lateUpdates;
  /** Star: hashes of the late updates recorded since the last aggregate (the next one names them). */
  private final Set<String> pendingLate = new HashSet<>();

  /**
   * Null if {@code e}, a star client update of a round already aggregated, may be recorded late: its
   * settings and ranges are sound and it starts from {@code from} (the last aggregate before its round;
   * null: the untrained model) as its schedule says; otherwise why not. What {@link LedgerVerifier}
   * will check of it, for an aggregator deciding whether to record it.
   */
  static String lateUpdate(LedgerEntry e, LedgerEntry from) {
    ScheduleConformance c = new ScheduleConformance();
    String why = c.settings(e);
    if (why == null) {
      why = ranges(e);
    }
    if (why == null && (e.kind() != Kind.UPDATE || e.topology() != Topology.STAR)) {
      why = "not a star client update";
    }
    if (why == null) {
      why = c.update(e, from == null ? "an untrained model" : "the aggregate of round " + from.round(),
          from == null ? 0 : from.presentAfter(), from == null ? 0 : from.samplesTotal(), false);
    }
    return why;
  }

  /** Null if {@code e} (whose line hashes to {@code hash}) conforms, otherwise why not. */
  String check(LedgerEntry e, String hash) {
    String why = settings(e);
    if (why == null) {
      why = ranges(e);
    }
    boolean late = e.topology() == Topology.STAR && e.kind() == Kind.UPDATE && e.round() <= aggregateRound;
    if (why == null && !late) {
      why = order(e);
    }
    if (why == null) {
      why = e.topology() == Topology.RING ? ring(e) : late ? late(e, hash) : star(e, hash);
    }
    if (why == null && !late) {
      lastStep = e.step();
      lastRound = e.round();
    }
    return why;
  }

  private String settings(LedgerEntry e) {
    if (first == null) {
      try {
        params = new PrivacyParameters(e.dim(), e.epsilon(), e.delta0());
      } catch (IllegalArgumentException ex) {
        return ex.getMessage();
      }
      first = e;
    }
    if (!e.federation().equals(first.federation())) {
      return differs("federation", e.federation(), first.federation());
    }
    if (e.topology() != first.topology()) {
      return differs("topology", e.topology().wire(), first.topology().wire());
    }
    if (e.schedule() != first.schedule()) {
      return differs("schedule", e.schedule().wire(), first.schedule().wire());
    }
    if (Double.compare(e.epsilon(), first.epsilon()) != 0) {
      return differs("epsilon", e.epsilon(), first.epsilon());
    }
    if (Double.compare(e.delta0(), first.delta0()) != 0) {
      return differs("delta0", e.delta0(), first.delta0());
    }
    if (e.dim() != first.dim()) {
      return differs("dim", e.dim(), first.dim());
    }
    if (e.notForDeployment() != (e.source() == Source.SEEDED)) {
      return "not_for_deployment is " + e.notForDeployment() + " but noise_source is " + e.source().wire()
          + " (seeded noise must be marked not for deployment, secure noise must not)";
    }
    return null;
  }

  private static String differs(String field, Object value, Object firstValue) {
    return field + " " + value + " differs from the ledger's " + firstValue + " (line 1)";
  }

  private static String ranges(LedgerEntry e) {
    if (e.round() < 1) {
      return "round must be >= 1, got " + e.round();
    }
    if (e.step() < 1) {
      return "step must be >= 1, got " + e.step();
    }
    if (e.samplesNew() < 0) {
      return "samples_new must be >= 0, got " + e.samplesNew();
    }
    if (e.samplesTotal() < 1) {
      return "samples_total must be >= 1, got " + e.samplesTotal();
    }
    if (!(e.sensitivityScale() > 0 && e.sensitivityScale() <= 1)) {
      return "sensitivity_scale must be in (0, 1], got " + e.sensitivityScale();
    }
    double[] v = {e.requiredVariance(), e.presentBefore(), e.addedVariance(), e.presentAfter()};
    String[] names = {"variance_required", "variance_present_before", "variance_added", "variance_present_after"};
    for (int i = 0; i < v.length; i++) {
      if (v[i] < 0) {
        return names[i] + " must be >= 0, got " + v[i];
      }
    }
    if (e.kind() == Kind.UPDATE && !e.contributors().isEmpty()) {
      return "an update entry has no contributors, got " + e.contributors().size();
    }
    if (!e.late().isEmpty() && (e.kind() != Kind.AGGREGATE || e.topology() != Topology.STAR)) {
      return "only a star aggregate names late updates, got " + e.late().size() + " in a " + e.topology().wire() + " "
          + e.kind().wire();
    }
    if (e.kind() == Kind.AGGREGATE && e.contributors().isEmpty()) {
      return "an aggregate entry must name the client entries it averaged (contributors is empty)";
    }
    return null;
  }

  private String order(LedgerEntry e) {
    // Ring steps are a global sequence. In a star the clients of a round sign independently, so their
    // entries (and the round's aggregate) may share a step and arrive in any order; steps never decrease.
    if (e.topology() == Topology.STAR ? e.step() < lastStep : e.step() <= lastStep) {
      return "step " + e.step() + (e.topology() == Topology.STAR ? " decreases" : " does not increase")
          + " (previous entry: step " + lastStep + ")";
    }
    if (e.round() < lastRound) {
      return "round " + e.round() + " after round " + lastRound + " (rounds never decrease)";
    }
    return null;
  }

  private String ring(LedgerEntry e) {
    if (e.kind() != Kind.UPDATE) {
      return "aggregate entry in a ring ledger (every ring entry is an update)";
    }
    if (e.round() != currentRound) {
      currentRound = e.round();
      roundPeers.clear();
    }
    String why = update(e, "the previous update", presentAfter, total, roundPeers.contains(e.peer()));
    if (why == null) {
      roundPeers.add(e.peer());
      presentAfter = e.presentAfter();
      total = e.samplesTotal();
    }
    return why;
  }

  private String star(LedgerEntry e, String hash) {
    if (e.round() <= aggregateRound) {
      return "round " + e.round() + " was already aggregated (last aggregate: round " + aggregateRound + ")";
    }
    if (!roundUpdates.isEmpty() && e.round() != currentRound) {
      return "round " + e.round() + " entry while round " + currentRound + " is not yet aggregated";
    }
    currentRound = e.round();
    if (e.kind() == Kind.UPDATE) {
      String why = update(e, aggregateRound == 0 ? "an untrained model" : "the last aggregate", presentAfter, total,
          roundPeers.contains(e.peer()));
      if (why == null) {
        roundPeers.add(e.peer());
        roundUpdates.put(hash, new ClientUpdate(e.peer(), e.presentAfter(), e.samplesTotal(), e.samplesNew()));
      }
      return why;
    }
    return aggregate(e);
  }

  /**
   * A star client update of a round already aggregated: recorded after the aggregate because the
   * aggregator received it too late to average it. It starts from the last aggregate before its round.
   */
  private String late(LedgerEntry e, String hash) {
    AggregatedRound own = aggregated.get(e.round());
    if (own == null) {
      return "update of round " + e.round() + " after round " + aggregateRound + "'s aggregate, but round " + e.round()
          + " has no aggregate (a late update is recorded after the aggregate of its round)";
    }
    var before = aggregated.lowerEntry(e.round());
    int peer = peerIndex.computeIfAbsent(e.peer(), p -> peerIndex.size());
    String why = update(e, before == null ? "an untrained model" : "the aggregate of round " + before.getKey(),
        before == null ? 0 : before.getValue().presentAfter(), before == null ? 0 : before.getValue().total(),
        own.peers().get(peer));
    if (why == null) {
      own.peers().set(peer);
      pendingLate.add(hash);
      lateUpdates++;
    }
    return why;
  }

  /**
   * Late updates recorded since the last aggregate: the next aggregate must name them, and a ledger
   * that ends here has none yet (its aggregator waits for the next round, or the rest was cut off).
   */
  long lateNotYetNamed() {
    return pendingLate.size();
  }

  /** Star client updates so far recorded after their round's aggregate. */
  long lateUpdates() {
    return lateUpdates;
  }

  /** An update starting from a model holding {@code present} noise and {@code total} samples. */
  private String update(LedgerEntry e, String from, double present, long total, boolean alreadyUpdated) {
    if (alreadyUpdated) {
      return "peer " + e.peer() + " already updated the model in round " + e.round();
    }
    if (!sameUpToRounding(e.presentBefore(), present)) { // handed on in the model as it was recorded
      return "variance_present_before " + num(e.presentBefore()) + " but " + from + " left "
          + num(present) + " in the model";
    }
    long expectedTotal;
    try {
      expectedTotal = Math.addExact(total, e.samplesNew());
    } catch (ArithmeticException ex) {
      return "samples_total overflows";
    }
    if (e.samplesTotal() != expectedTotal) {
      return "samples_total " + e.samplesTotal() + " but " + from + " held " + total + " samples and this update"
          + " absorbed " + e.samplesNew() + " (expected " + expectedTotal + ")";
    }
    if (e.sensitivityScale() != 1.0) {
      return "sensitivity_scale of an update must be 1, got " + e.sensitivityScale();
    }
    return variances(e, 1.0);
  }

  private String aggregate(LedgerEntry e) {
    Set<String> peers = new HashSet<>();
    Set<String> seen = new HashSet<>();
    double sumAfter = 0;
    long samples = 0;
    long sumTotal = total;
    for (String h : e.contributors()) {
      if (!seen.add(h)) {
        return "contributor " + h.substring(0, 12) + "… listed twice";
      }
      ClientUpdate u = roundUpdates.get(h);
      if (u == null) {
        return "contributor " + h.substring(0, 12) + "… is not an update entry of round " + e.round()
            + " since the last aggregate";
      }
      if (!peers.add(u.peer())) {
        return "two contributors from peer " + u.peer();
      }
      sumAfter += u.presentAfter();
      samples += u.samplesNew();
      sumTotal += u.total() - total;
    }
    int k = e.contributors().size();
    double expectedS = 1.0 / k;
    if (!close(e.sensitivityScale(), expectedS)) {
      return "sensitivity_scale " + e.sensitivityScale() + " but an average of " + k + " models has 1/" + k;
    }
    double expectedBefore = sumAfter / ((double) k * k);
    if (!close(e.presentBefore(), expectedBefore)) {
      return "variance_present_before " + num(e.presentBefore()) + " but the average of " + k
          + " client models holds " + num(expectedBefore) + " (sum of their present_after / K^2)";
    }
    if (e.samplesNew() != samples) {
      return "samples_new " + e.samplesNew() + " but the contributors absorbed " + samples;
    }
    if (e.samplesTotal() != sumTotal) {
      return "samples_total " + e.samplesTotal() + " but base " + total + " plus the contributors' new samples is "
          + sumTotal;
    }
    if (k != roundUpdates.size()) {
      return "names " + k + " of the " + roundUpdates.size() + " updates since the last aggregate (every update"
          + " recorded before its round's aggregate must be one the aggregate averaged)";
    }
    Set<String> named = new HashSet<>();
    for (String h : e.late()) {
      if (!named.add(h)) {
        return "late update " + h.substring(0, 12) + "… listed twice";
      }
      if (!pendingLate.contains(h)) {
        return "late update " + h.substring(0, 12) + "… is not a late update recorded since the last aggregate";
      }
    }
    if (named.size() != pendingLate.size()) {
      return "names " + named.size() + " of the " + pendingLate.size() + " late updates recorded since the last"
          + " aggregate";
    }
    String why = variances(e, expectedS);
    if (why == null) {
      java.util.BitSet updated = new java.util.BitSet();
      for (String p : peers) {
        updated.set(peerIndex.computeIfAbsent(p, q -> peerIndex.size()));
      }
      aggregated.put(e.round(), new AggregatedRound(e.presentAfter(), e.samplesTotal(), updated));
      presentAfter = e.presentAfter();
      total = e.samplesTotal();
      aggregateRound = e.round();
      pendingLate.clear();
      roundUpdates.clear();
      roundPeers.clear();
    }
    return why;
  }

  /** The schedule's rule for required, added and present_after. */
  private String variances(LedgerEntry e, double s) {
    Schedule schedule = e.schedule();
    if (schedule == Schedule.NONE) {
      if (e.requiredVariance() != 0 || e.presentBefore() != 0 || e.addedVariance() != 0 || e.presentAfter() != 0) {
        return "schedule none records no noise, but a variance is not 0";
      }
      return null;
    }
    double required = params.requiredVariance(e.samplesTotal(), s);
    if (!close(e.requiredVariance(), required)) {
      return "variance_required " + num(e.requiredVariance()) + " but c*s^2*ln(1.25*" + e.samplesTotal()
          + "/delta0) = " + num(required) + " (s = " + s + ")";
    }
    double added = schedule == Schedule.BLACKBOX ? required : Math.max(0, required - e.presentBefore());
    if (!addedMatches(e.addedVariance(), added, required, e.presentBefore())) {
      return "variance_added " + num(e.addedVariance()) + " but schedule " + schedule.wire() + " requires "
          + num(added) + (schedule == Schedule.BLACKBOX ? " (the full requirement)" : " (max(0, required - present_before))");
    }
    double after = e.presentBefore() + e.addedVariance();
    if (!sameUpToRounding(e.presentAfter(), after)) {
      return "variance_present_after " + num(e.presentAfter()) + " but present_before + added = " + num(after);
    }
    return null;
  }

  /**
   * Whether a step's recorded added variance is the schedule's {@code expected} = max(0, required −
   * present) (or required): within {@link #TOLERANCE} of itself, plus the rounding of the difference
   * of two large operands (a few of their ulps; a producer computes it in another form, log1p of the
   * growth plus the shortfall). Until the twenty-first session the tolerance was 1e-9 of the larger
   * operand, so late in a long ring, where a step adds c·ln(t/(t−1)) against a requirement some
   * t·ln(1.25tN/δ0) times larger, an entry could add 30 % less than its rule (t = 10⁷) and pass.
   */
  static boolean addedMatches(double recorded, double expected, double required, double presentBefore) {
    double rounding = 64 * Math.ulp(Math.max(Math.abs(required), Math.abs(presentBefore)));
    return Math.abs(recorded - expected) <= TOLERANCE * Math.max(Math.abs(expected), Math.abs(recorded)) + rounding;
  }

  /**
   * Equal but for the rounding of one operation on such numbers: within a few ulps. A model's noise
   * is handed on exactly as the entry before recorded it, and present_after is present_before + added;
   * a relative tolerance of the operands' size (as before the twenty-first session) let a step late in
   * a long ring nudge present_before up by 1e-9 of it and so add 30 % less than its rule unnoticed.
   */
  static boolean sameUpToRounding(double actual, double expected) {
    return Math.abs(actual - expected) <= 64 * Math.ulp(Math.max(Math.abs(actual), Math.abs(expected)));
  }

  /** |actual − expected| ≤ TOLERANCE · max(|expected|, |actual|). */
  static boolean close(double actual, double expected) {
    double bound = TOLERANCE * Math.max(Math.abs(expected), Math.abs(actual));
    return Math.abs(actual - expected) <= bound;
  }

  private static String num(double v) {
    return String.format(Locale.ROOT, "%.10g", v);
  }
}
