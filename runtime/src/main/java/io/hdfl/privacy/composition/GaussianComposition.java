package io.hdfl.privacy.composition;

import java.util.List;

/**
 * The privacy of a record across a sequence of (adaptively chosen) Gaussian releases.
 *
 * <p>A Gaussian release with sensitivity Δ and noise σ is ρ-zCDP with ρ = Δ²/(2σ²), i.e. it has
 * Rényi DP ε(α) = α·Δ²/(2σ²) at every order α &gt; 1, and composition adds these up: T releases give
 * ρ = Σ Δᵢ²/(2σᵢ²) (Bun &amp; Steinke 2016; Mironov 2017). Three conversions to (ε, δ) are offered:
 *
 * <ul>
 *   <li>{@link #epsilonRdp}: the RDP conversion ε = min_α [αρ + ln(1 − 1/α) − (ln δ + ln α)/(α − 1)]
 *       (Balle et al. 2020, Thm 21; Canonne, Kamath &amp; Steinke 2020, Prop. 12), minimised over real α
 *       &gt; 1. This is the method the reports use by default: standard, conservative.
 *   <li>{@link #epsilonZcdp}: the simpler ε = ρ + 2√(ρ ln(1/δ)) (Bun &amp; Steinke 2016, Prop. 1.3),
 *       always ≥ the RDP value.
 *   <li>{@link #epsilonExact}: the exact privacy profile. Composed Gaussian mechanisms are exactly
 *       μ-Gaussian DP with μ² = Σ Δᵢ²/σᵢ² (Dong, Roth &amp; Su 2019), whose tight curve is δ(ε) =
 *       Φ(−ε/μ + μ/2) − e^ε·Φ(−ε/μ − μ/2) (Balle &amp; Wang 2018, Thm 8). Never larger than the other two.
 * </ul>
 */
public final class GaussianComposition {
  private final double muSquared;
  private final int releases;

  private GaussianComposition(double muSquared, int releases) {
    this.muSquared = muSquared;
    this.releases = releases;
  }

  /** Composes the given releases. */
  public static GaussianComposition of(List<GaussianRelease> releases) {
    double m = 0;
    for (GaussianRelease r : releases) {
      m += r.muSquared();
    }
    return new GaussianComposition(m, releases.size());
  }

  /** T identical releases: μ² = T·Δ²/σ². */
  public static GaussianComposition repeated(int times, double sensitivity, double variance) {
    return of(java.util.Collections.nCopies(times, new GaussianRelease(sensitivity, variance, "release")));
  }

  public int releases() {
    return releases;
  }

  /** μ of the equivalent single Gaussian release (Gaussian DP). */
  public double mu() {
    return Math.sqrt(muSquared);
  }

  /** zCDP ρ = μ²/2. */
  public double rho() {
    return muSquared / 2;
  }

  /** Rényi DP at order α: α·ρ. */
  public double rdp(double alpha) {
    if (!(alpha > 1)) {
      throw new IllegalArgumentException("Renyi order must be > 1, got " + alpha);
    }
    return alpha * rho();
  }

  /** ε from the zCDP bound ρ + 2√(ρ·ln(1/δ)). */
  public double epsilonZcdp(double delta) {
    checkDelta(delta);
    double rho = rho();
    return rho + 2 * Math.sqrt(rho * Math.log(1 / delta));
  }

  /** ε from the RDP curve αρ, minimised over real orders α &gt; 1. */
  public double epsilonRdp(double delta) {
    checkDelta(delta);
    double rho = rho();
    if (rho == 0) {
      return 0;
    }
    if (Double.isInfinite(rho)) {
      return Double.POSITIVE_INFINITY;
    }
    // The objective is unimodal in α on (1, ∞); search log(α − 1) with golden sections.
    double lo = Math.log(1e-9);
    double hi = Math.log(1e9);
    double g = (Math.sqrt(5) - 1) / 2;
    double a = hi - g * (hi - lo);
    double b = lo + g * (hi - lo);
    double fa = rdpToEpsilon(1 + Math.exp(a), rho * (1 + Math.exp(a)), delta);
    double fb = rdpToEpsilon(1 + Math.exp(b), rho * (1 + Math.exp(b)), delta);
    for (int i = 0; i < 200; i++) {
      if (fa < fb) {
        hi = b;
        b = a;
        fb = fa;
        a = hi - g * (hi - lo);
        fa = rdpToEpsilon(1 + Math.exp(a), rho * (1 + Math.exp(a)), delta);
      } else {
        lo = a;
        a = b;
        fa = fb;
        b = lo + g * (hi - lo);
        fb = rdpToEpsilon(1 + Math.exp(b), rho * (1 + Math.exp(b)), delta);
      }
    }
    return Math.max(0, Math.min(fa, fb));
  }

  /** The exact (tight) ε for this δ from the Gaussian DP curve, by bisection on δ(ε). */
  public double epsilonExact(double delta) {
    checkDelta(delta);
    double mu = mu();
    if (mu == 0) {
      return 0;
    }
    if (Double.isInfinite(mu)) {
      return Double.POSITIVE_INFINITY;
    }
    if (deltaExact(0) <= delta) {
      return 0;
    }
    double lo = 0;
    double hi = 1;
    while (deltaExact(hi) > delta) {
      hi *= 2;
      if (hi > 1e15) { // deltaExact works in logs up to here; no RDP bound this large is finite in practice
        return Double.POSITIVE_INFINITY;
      }
    }
    for (int i = 0; i < 200 && hi - lo > 1e-13 * Math.max(1, hi); i++) {
      double mid = 0.5 * (lo + hi);
      if (deltaExact(mid) > delta) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    return hi;
  }

  /**
   * The tight δ at a given ε: Φ(−ε/μ + μ/2) − e^ε·Φ(−ε/μ − μ/2), the second term taken as
   * exp(ε + ln Φ(…)): computed as e^ε times Φ, it overflowed above ε ≈ 709.8 (to 0 or NaN), so
   * that {@link #epsilonExact} stopped there whatever the true ε (the wire reader of the README's
   * retraining example: 709.8 where it is 24643).
   */
  public double deltaExact(double epsilon) {
    double mu = mu();
    if (mu == 0) {
      return 0;
    }
    double a = StandardNormal.cdf(-epsilon / mu + mu / 2);
    double b = Math.exp(epsilon + StandardNormal.logCdf(-epsilon / mu - mu / 2));
    return Math.max(0, a - b);
  }

  /** The RDP-to-(ε, δ) conversion at one order. */
  static double rdpToEpsilon(double alpha, double rdp, double delta) {
    return rdp + Math.log1p(-1 / alpha) - (Math.log(delta) + Math.log(alpha)) / (alpha - 1);
  }

  /**
   * ε from RDP values given at discrete orders (the form other accountants report): the minimum over
   * the orders of the conversion above; returns {ε, best order}.
   */
  public static double[] epsilonFromRdp(double[] orders, double[] rdp, double delta) {
    checkDelta(delta);
    if (orders.length != rdp.length || orders.length == 0) {
      throw new IllegalArgumentException("need as many RDP values as orders (and at least one)");
    }
    double best = Double.POSITIVE_INFINITY;
    double bestOrder = Double.NaN;
    for (int i = 0; i < orders.length; i++) {
      if (!(orders[i] > 1)) {
        continue;
      }
      double e = rdpToEpsilon(orders[i], rdp[i], delta);
      if (e < best) {
        best = e;
        bestOrder = orders[i];
      }
    }
    return new double[] {Math.max(0, best), bestOrder};
  }

  private static void checkDelta(double delta) {
    if (!(delta > 0 && delta < 1)) {
      throw new IllegalArgumentException("delta must be in (0, 1), got " + delta);
    }
  }
}
