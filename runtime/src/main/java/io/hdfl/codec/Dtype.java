package io.hdfl.codec;

/** How the tensor of an envelope is stored on the wire (the header's {@code dtype}). */
public enum Dtype {
  /** IEEE-754 binary32, little-endian: exact. The default. */
  FLOAT32(0, 4),
  /** bfloat16, little-endian: the float32 value rounded to nearest even, 8 significant bits. */
  BFLOAT16(1, 2);

  private final int code;
  private final int bytesPerValue;

  Dtype(int code, int bytesPerValue) {
    this.code = code;
    this.bytesPerValue = bytesPerValue;
  }

  /** The value of the protobuf enum {@code hdfl.codec.v1.Dtype}. */
  public int code() {
    return code;
  }

  public int bytesPerValue() {
    return bytesPerValue;
  }

  /** The dtype with protobuf enum value {@code code}, or null if this build does not know it. */
  static Dtype fromCode(long code) {
    for (Dtype d : values()) {
      if (d.code == code) {
        return d;
      }
    }
    return null;
  }
}
