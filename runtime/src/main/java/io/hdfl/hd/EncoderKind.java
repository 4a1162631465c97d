package io.hdfl.hd;

import java.util.Locale;

/** How a projection F·B becomes a hypervector. Every kind bounds each component to [-1, 1]. */
public enum EncoderKind {
  /** h = cos(F·B) (PrivateDFL). */
  COS("cos", 0),
  /** h = sign(F·B) ∈ {-1, +1} (FedHDPrivacy's binarized random projection). */
  SIGN("sign", 1),
  /** h = cos(F·B + b), b ~ U(0, 2π) (random Fourier features). */
  COS_BIAS("cos-bias", 2);

  private final String id;
  private final int code;

  EncoderKind(String id, int code) {
    this.id = id;
    this.code = code;
  }

  /** The name used in configuration and on the command line. */
  public String id() {
    return id;
  }

  /** The byte stored in model files. */
  int code() {
    return code;
  }

  static EncoderKind fromCode(int code) {
    for (EncoderKind k : values()) {
      if (k.code == code) {
        return k;
      }
    }
    throw new IllegalArgumentException("unknown encoder code " + code);
  }

  /** Parses {@code cos}, {@code sign} or {@code cos-bias}. */
  public static EncoderKind parse(String s) {
    String v = s.trim().toLowerCase(Locale.ROOT).replace('_', '-');
    for (EncoderKind k : values()) {
      if (k.id.equals(v)) {
        return k;
      }
    }
    throw new IllegalArgumentException("unknown encoder '" + s + "' (expected cos, sign or cos-bias)");
  }

  @Override
  public String toString() {
    return id;
  }
}
