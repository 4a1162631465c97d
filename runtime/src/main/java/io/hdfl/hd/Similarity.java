package io.hdfl.hd;

import java.util.Locale;

/** How a query hypervector is scored against class prototypes. */
public enum Similarity {
  /** cos(C_s, H) — what the papers specify (default). */
  COSINE("cosine", 0),
  /** C_s · H — what the released PrivateDFL notebook scores with. */
  DOT("dot", 1);

  private final String id;
  private final int code;

  Similarity(String id, int code) {
    this.id = id;
    this.code = code;
  }

  public String id() {
    return id;
  }

  int code() {
    return code;
  }

  static Similarity fromCode(int code) {
    for (Similarity s : values()) {
      if (s.code == code) {
        return s;
      }
    }
    throw new IllegalArgumentException("unknown similarity code " + code);
  }

  /** Parses {@code cosine} or {@code dot}. */
  public static Similarity parse(String s) {
    String v = s.trim().toLowerCase(Locale.ROOT);
    for (Similarity k : values()) {
      if (k.id.equals(v)) {
        return k;
      }
    }
    throw new IllegalArgumentException("unknown similarity '" + s + "' (expected cosine or dot)");
  }

  @Override
  public String toString() {
    return id;
  }
}
