package io.hdfl.privacy.noise;

/**
 * A stream of uniform random bits, consumed a few at a time by the exact samplers. Subclasses supply
 * 64-bit words; this class hands them out bit by bit so that a fair coin costs one bit, not a word.
 * Not thread-safe.
 */
abstract class RandomBits {
  private long word;
  private int available;

  /** The next 64 uniform bits. */
  protected abstract long nextWord();

  /** A one-line description of where the bits come from. */
  abstract String describe();

  /** Forgets the bits buffered so far (they are never handed out). */
  void discard() {
    word = 0;
    available = 0;
  }

  /** One uniform bit, 0 or 1. */
  final int nextBit() {
    if (available == 0) {
      word = nextWord();
      available = 64;
    }
    int bit = (int) (word & 1);
    word >>>= 1;
    available--;
    return bit;
  }

  /** {@code count} uniform bits (1 ≤ count ≤ 63) as a non-negative long. */
  final long nextBits(int count) {
    if (count <= available) {
      long bits = word & ((1L << count) - 1);
      word >>>= count;
      available -= count;
      return bits;
    }
    int low = available;
    long bits = word; // the low 'low' bits are valid; the rest are already zero after the shifts
    word = nextWord();
    int high = count - low;
    bits |= (word & ((1L << high) - 1)) << low;
    word >>>= high;
    available = 64 - high;
    return bits;
  }

  /** A uniform integer in {@code [0, bound)}, by rejection on the fewest bits that cover the bound. */
  final long uniform(long bound) {
    if (bound <= 1) {
      if (bound == 1) {
        return 0;
      }
      throw new IllegalArgumentException("bound must be >= 1, got " + bound);
    }
    int bits = 64 - Long.numberOfLeadingZeros(bound - 1);
    if (bits == 64) {
      throw new IllegalArgumentException("bound too large: " + bound);
    }
    while (true) {
      long candidate = nextBits(bits);
      if (candidate < bound) {
        return candidate;
      }
    }
  }
}
