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

  /**
   * A uniform integer in {@code [0, bound)}. Bounds up to 2^31 use Lemire's multiply-and-reject ("Fast
   * random integer generation in an interval", ACM TOMACS 2019): the high half of r·bound for 32 random
   * bits r, rejecting the r whose low half falls below 2^32 mod bound, so that every value has exactly
   * ⌊2^32/bound⌋ preimages; that rejection is rare (below bound/2^32), so there is no loop to mispredict.
   * Larger bounds take the fewest bits that cover the bound and reject those at or above it.
   */
  final long uniform(long bound) {
    if (bound <= 1) {
      if (bound == 1) {
        return 0;
      }
      throw new IllegalArgumentException("bound must be >= 1, got " + bound);
    }
    if (bound <= 1L << 31) {
      long value;
      do {
        value = multiplyShift(nextBits(32), bound);
      } while (value < 0);
      return value;
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

  /**
   * Lemire's step for 32 random bits r and 2 ≤ bound ≤ 2^31: the high half of r·bound, or −1 when the
   * low half is below 2^32 mod bound (r rejected). Each value in [0, bound) has exactly ⌊2^32/bound⌋
   * accepted r.
   */
  static long multiplyShift(long r, long bound) {
    long m = r * bound;
    long low = m & 0xFFFF_FFFFL;
    if (low < bound && low < (1L << 32) % bound) {
      return -1;
    }
    return m >>> 32;
  }
}
