package io.hdfl.sensors.signal;

/**
 * A fully specified pseudo-random generator, so a seed gives the same stream on every JDK and CPU:
 * SplitMix64 (Steele, Lea, Flood 2014) for bits, 53-bit doubles, and Box–Muller Gaussians computed
 * with {@link StrictMath} (whose results are bit-for-bit reproducible, unlike {@link Math}'s
 * intrinsics). {@code java.util.Random} is reproducible too but slower and its Gaussian in other
 * generators is not specified. Not thread-safe.
 */
final class SeededRandom {

  private long state;
  private double spare;
  private boolean hasSpare;

  SeededRandom(long seed) {
    this.state = seed;
  }

  /** A generator for stream {@code stream} of {@code seed}: streams of one seed are independent. */
  static SeededRandom of(long seed, long stream) {
    return new SeededRandom(mix(seed ^ mix(stream + 0x632BE59BD9B4E019L)));
  }

  long nextLong() {
    return mix(state += 0x9E3779B97F4A7C15L);
  }

  /** Uniform in [0, 1). */
  double nextDouble() {
    return (nextLong() >>> 11) * 0x1.0p-53;
  }

  /** Uniform in [lo, hi). */
  double uniform(double lo, double hi) {
    return lo + (hi - lo) * nextDouble();
  }

  /** Standard normal. */
  double nextGaussian() {
    if (hasSpare) {
      hasSpare = false;
      return spare;
    }
    double u = 1.0 - nextDouble();
    double v = nextDouble();
    double r = StrictMath.sqrt(-2.0 * StrictMath.log(u));
    double a = 2 * Math.PI * v;
    spare = r * StrictMath.sin(a);
    hasSpare = true;
    return r * StrictMath.cos(a);
  }

  /** Normal with mean {@code mean} and standard deviation {@code sd}. */
  double gaussian(double mean, double sd) {
    return mean + sd * nextGaussian();
  }

  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
