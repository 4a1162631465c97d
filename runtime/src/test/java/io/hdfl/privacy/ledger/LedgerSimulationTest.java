package io.hdfl.privacy.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hdfl.privacy.PrivacyParameters;
import io.hdfl.privacy.ledger.LedgerEntry.Kind;
import io.hdfl.privacy.ledger.LedgerEntry.Schedule;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The simulator reproduces the closed forms of DESIGN §4 with equal shards and no churn. */
class LedgerSimulationTest {
  private static final double REL = 1e-12;

  private static void assertClose(double expected, double actual, String what) {
    assertEquals(expected, actual, REL * Math.abs(expected), what);
  }

  @Test
  void ringPrivateDflMatchesClosedForm() {
    PrivacyParameters p = PrivacyParameters.withDelta0(2000, 2.0, 1e-3);
    int k = 4;
    long n = 150;
    List<LedgerLine> lines = LedgerSimulation.ring(p).peers(k).rounds(5).samplesPerPeer(n).build().ledger().lines();
    assertEquals(20, lines.size());
    double c = p.c();
    for (int t = 1; t <= 20; t++) {
      LedgerEntry e = lines.get(t - 1).entry();
      assertEquals(t, e.step());
      assertEquals((t - 1) / k + 1, e.round());
      assertEquals(String.format("peer-%03d", (t - 1) % k + 1), e.peer());
      assertEquals(t * n, e.samplesTotal());
      double xi = c * Math.log(1.25 * t * n / p.delta0());
      double gamma = t == 1 ? c * Math.log(1.25 * n / p.delta0()) : c * Math.log((double) t / (t - 1));
      assertClose(xi, e.requiredVariance(), "xi(" + t + ")");
      assertClose(gamma, e.addedVariance(), "Gamma(" + t + ")");
      assertClose(xi, e.presentAfter(), "present(" + t + ")");
    }
  }

  @Test
  void ringBlackBoxMatchesClosedForm() {
    PrivacyParameters p = PrivacyParameters.withDelta0(1000, 1.0, 1e-2);
    long n = 80;
    List<LedgerLine> lines = LedgerSimulation.ring(p).schedule(Schedule.BLACKBOX).peers(3).rounds(4)
        .samplesPerPeer(n).build().ledger().lines();
    double c = p.c();
    double lnFactorial = 0;
    for (int t = 1; t <= 12; t++) {
      lnFactorial += Math.log(t);
      LedgerEntry e = lines.get(t - 1).entry();
      double xi = c * Math.log(1.25 * t * n / p.delta0());
      assertClose(xi, e.addedVariance(), "added(" + t + ")");
      assertClose(c * (t * Math.log(1.25 * n / p.delta0()) + lnFactorial), e.presentAfter(), "Xi(" + t + ")");
    }
  }

  @Test
  void starFedHdpMatchesClosedForm() {
    PrivacyParameters p = PrivacyParameters.perSampleDelta(10000, 1.0);
    int k = 5;
    long l = 60;
    int rounds = 6;
    List<LedgerLine> lines = LedgerSimulation.star(p).peers(k).rounds(rounds).samplesPerPeer(l).build().ledger().lines();
    assertEquals(rounds * (k + 1), lines.size());
    double c = p.c();
    for (int r = 1; r <= rounds; r++) {
      double gamma = r == 1 ? c * Math.log(1.25 * l)
          : c / k * (k * Math.log(1.25 * (r - 1) * k * l + 1.25 * l) - Math.log(1.25 * (r - 2) * k * l + 1.25 * l));
      for (int i = 0; i < k; i++) {
        LedgerEntry client = lines.get((r - 1) * (k + 1) + i).entry();
        assertEquals(Kind.UPDATE, client.kind());
        assertEquals(r, client.round());
        assertClose(gamma, client.addedVariance(), "client Gamma r=" + r);
      }
      LedgerEntry server = lines.get(r * (k + 1) - 1).entry();
      assertEquals(Kind.AGGREGATE, server.kind());
      assertEquals("server", server.peer());
      assertEquals(k, server.contributors().size());
      assertEquals(1.0 / k, server.sensitivityScale());
      assertEquals((long) r * k * l, server.samplesTotal());
      double xiG = c / (k * k) * Math.log(1.25 * k * l * r);
      double psiG = c / k * Math.log(1.25 * (r - 1) * k * l + 1.25 * l);
      assertClose(xiG, server.requiredVariance(), "xi_g r=" + r);
      assertClose(psiG, server.presentBefore(), "Psi_g r=" + r);
      assertTrue(psiG / xiG > 1, "gamma > 1");
      assertEquals(0.0, server.addedVariance(), "the server adds no noise when gamma > 1");
    }
  }

  @Test
  void unequalShardsAndSkipsAreAccountedByWhatIsPresent() {
    PrivacyParameters p = PrivacyParameters.withDelta0(500, 1.0, 1e-3);
    List<LedgerLine> lines = LedgerSimulation.ring(p).shards(100, 50, 400).rounds(2).skip(2, 1).build().ledger().lines();
    assertEquals(5, lines.size());
    long[] totals = {100, 500, 600, 650, 1050};
    long[] steps = {1, 3, 4, 5, 6};
    for (int i = 0; i < 5; i++) {
      LedgerEntry e = lines.get(i).entry();
      assertEquals(totals[i], e.samplesTotal());
      assertEquals(steps[i], e.step());
      assertClose(p.requiredVariance(totals[i], 1), e.presentAfter(), "present after entry " + i);
    }
  }
}
