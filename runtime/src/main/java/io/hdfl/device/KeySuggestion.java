package io.hdfl.device;

import java.util.Collection;
import java.util.Optional;

/**
 * The known configuration key an unknown one was probably meant to be: one within two edits
 * ({@code brokr} for {@code broker}), or the known key it extends or shortens by dotted parts
 * ({@code epochs.count} for {@code epochs}). An operator told "did you mean 'broker'?" fixes a typo
 * faster than one handed the list of every key. Peer ids are matched the same way ({@link
 * PeerAnnouncements}: a peer online under an id near one that never came).
 */
final class KeySuggestion {
  /** Keys longer than this are not compared (the distance costs their lengths' product). */
  private static final int MAX_LENGTH = 64;

  private KeySuggestion() {}

  /** The nearest of {@code known} to {@code key}, if one is near enough; ties go to the first in sort order. */
  static Optional<String> nearest(String key, Collection<String> known) {
    if (key.length() > MAX_LENGTH) {
      return Optional.empty();
    }
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String k : new java.util.TreeSet<>(known)) {
      int d = k.length() > MAX_LENGTH ? Integer.MAX_VALUE : distance(key, k);
      if (d < bestDistance) {
        best = k;
        bestDistance = d;
      }
    }
    if (best != null && bestDistance <= 2 && bestDistance < key.length()) {
      return Optional.of(best);
    }
    for (String k : new java.util.TreeSet<>(known)) {
      if (key.startsWith(k + ".") || k.startsWith(key + ".")) {
        return Optional.of(k);
      }
    }
    return Optional.empty();
  }

  /** Levenshtein distance: insertions, deletions and substitutions of one character each. */
  static int distance(String a, String b) {
    int[] prev = new int[b.length() + 1];
    int[] cur = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      prev[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      cur[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int substitute = prev[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        cur[j] = Math.min(substitute, Math.min(prev[j], cur[j - 1]) + 1);
      }
      int[] t = prev;
      prev = cur;
      cur = t;
    }
    return prev[b.length()];
  }
}
