package io.hdfl.local;

import io.hdfl.hd.EncoderKind;
import io.hdfl.hd.EncodingPrecision;
import io.hdfl.hd.Similarity;

/** Settings of local (non-federated) training. Build with {@link #builder()}. */
public record TrainingConfig(int dim, EncoderKind encoder, int epochs, Similarity similarity, long seed, int threads,
    EncodingPrecision encodings) {
  public TrainingConfig {
    java.util.Objects.requireNonNull(encodings, "encodings");
    if (dim < 1) {
      throw new IllegalArgumentException("--dim must be >= 1, got " + dim);
    }
    if (epochs < 0) {
      throw new IllegalArgumentException("--epochs must be >= 0, got " + epochs);
    }
    if (threads < 1) {
      throw new IllegalArgumentException("--threads must be >= 1, got " + threads);
    }
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Builder with the documented defaults: D=2000, cos, 20 epochs, cosine, seed 42, all cores, float32. */
  public static final class Builder {
    private int dim = 2000;
    private EncoderKind encoder = EncoderKind.COS;
    private int epochs = 20;
    private Similarity similarity = Similarity.COSINE;
    private long seed = 42L;
    private int threads = Runtime.getRuntime().availableProcessors();
    private EncodingPrecision encodings = EncodingPrecision.FLOAT32;

    public Builder dim(int v) {
      dim = v;
      return this;
    }

    public Builder encoder(EncoderKind v) {
      encoder = v;
      return this;
    }

    public Builder epochs(int v) {
      epochs = v;
      return this;
    }

    public Builder similarity(Similarity v) {
      similarity = v;
      return this;
    }

    public Builder seed(long v) {
      seed = v;
      return this;
    }

    public Builder threads(int v) {
      threads = v;
      return this;
    }

    /** How the training and test encodings are kept. */
    public Builder encodings(EncodingPrecision v) {
      encodings = v;
      return this;
    }

    public TrainingConfig build() {
      return new TrainingConfig(dim, encoder, epochs, similarity, seed, threads, encodings);
    }
  }
}
