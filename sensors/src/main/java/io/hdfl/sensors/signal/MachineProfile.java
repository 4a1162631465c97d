package io.hdfl.sensors.signal;

/**
 * What distinguishes one simulated machine from another (so federated peers are non-IID): sensor
 * gains and calibration offsets, noise level, ambient temperature, workpiece material, tool life,
 * fixture position, nominal feed and spindle speed, and the mix of quality classes. Derived
 * deterministically from the seed and the machine index.
 */
final class MachineProfile {

  /** Base class mix (nominal, under-drilling, over-drilling) before the per-machine tilt. */
  private static final double[] BASE_MIX = {0.5, 0.25, 0.25};

  final double[] gain = new double[MachiningChannels.COUNT];
  final double[] offset = new double[MachiningChannels.COUNT];
  final double[] noise = new double[MachiningChannels.COUNT];
  final double[] classWeights;
  final double ambientC;
  final double hardness;
  final int toolLifeCycles;
  final int toolAgeAtStart;
  final double originX;
  final double originY;
  final double feedMmPerS;
  final double spindleRpm;

  MachineProfile(long seed, int machine, double[] classWeightsOrNull) {
    SeededRandom r = SeededRandom.of(seed, 0x5EED_0000L + machine);
    double noiseFactor = r.uniform(0.8, 1.3);
    for (int c = 0; c < MachiningChannels.COUNT; c++) {
      double scale = MachiningChannels.scale(c);
      boolean measured = scale > 0;
      // Encoder-based speeds are nearly exact; analog and model-based signals drift by a few percent.
      double gainSd = c % MachiningChannels.SIGNALS == MachiningChannels.ACT_SPEED ? 0.002 : 0.03;
      gain[c] = measured ? 1 + r.gaussian(0, gainSd) : 1;
      offset[c] = measured ? r.gaussian(0, 0.03) * scale : 0;
      noise[c] = MachiningChannels.noise(c) * noiseFactor;
    }
    ambientC = r.uniform(18, 28);
    hardness = 1 + r.gaussian(0, 0.04);
    toolLifeCycles = 50 + (int) (r.nextDouble() * 100);
    toolAgeAtStart = (int) (r.nextDouble() * toolLifeCycles);
    originX = r.uniform(0, 50);
    originY = r.uniform(0, 50);
    feedMmPerS = r.uniform(9, 11);
    spindleRpm = r.uniform(3600, 4400);
    if (classWeightsOrNull != null) {
      classWeights = classWeightsOrNull.clone();
    } else {
      classWeights = new double[BASE_MIX.length];
      for (int k = 0; k < BASE_MIX.length; k++) {
        classWeights[k] = BASE_MIX[k] * StrictMath.exp(r.gaussian(0, 0.6));
      }
    }
    double sum = 0;
    for (double w : classWeights) {
      sum += w;
    }
    for (int k = 0; k < classWeights.length; k++) {
      classWeights[k] /= sum;
    }
  }

  /** A class drawn from this machine's mix. */
  int drawClass(SeededRandom r) {
    double u = r.nextDouble();
    for (int k = 0; k < classWeights.length - 1; k++) {
      u -= classWeights[k];
      if (u < 0) {
        return k;
      }
    }
    return classWeights.length - 1;
  }

  /** Tool wear in [0, 1) during cycle {@code cycle}: grows linearly, back to 0 at each tool change. */
  double wear(long cycle) {
    return (double) ((cycle + toolAgeAtStart) % toolLifeCycles) / toolLifeCycles;
  }
}
