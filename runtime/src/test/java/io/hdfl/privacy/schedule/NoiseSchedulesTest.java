package io.hdfl.privacy.schedule;

import static io.hdfl.privacy.schedule.Reference.assertRelative;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hdfl.privacy.PrivacyParameters;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.junit.jupiter.api.Test;

class NoiseSchedulesTest {
  private static final double TOL = 1e-12;

  private static double c(PrivacyParameters p) {
    return 2.0 * p.dim() / (p.epsilon() * p.epsilon());
  }

  @Test
  void privateDflRowsAreTheClosedForms() {
    for (int k : new int[] {1, 3, 100}) {
      for (int rounds : new int[] {1, 5, 30}) {
        PrivacyParameters p = PrivacyParameters.withDelta0(2000, 1.0, 1e-3);
        long n = 600;
        PrivateDflSchedule s = PrivateDflSchedule.of(p, k, n, rounds);
        List<ScheduleRow> rows = s.rows();
        assertEquals((long) k * rounds, rows.size());
        assertEquals(rows.size(), s.rowCount());
        double c = c(p);
        double sumXi = 0;
        for (ScheduleRow row : rows) {
          long t = row.step();
          assertEquals(t, k * (row.round() - 1L) + row.peer(), "t = K(r−1)+k");
          assertTrue(row.peer() >= 1 && row.peer() <= k);
          double xi = c * Math.log(1.25 * t * n / 1e-3);
          double gamma = t == 1 ? xi : c * Reference.lnRatio(t);
          sumXi += xi;
          double blackbox = c * (t * Math.log(1.25 * n / 1e-3) + Reference.sumLn(t));
          assertRelative(xi, row.required(), TOL, "ξ(" + t + ")");
          assertRelative(xi, row.present(), TOL, "present(" + t + ")");
          assertRelative(gamma, row.added(), TOL, "Γ(" + t + ")");
          assertRelative(blackbox, row.blackbox(), TOL, "Ξ(" + t + ")");
          assertRelative(sumXi, row.blackbox(), TOL, "Ξ(" + t + ") = Σ ξ(i)");
          // the exposed closed forms agree with the tests' own
          assertRelative(xi, PrivateDflSchedule.required(p, n, t), TOL, "helper ξ");
          assertRelative(gamma, PrivateDflSchedule.added(p, n, t), TOL, "helper Γ");
          assertEquals(t * n, row.samples());
          assertFalse(row.hasServer());
          assertTrue(Double.isNaN(row.gamma()) && Double.isNaN(row.serverAdded()));
        }
        ScheduleTotals totals = ScheduleTotals.of(s);
        ScheduleRow last = rows.get(rows.size() - 1);
        assertRelative(last.required(), totals.added(), TOL, "Σ Γ(t) = ξ(T)");
        assertEquals(last.blackbox(), totals.blackbox(), 0.0);
        assertTrue(rows.size() == 1 ? totals.blackboxOverAdded() == 1.0 : totals.blackboxOverAdded() > 1);
      }
    }
  }

  @Test
  void blackBoxRowsComeFromTheBlindAccountantAndMatchTheLnFactorialForm() {
    PrivacyParameters p = PrivacyParameters.withDelta0(10000, 0.5, 1e-5);
    long n = 37;
    BlackBoxSchedule s = BlackBoxSchedule.of(p, 7, n, 40);
    double c = c(p);
    double sum = 0;
    for (ScheduleRow row : s) {
      long t = row.step();
      double xi = c * Math.log(1.25 * t * n / 1e-5);
      sum += xi;
      assertRelative(xi, row.required(), TOL, "required");
      assertRelative(xi, row.added(), TOL, "blind: the full requirement again");
      assertEquals(row.required(), row.added(), 0.0, "a model seen without noise gets exactly the requirement");
      assertRelative(xi, BlackBoxSchedule.added(p, n, t), TOL, "helper");
      double closed = c * (t * Math.log(1.25 * n / 1e-5) + Reference.sumLn(t));
      assertRelative(closed, row.present(), TOL, "Ξ(" + t + ") present");
      assertRelative(closed, row.blackbox(), TOL, "Ξ(" + t + ")");
      assertRelative(sum, row.present(), TOL, "Σ ξ(i)");
      assertRelative(closed, BlackBoxSchedule.cumulative(p, n, t), TOL, "helper Ξ");
    }
    // large t through the helper: ln t! via Stirling against the plain sum
    assertRelative(c * (100_000 * Math.log(1.25 * n / 1e-5) + Reference.sumLn(100_000)),
        BlackBoxSchedule.cumulative(p, n, 100_000), TOL, "Ξ(10^5)");
  }

  @Test
  void fedHdPrivacyRowsAreTheClosedForms() {
    for (int k : new int[] {1, 2, 5, 100}) {
      for (long l : new long[] {20, 1000}) {
        for (int rounds : new int[] {1, 5, 30}) {
          PrivacyParameters p = PrivacyParameters.perSampleDelta(10000, 1.0);
          double c = c(p);
          FedHdPrivacySchedule s = FedHdPrivacySchedule.of(p, k, l, rounds);
          double blind = 0;
          int r = 0;
          for (ScheduleRow row : s) {
            r++;
            String where = "K=" + k + " L=" + l + " r=" + r;
            assertEquals(r, row.step());
            assertEquals(r, row.round());
            double gammaK = r == 1 ? c * Math.log(1.25 * l)
                : c / k * (k * Math.log(1.25 * (r - 1) * k * l + 1.25 * l) - Math.log(1.25 * (r - 2) * k * l + 1.25 * l));
            double xiG = c / ((double) k * k) * Math.log(1.25 * k * l * r);
            double psiG = c / k * Math.log(1.25 * (r - 1) * k * l + 1.25 * l);
            blind += c * Math.log(1.25 * ((r - 1.0) * k * l + l));
            assertRelative(gammaK, row.added(), TOL, "Γ_k " + where);
            assertRelative(xiG, row.required(), TOL, "ξ_g " + where);
            assertRelative(psiG, row.present(), TOL, "Ψ_g " + where);
            assertRelative(psiG / xiG, row.gamma(), TOL, "γ " + where);
            assertRelative(blind, row.blackbox(), TOL, "blind client " + where);
            assertEquals(0.0, row.serverAdded(), 0.0, "server adds nothing " + where);
            assertEquals((long) r * k * l, row.samples());
            assertRelative(gammaK, FedHdPrivacySchedule.clientAdded(p, k, l, r), TOL, "helper Γ_k " + where);
            assertRelative(xiG, FedHdPrivacySchedule.serverRequired(p, k, l, r), TOL, "helper ξ_g " + where);
            assertRelative(psiG, FedHdPrivacySchedule.serverPresent(p, k, l, r), TOL, "helper Ψ_g " + where);
            assertRelative(psiG / xiG, FedHdPrivacySchedule.gamma(p, k, l, r), TOL, "helper γ " + where);
            assertRelative(blind, FedHdPrivacySchedule.blindClientCumulative(p, k, l, r), TOL, "helper blind " + where);
            if (k == 1) {
              assertEquals(1.0, row.gamma(), 0.0, "one client: the average is its model");
            } else {
              assertTrue(row.gamma() > 1, where);
            }
          }
          assertEquals(rounds, r);
          ScheduleTotals totals = ScheduleTotals.of(s);
          assertEquals(0, totals.serverAddedRounds());
          assertEquals(0.0, totals.serverAdded(), 0.0);
          assertTrue(k == 1 ? totals.minGamma() == 1.0 : totals.minGamma() > 1);
        }
      }
    }
  }

  @Test
  void fedHdPrivacyServerTopsUpWhenGammaIsBelowOne() {
    // K = 2, L = 1: round 1 has γ = 2·ln 1.25 / ln 2.5 < 1
    PrivacyParameters p = PrivacyParameters.perSampleDelta(100, 1.0);
    double c = c(p);
    List<ScheduleRow> rows = FedHdPrivacySchedule.of(p, 2, 1, 3).rows();
    ScheduleRow r1 = rows.get(0);
    double psi1 = c / 2 * Math.log(1.25);
    double xi1 = c / 4 * Math.log(2.5);
    assertRelative(psi1, r1.present(), TOL, "Ψ_g^1");
    assertRelative(xi1, r1.required(), TOL, "ξ_g^1");
    assertTrue(r1.gamma() < 1);
    assertRelative(xi1 - psi1, r1.serverAdded(), TOL, "server adds ξ − Ψ");
    // round 2 starts from the topped-up global model (variance ξ_g^1, 2 samples): the client adds
    // c·ln(1.25·3) − ξ_g^1, not the closed form's Γ_k^2
    ScheduleRow r2 = rows.get(1);
    assertRelative(c * Math.log(1.25 * 3) - xi1, r2.added(), TOL, "client added after a top-up");
    assertRelative(c / 2 * Math.log(1.25 * 3), r2.present(), TOL, "Ψ_g^2");
    ScheduleTotals totals = ScheduleTotals.of(FedHdPrivacySchedule.of(p, 2, 1, 3));
    assertTrue(totals.serverAddedRounds() >= 1);
    assertTrue(totals.minGamma() < 1);
  }

  @Test
  void noPrivacyIsAllZero() {
    PrivacyParameters p = PrivacyParameters.withDelta0(100, 1.0, 1e-3);
    NoPrivacySchedule s = NoPrivacySchedule.of(p, 4, 10, 3);
    List<ScheduleRow> rows = s.rows();
    assertEquals(12, rows.size());
    for (ScheduleRow r : rows) {
      assertEquals(0.0, r.required() + r.present() + r.added() + r.blackbox(), 0.0);
      assertEquals(r.step() * 10, r.samples());
    }
    assertTrue(Double.isNaN(ScheduleTotals.of(s).blackboxOverAdded()));
  }

  @Test
  void iterationIsRepeatableAndEnds() {
    PrivateDflSchedule s = PrivateDflSchedule.of(PrivacyParameters.withDelta0(100, 1.0, 1e-3), 2, 10, 2);
    assertEquals(s.rows(), s.rows());
    Iterator<ScheduleRow> it = s.iterator();
    for (int i = 0; i < 4; i++) {
      it.next();
    }
    assertFalse(it.hasNext());
    assertThrows(NoSuchElementException.class, it::next);
  }

  @Test
  void invalidInputsNameTheFlag() {
    PrivacyParameters p = PrivacyParameters.withDelta0(100, 1.0, 1e-3);
    PrivacyParameters perSample = PrivacyParameters.perSampleDelta(100, 1.0);
    assertMessage("--peers (K) must be >= 1, got 0", () -> PrivateDflSchedule.of(p, 0, 10, 2));
    assertMessage("--samples (N, samples per peer) must be >= 1, got 0", () -> BlackBoxSchedule.of(p, 1, 0, 2));
    assertMessage("--rounds (R) must be >= 1, got -1", () -> NoPrivacySchedule.of(p, 1, 1, -1));
    assertMessage("--delta0 must be in (0, 1) for privatedfl, got 1.0", () -> PrivateDflSchedule.of(perSample, 1, 1, 1));
    assertMessage("--delta0 must be in (0, 1) for blackbox, got 1.0", () -> BlackBoxSchedule.of(perSample, 1, 1, 1));
    assertMessage("--peers (K, clients) must be >= 1, got 0", () -> FedHdPrivacySchedule.of(perSample, 0, 1, 1));
    assertMessage("--per-round (L, samples per client per round) must be >= 1, got 0",
        () -> FedHdPrivacySchedule.of(perSample, 1, 0, 1));
    assertMessage("--rounds (R) must be >= 1, got 0", () -> FedHdPrivacySchedule.of(perSample, 1, 1, 0));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> FedHdPrivacySchedule.of(p, 2, 1, 1))
        .getMessage().startsWith("fedhdp uses δ = 1/samples"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> PrivateDflSchedule.of(p, 100_000, 1, 1000))
        .getMessage().startsWith("--peers x --rounds = 100000000 steps"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> PrivateDflSchedule.of(p, 1000, 1L << 50, 1000))
        .getMessage().contains("2^53"));
    assertEquals(ScheduleMode.FEDHDP, ScheduleMode.parse("FedHDP"));
    assertMessage("unknown mode 'ring' (expected privatedfl, fedhdp, blackbox or none)", () -> ScheduleMode.parse("ring"));
  }

  private static void assertMessage(String expected, org.junit.jupiter.api.function.Executable call) {
    assertEquals(expected, assertThrows(IllegalArgumentException.class, call).getMessage());
  }
}
