package io.hdfl.privacy.schedule;

import java.util.List;
import java.util.Objects;

/**
 * What a model carries for privacy accounting: the Gaussian noise variance present in it (per
 * component) and the number of samples it has absorbed, counted with repetition across steps as the
 * schedules of DESIGN §4 count them.
 */
public record ModelNoiseState(double presentVariance, long samplesAbsorbed) {
  /** A fresh model: no samples, no noise. */
  public static final ModelNoiseState EMPTY = new ModelNoiseState(0.0, 0);

  public ModelNoiseState {
    if (!(presentVariance >= 0) || !Double.isFinite(presentVariance)) {
      throw new IllegalArgumentException("present variance must be a finite number >= 0, got " + presentVariance);
    }
    if (samplesAbsorbed < 0) {
      throw new IllegalArgumentException("samples absorbed must be >= 0, got " + samplesAbsorbed);
    }
  }

  /**
   * The state of the average of K models that each started from the same global model (which had
   * absorbed {@code baseSamples}) and then absorbed their own samples: present variance Σv_k/K²,
   * samples {@code baseSamples + Σ(s_k − baseSamples)}.
   *
   * <p>Σv_k/K² is the variance of the mean of K <em>independent</em> noises, the treatment of
   * FedHDPrivacy and PrivateDFL. It is conservative here: the clients' noises are not independent,
   * because each contains the noise of the same base global model, and that shared component does
   * not average down (it stays at full variance in the mean). The variance truly present is
   * therefore at least this value, so an accountant that relies on it may add more noise than
   * strictly needed but never claims more privacy than the model has.
   *
   * @throws IllegalArgumentException if {@code models} is empty or a model has absorbed fewer
   *     samples than the base
   */
  public static ModelNoiseState average(long baseSamples, List<ModelNoiseState> models) {
    Objects.requireNonNull(models, "models");
    if (models.isEmpty()) {
      throw new IllegalArgumentException("cannot average zero models");
    }
    if (baseSamples < 0) {
      throw new IllegalArgumentException("base samples must be >= 0, got " + baseSamples);
    }
    double sum = 0;
    long samples = baseSamples;
    for (ModelNoiseState m : models) {
      if (m.samplesAbsorbed < baseSamples) {
        throw new IllegalArgumentException("a model to average has absorbed " + m.samplesAbsorbed
            + " samples, fewer than the " + baseSamples + " of the base global model it started from");
      }
      sum += m.presentVariance;
      try {
        samples = Math.addExact(samples, m.samplesAbsorbed - baseSamples);
      } catch (ArithmeticException e) {
        throw new IllegalArgumentException("sample count of the average overflows a long", e);
      }
    }
    double k = models.size();
    return new ModelNoiseState(sum / (k * k), samples);
  }
}
