package io.hdfl.privacy.noise;

import java.util.SplittableRandom;

/** Reproducible bits for deterministic tests of the exact samplers. */
final class SeededBits extends RandomBits {
  private final SplittableRandom rng;
  long words;

  SeededBits(long seed) {
    rng = new SplittableRandom(seed);
  }

  @Override
  protected long nextWord() {
    words++;
    return rng.nextLong();
  }

  @Override
  String describe() {
    return "test bits";
  }
}
