package io.hdfl.privacy.composition;

import java.util.List;

/**
 * What one observer learns about one record: the Gaussian releases it sees (with only the noise it
 * cannot subtract), composed, converted to (ε, δ), and compared with the headline ε.
 */
public record ObserverGuarantee(
    String observer,
    String sees,
    List<GaussianRelease> releases,
    double delta,
    double epsilonRdp,
    double epsilonExact,
    double mu,
    double headlineEpsilon,
    String worstCase) {

  static ObserverGuarantee compose(String observer, String sees, List<GaussianRelease> releases, double delta,
      double headlineEpsilon, String worstCase) {
    GaussianComposition g = GaussianComposition.of(releases);
    return new ObserverGuarantee(observer, sees, List.copyOf(releases), delta, g.epsilonRdp(delta),
        g.epsilonExact(delta), g.mu(), headlineEpsilon, worstCase);
  }

  /**
   * The weakest guarantee over cases {@code 1..count} (a record of each peer, or learned in each
   * round): {@code view} gives the releases of a case, {@code caseName} its description.
   */
  static ObserverGuarantee worstOf(int count, java.util.function.IntFunction<List<GaussianRelease>> view,
      java.util.function.IntFunction<String> caseName, String observer, String sees, double delta, double headline) {
    ObserverGuarantee worst = null;
    for (int i = 1; i <= count; i++) {
      ObserverGuarantee g = compose(observer, sees, view.apply(i), delta, headline, caseName.apply(i));
      if (worst == null || g.epsilonRdp() > worst.epsilonRdp()) {
        worst = g;
      }
    }
    return worst;
  }

  /** True when this observer's composed ε (RDP) exceeds the headline ε. */
  public boolean weakerThanHeadline() {
    return epsilonRdp > headlineEpsilon * (1 + 1e-9);
  }

  /** The JSON object reports print (key order fixed; non-finite numbers as null). */
  public java.util.Map<String, Object> toJson() {
    java.util.Map<String, Object> m = new java.util.LinkedHashMap<>();
    m.put("observer", observer);
    m.put("sees", sees);
    m.put("releases", releases.size());
    m.put("epsilon_rdp", Double.isFinite(epsilonRdp) ? epsilonRdp : null);
    m.put("epsilon_exact", Double.isFinite(epsilonExact) ? epsilonExact : null);
    m.put("mu", Double.isFinite(mu) ? mu : null);
    m.put("weaker_than_headline", weakerThanHeadline());
    m.put("worst_case", worstCase);
    return m;
  }

  /** One plain sentence for reports. */
  public String sentence() {
    String eps = Double.isInfinite(epsilonRdp) ? "no protection (ε = ∞)" : String.format("ε = %.4g", epsilonRdp);
    String verdict = weakerThanHeadline()
        ? String.format("WEAKER than the headline ε = %.4g", headlineEpsilon)
        : String.format("within the headline ε = %.4g", headlineEpsilon);
    return String.format("%s (%s): %d release(s), %s at δ = %.3g (exact Gaussian-DP ε = %.4g), %s%s.",
        observer, sees, releases.size(), eps, delta, epsilonExact, verdict,
        worstCase.isEmpty() ? "" : "; worst case: " + worstCase);
  }
}
