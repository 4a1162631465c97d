package io.hdfl.privacy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class PrivacyParametersTest {
  @Test
  void requiredVarianceIsTheGaussianMechanismBound() {
    PrivacyParameters p = PrivacyParameters.withDelta0(2000, 1.0, 1e-3);
    assertEquals(4000.0, p.c(), 0);
    // sigma^2 = 2 Δ² ln(1.25/δ)/ε² with Δ² = D, δ = δ0/n
    double n = 600;
    double expected = 2 * 2000 * Math.log(1.25 / (1e-3 / n)) / 1.0;
    assertEquals(expected, p.requiredVariance(600, 1.0), 1e-12 * expected);
    // averaged model of K = 4: sensitivity /4, variance /16
    assertEquals(expected / 16, p.requiredVariance(600, 0.25), 1e-12 * expected);
    PrivacyParameters f = PrivacyParameters.perSampleDelta(10000, 0.5);
    assertEquals(2 * 10000 / 0.25 * Math.log(1.25 * 500), f.requiredVariance(500, 1.0), 1e-6);
  }

  @Test
  void rejectsInvalidInputsWithClearMessages() {
    assertEquals("epsilon must be a finite number > 0, got 0.0",
        assertThrows(IllegalArgumentException.class, () -> PrivacyParameters.withDelta0(10, 0, 0.1)).getMessage());
    assertThrows(IllegalArgumentException.class, () -> PrivacyParameters.withDelta0(10, Double.NaN, 0.1));
    assertThrows(IllegalArgumentException.class, () -> PrivacyParameters.withDelta0(0, 1, 0.1));
    assertThrows(IllegalArgumentException.class, () -> PrivacyParameters.withDelta0(10, 1, 1.0));
    assertThrows(IllegalArgumentException.class, () -> PrivacyParameters.withDelta0(10, 1, 0));
    assertThrows(IllegalArgumentException.class, () -> PrivacyParameters.perSampleDelta(10, 1).requiredVariance(0, 1));
    assertThrows(IllegalArgumentException.class, () -> PrivacyParameters.perSampleDelta(10, 1).requiredVariance(5, 0));
  }
}
