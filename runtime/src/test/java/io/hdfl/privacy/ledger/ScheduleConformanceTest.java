package io.hdfl.privacy.ledger;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hdfl.privacy.PrivacyParameters;
import io.hdfl.privacy.schedule.IncrementalAccountant;
import io.hdfl.privacy.schedule.ModelNoiseState;
import io.hdfl.privacy.schedule.NoiseDecision;
import org.junit.jupiter.api.Test;

class ScheduleConformanceTest {
  /**
   * Late in a long ring a step adds c·ln(t/(t−1)), a tiny fraction of its requirement c·ln(1.25tN/δ0):
   * what the accountant adds there (in its log1p form) passes, and a step that adds 1 % less fails,
   * as it does early in the run. A tolerance of the requirement's size let 30 % less pass at t = 10⁷.
   */
  @Test
  void aStepsAddedNoiseIsCheckedAgainstItselfNotAgainstTheRequirement() {
    PrivacyParameters p = PrivacyParameters.withDelta0(2000, 1.0, 1e-3);
    IncrementalAccountant accountant = new IncrementalAccountant(p, 1);
    int n = 600;
    for (long t : new long[] {2, 3000, 10_000_000L}) {
      long base = (t - 1) * n;
      ModelNoiseState before = new ModelNoiseState(p.requiredVariance(base, 1), base);
      NoiseDecision d = accountant.decide(before, n);
      double expected = Math.max(0, d.required() - d.presentBefore());
      String where = "step " + t;
      assertTrue(ScheduleConformance.addedMatches(d.added(), expected, d.required(), d.presentBefore()), where);
      double closedForm = p.c() * Math.log((double) t / (t - 1));
      assertTrue(Math.abs(d.added() - closedForm) <= 1e-6 * closedForm, where + ": c ln(t/(t-1))");
      assertFalse(ScheduleConformance.addedMatches(0.99 * d.added(), expected, d.required(), d.presentBefore()), where);
      assertFalse(ScheduleConformance.addedMatches(0.7 * d.added(), expected, d.required(), d.presentBefore()), where);
    }
  }

  /**
   * The noise a step starts from is the one the entry before recorded, and present_after is
   * present_before + added: both up to rounding only. A step that nudged present_before up by 1e-9
   * of it (within the old tolerance) would add, at t = 10⁷, some 30 % less than its rule.
   */
  @Test
  void theNoiseAStepStartsFromAndEndsWithAreCheckedUpToRounding() {
    PrivacyParameters p = PrivacyParameters.withDelta0(2000, 1.0, 1e-3);
    double present = p.requiredVariance(600L * 9_999_999L, 1);
    assertTrue(ScheduleConformance.sameUpToRounding(present, present));
    assertTrue(ScheduleConformance.sameUpToRounding(Math.nextUp(present), present));
    assertFalse(ScheduleConformance.sameUpToRounding(present * (1 + 1e-9), present));
    double added = p.c() * Math.log(1e7 / (1e7 - 1));
    assertTrue(present * 1e-9 > 0.25 * added, "what the old tolerance let through: a quarter of the step and more");
    assertTrue(ScheduleConformance.sameUpToRounding(present + added, p.requiredVariance(600L * 10_000_000L, 1)));
  }
}
