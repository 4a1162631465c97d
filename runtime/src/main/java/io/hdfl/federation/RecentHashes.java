package io.hdfl.federation;

/**
 * The ledger hashes a ring peer saw last, for fork detection: a fixed number of them, oldest
 * forgotten first, each kept as the 64-bit number of its first 16 hex digits.
 *
 * <p>Fixed memory, and nothing allocated per hash: a peer that keeps every hash as a string in a set
 * grows without end, by about 300 bytes per step of the federation, and in a simulation those
 * long-lived strings are most of what every young collection copies (Fashion-MNIST ring, K=100:
 * 6-12 ms pauses every 70 ms instead of 1.5-3 ms every 150 ms).
 *
 * <p>A 64-bit prefix of a SHA-256 stands for the hash: two different ledger lines share one with a
 * probability of 2⁻⁶⁴ per pair, and fork detection is a safeguard against stale copies, not a
 * security check (the ledger verifier checks every hash in full).
 */
final class RecentHashes {
  private final long[] keys;
  private int next;
  private int size;

  /** @param capacity how many hashes are remembered (at least 1) */
  RecentHashes(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity must be at least 1, got " + capacity);
    }
    keys = new long[capacity];
  }

  /** Remembers the hash whose 64 lower-case hex digits start at {@code from} in {@code text}. */
  void add(CharSequence text, int from) {
    keys[next] = key(text, from);
    next = next + 1 == keys.length ? 0 : next + 1;
    size = Math.min(size + 1, keys.length);
  }

  /** Remembers {@code hash} (64 lower-case hex digits). */
  void add(String hash) {
    add(hash, 0);
  }

  /** Whether the hash at {@code from} in {@code text} is among the remembered ones. */
  boolean contains(CharSequence text, int from) {
    long k = key(text, from);
    for (int i = 0; i < size; i++) {
      if (keys[i] == k) {
        return true;
      }
    }
    return false;
  }

  /** Whether {@code hash} (64 lower-case hex digits) is among the remembered ones. */
  boolean contains(String hash) {
    return contains(hash, 0);
  }

  /** How many hashes are remembered. */
  int size() {
    return size;
  }

  /** The first 16 hex digits at {@code from}, as a number; the caller has checked that they are hex digits. */
  static long key(CharSequence text, int from) {
    if (from < 0 || from + 16 > text.length()) {
      throw new IllegalArgumentException("no 16 hex digits at " + from + " of a text of " + text.length());
    }
    long k = 0;
    for (int i = from; i < from + 16; i++) {
      char c = text.charAt(i);
      int digit = c <= '9' ? c - '0' : c - 'a' + 10;
      if (digit < 0 || digit > 15) {
        throw new IllegalArgumentException("not a lower-case hex digit: '" + c + "'");
      }
      k = k << 4 | digit;
    }
    return k;
  }
}
