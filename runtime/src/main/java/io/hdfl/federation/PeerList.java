package io.hdfl.federation;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.TreeSet;

/** Peer ids for a message line: sorted, the first {@value #SHOWN} and how many more (a federation may have hundreds). */
public final class PeerList {
  /** How many ids a line names. */
  static final int SHOWN = 20;

  private PeerList() {}

  /** {@code ids} as {@code [a, b, …]}, or {@code [a, …, t, and N more]} beyond {@value #SHOWN}. */
  public static String of(Collection<String> ids) {
    List<String> sorted = new ArrayList<>(new TreeSet<>(ids));
    return sorted.size() <= SHOWN ? sorted.toString()
        : sorted.subList(0, SHOWN).toString().replace("]", ", and " + (sorted.size() - SHOWN) + " more]");
  }
}
