package io.hdfl.privacy.schedule;

import io.hdfl.privacy.PrivacyParameters;
import java.util.Objects;

/**
 * The rule behind every incremental schedule (DESIGN §4): add the variance the requirement demands
 * minus the variance already present in the model. It works on what the model actually carries
 * ({@link ModelNoiseState}), so it stays correct with unequal shards, skipped peers and averaging;
 * with equal shards it reproduces the PrivateDFL and FedHDPrivacy closed forms.
 *
 * <p>For an update that brings a model from {@code n} to {@code n' = n + new} samples:
 * required = {@code params.requiredVariance(n', s)}; added = max(0, required − present); after =
 * present + added. Two floating-point details:
 *
 * <ul>
 *   <li>The increment is evaluated as {@code c·s²·ln(n'/n) + (requiredVariance(n, s) − present)}, the
 *       same quantity written so that the growth of the requirement is not the difference of two
 *       nearly equal logarithms (at step t of a ring the increment is about 1/t of the requirement,
 *       and plain subtraction would lose log10(t) digits). When the model holds exactly its previous
 *       requirement the second term is exactly zero. A model without noise (or without samples) gets
 *       exactly the requirement.
 *   <li>When noise is added, the present variance after the update is stored as the requirement
 *       itself, which equals present + added up to rounding. That keeps present ≥ required exact in
 *       floating point (a ledger check never fails by an ulp) and stops rounding from accumulating
 *       over many steps.
 * </ul>
 */
public final class IncrementalAccountant {
  private final PrivacyParameters params;
  private final double sensitivityScale;
  private final double coefficient;

  /**
   * @param params D, ε and δ0
   * @param sensitivityScale s in the sensitivity s·√D of the model this accountant guards: 1 for a
   *     model each sample enters once, 1/K for the average of K such models
   */
  public IncrementalAccountant(PrivacyParameters params, double sensitivityScale) {
    this.params = Objects.requireNonNull(params, "params");
    if (!(sensitivityScale > 0) || !Double.isFinite(sensitivityScale)) {
      throw new IllegalArgumentException("sensitivity scale must be a finite number > 0, got " + sensitivityScale);
    }
    this.sensitivityScale = sensitivityScale;
    this.coefficient = params.c() * sensitivityScale * sensitivityScale;
  }

  public PrivacyParameters parameters() {
    return params;
  }

  public double sensitivityScale() {
    return sensitivityScale;
  }

  /**
   * Decides the noise for an update of a model in state {@code before} that absorbs {@code
   * newSamples} new samples (0 when a peer is skipped or when models are only averaged).
   */
  public NoiseDecision decide(ModelNoiseState before, long newSamples) {
    Objects.requireNonNull(before, "before");
    if (newSamples < 0) {
      throw new IllegalArgumentException("new samples must be >= 0, got " + newSamples);
    }
    long base = before.samplesAbsorbed();
    long total;
    try {
      total = Math.addExact(base, newSamples);
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException("sample count overflows a long: " + base + " + " + newSamples, e);
    }
    double present = before.presentVariance();
    if (total == 0) {
      return new NoiseDecision(base, newSamples, total, 0.0, present, 0.0, present,
          "no samples absorbed: none required");
    }
    double required = params.requiredVariance(total, sensitivityScale);
    if (present >= required) {
      return new NoiseDecision(base, newSamples, total, required, present, 0.0, present,
          "present already covers required for " + total + " samples" + scaleNote() + ": none added");
    }
    double added;
    if (base == 0 || present == 0) {
      added = required - present;
    } else {
      double growth = coefficient * Math.log1p((double) newSamples / base);
      double shortfall = params.requiredVariance(base, sensitivityScale) - present;
      added = growth + shortfall;
    }
    if (!(added > 0)) {
      added = required - present; // present < required, so this is positive; rounding guard
    }
    String reason = "required for " + total + " samples" + scaleNote()
        + (present == 0 ? " (no noise present)" : " minus present");
    return new NoiseDecision(base, newSamples, total, required, present, added, required, reason);
  }

  private String scaleNote() {
    if (sensitivityScale == 1) {
      return "";
    }
    double k = 1 / sensitivityScale;
    if (k == Math.rint(k) && k < 1e15) {
      return " at sensitivity √D/" + (long) k;
    }
    return " at sensitivity " + sensitivityScale + "·√D";
  }

  @Override
  public String toString() {
    return "IncrementalAccountant[" + params + ", sensitivity scale " + sensitivityScale + "]";
  }
}
