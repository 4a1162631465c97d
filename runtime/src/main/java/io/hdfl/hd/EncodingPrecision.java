package io.hdfl.hd;

import java.util.Locale;

/**
 * How a peer keeps its cached encodings: as float32, or as int8 codes ({@link EncodedSet#quantize}),
 * a quarter of the memory and of the memory traffic of every retraining pass, each component within
 * 1/254 of its float value (the {@code sign} encoder's ±1 exactly). Models, noise and envelopes are
 * float32 either way.
 */
public enum EncodingPrecision {
  FLOAT32("float32"),
  INT8("int8");

  private final String id;

  EncodingPrecision(String id) {
    this.id = id;
  }

  public String id() {
    return id;
  }

  /** {@code set} in this precision. */
  public EncodedSet apply(EncodedSet set) {
    return this == INT8 ? set.quantize() : set;
  }

  /** Parses {@code float32} or {@code int8}. */
  public static EncodingPrecision parse(String s) {
    String v = s.trim().toLowerCase(Locale.ROOT);
    for (EncodingPrecision p : values()) {
      if (p.id.equals(v)) {
        return p;
      }
    }
    throw new IllegalArgumentException("unknown encodings '" + s + "' (expected float32 or int8)");
  }

  @Override
  public String toString() {
    return id;
  }
}
