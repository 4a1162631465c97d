package io.hdfl.hd;

/**
 * Everything a peer needs to rebuild an encoder: the kind, the input feature count, the hypervector
 * dimension D and the federation's basis seed.
 */
public record EncoderSpec(EncoderKind kind, int features, int dim, long basisSeed) {
  /** Largest supported feature count and dimension. */
  public static final int MAX_FEATURES = 1 << 20;
  public static final int MAX_DIM = 1 << 20;

  public EncoderSpec {
    if (kind == null) {
      throw new IllegalArgumentException("encoder kind is required");
    }
    if (features < 1 || features > MAX_FEATURES) {
      throw new IllegalArgumentException("features must be in [1, " + MAX_FEATURES + "], got " + features);
    }
    if (dim < 1 || dim > MAX_DIM) {
      throw new IllegalArgumentException("dimension must be in [1, " + MAX_DIM + "], got " + dim);
    }
    if ((long) features * dim > Integer.MAX_VALUE - 16) {
      throw new IllegalArgumentException("basis " + features + "x" + dim + " is too large");
    }
  }
}
