package io.hdfl.federation;

import java.util.Locale;

/** How models travel: around a ring (PrivateDFL) or through an aggregator (FedHDPrivacy). */
public enum Topology {
  RING,
  STAR;

  public String id() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static Topology parse(String s) {
    for (Topology t : values()) {
      if (t.id().equals(s.trim().toLowerCase(Locale.ROOT))) {
        return t;
      }
    }
    throw new IllegalArgumentException("unknown topology '" + s + "' (expected ring or star)");
  }
}
