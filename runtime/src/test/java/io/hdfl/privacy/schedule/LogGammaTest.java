package io.hdfl.privacy.schedule;

import static io.hdfl.privacy.schedule.Reference.assertRelative;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class LogGammaTest {
  @Test
  void lnFactorialEqualsTheSumOfLogarithms() {
    assertEquals(0.0, LogGamma.lnFactorial(0), 0.0);
    assertEquals(0.0, LogGamma.lnFactorial(1), 0.0);
    assertEquals(Math.log(2), LogGamma.lnFactorial(2), 0.0);
    assertEquals(Math.log(3628800), LogGamma.lnFactorial(10), 1e-15 * Math.log(3628800));
    double sum = 0;
    double comp = 0;
    for (long n = 2; n <= 5000; n++) {
      double y = Math.log(n) - comp;
      double t = sum + y;
      comp = (t - sum) - y;
      sum = t;
      assertRelative(sum, LogGamma.lnFactorial(n), 1e-14, "ln " + n + "!");
    }
    assertRelative(Reference.sumLn(1_000_000), LogGamma.lnFactorial(1_000_000), 1e-14, "ln 10^6!");
  }

  @Test
  void lnGammaAtKnownValues() {
    // Γ(1/2) = √π, Γ(3/2) = √π/2, Γ(1/3) and Γ(1/4) from tables (20 digits); below 15 the
    // documented accuracy is absolute, 1e-14
    assertEquals(0.5 * Math.log(Math.PI), LogGamma.lnGamma(0.5), 1e-14);
    assertEquals(Math.log(Math.sqrt(Math.PI) / 2), LogGamma.lnGamma(1.5), 1e-14);
    assertEquals(Math.log(2.6789385347077476337), LogGamma.lnGamma(1.0 / 3), 1e-14);
    assertEquals(Math.log(3.6256099082219083119), LogGamma.lnGamma(0.25), 1e-14);
    // Γ(15/2) = (13!!/2^7)·√π; Γ(31/2) = (29!!/2^15)·√π, just past the switch to Stirling
    assertEquals(Math.log(135135.0 / 128) + 0.5 * Math.log(Math.PI), LogGamma.lnGamma(7.5), 1e-14);
    double doubleFactorial29 = 1;
    for (int i = 29; i > 1; i -= 2) {
      doubleFactorial29 *= i;
    }
    assertRelative(Math.log(doubleFactorial29 / 32768) + 0.5 * Math.log(Math.PI), LogGamma.lnGamma(15.5), 1e-15, "Γ(15.5)");
    assertEquals(0.0, LogGamma.lnGamma(1), 0.0);
    assertEquals(0.0, LogGamma.lnGamma(2), 0.0);
    // tiny x: Γ(x) ≈ 1/x − γ_Euler
    assertEquals(-Math.log(1e-10) - 0.5772156649015329 * 1e-10, LogGamma.lnGamma(1e-10), 1e-14);
    for (int n = 1; n <= 40; n++) {
      assertRelative(LogGamma.lnFactorial(n - 1), LogGamma.lnGamma(n), 1e-15, "Γ(" + n + ")");
    }
    assertRelative(Reference.sumLn(99_999), LogGamma.lnGamma(100_000), 1e-14, "Γ(10^5)");
  }

  @Test
  void lnGammaSatisfiesTheRecurrence() {
    SplittableRandom rnd = new SplittableRandom(7);
    for (int i = 0; i < 2000; i++) {
      double x = rnd.nextDouble(1e-3, 60);
      double lhs = LogGamma.lnGamma(x + 1);
      double rhs = LogGamma.lnGamma(x) + Math.log(x);
      assertEquals(lhs, rhs, 1e-13 * Math.max(1, Math.abs(lhs)), "x = " + x);
    }
  }

  @Test
  void rejectsArgumentsOutsideTheDomain() {
    assertThrows(IllegalArgumentException.class, () -> LogGamma.lnFactorial(-1));
    assertThrows(IllegalArgumentException.class, () -> LogGamma.lnGamma(0));
    assertThrows(IllegalArgumentException.class, () -> LogGamma.lnGamma(-2.5));
    assertThrows(IllegalArgumentException.class, () -> LogGamma.lnGamma(Double.NaN));
    assertEquals(Double.POSITIVE_INFINITY, LogGamma.lnGamma(Double.POSITIVE_INFINITY));
  }
}
