package io.hdfl.codec;

import java.util.Objects;

/**
 * What a receiver accepts: size limits, checked before anything proportional to a claimed size is
 * allocated, and the model it expects (federation, encoder, features, basis seed, D, S), each of
 * which may be left unset ("don't care"). Federation applies to every kind; the model fields to
 * every kind but {@link ModelEnvelope.Kind#ACK}, whose dimensions are informative only.
 *
 * <pre>{@code
 * Expectations expect = Expectations.builder()
 *     .federation("plant-7").encoder("cos").features(617).basisSeed(42).dim(2000).classes(26)
 *     .maxFrameBytes(4 << 20)
 *     .build();
 * }</pre>
 */
public final class Expectations {
  /** Default maximum frame: 32 MiB. */
  public static final int DEFAULT_MAX_FRAME_BYTES = 32 << 20;
  /** Default maximum header: 4 MiB (the ledger lines dominate). */
  public static final int DEFAULT_MAX_HEADER_BYTES = 4 << 20;
  /** Default maximum ledger lines per envelope. */
  public static final int DEFAULT_MAX_LEDGER_LINES = 4096;
  /** Default maximum ledger line: 64 KiB of UTF-8 (an aggregate line names every contributor's hash). */
  public static final int DEFAULT_MAX_LEDGER_LINE_BYTES = 64 << 10;
  /** Default maximum D (as {@code EncoderSpec.MAX_DIM}). */
  public static final int DEFAULT_MAX_DIM = 1 << 20;
  /** Default maximum S. */
  public static final int DEFAULT_MAX_CLASSES = 1 << 16;
  /** Default maximum S·D: 2^23 values (32 MiB as float32). */
  public static final long DEFAULT_MAX_VALUES = 1L << 23;

  private final int maxFrameBytes;
  private final int maxHeaderBytes;
  private final int maxLedgerLines;
  private final int maxLedgerLineBytes;
  private final int maxDim;
  private final int maxClasses;
  private final long maxValues;
  private final String federation;
  private final String encoder;
  private final Integer features;
  private final Long basisSeed;
  private final Integer dim;
  private final Integer classes;

  private Expectations(Builder b) {
    maxFrameBytes = b.maxFrameBytes;
    maxHeaderBytes = b.maxHeaderBytes;
    maxLedgerLines = b.maxLedgerLines;
    maxLedgerLineBytes = b.maxLedgerLineBytes;
    maxDim = b.maxDim;
    maxClasses = b.maxClasses;
    maxValues = b.maxValues;
    federation = b.federation;
    encoder = b.encoder;
    features = b.features;
    basisSeed = b.basisSeed;
    dim = b.dim;
    classes = b.classes;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Default limits, no expectations. */
  public static Expectations defaults() {
    return builder().build();
  }

  public int maxFrameBytes() {
    return maxFrameBytes;
  }

  public int maxHeaderBytes() {
    return maxHeaderBytes;
  }

  public int maxLedgerLines() {
    return maxLedgerLines;
  }

  public int maxLedgerLineBytes() {
    return maxLedgerLineBytes;
  }

  public int maxDim() {
    return maxDim;
  }

  public int maxClasses() {
    return maxClasses;
  }

  public long maxValues() {
    return maxValues;
  }

  /** Expected federation, or null for any. */
  public String federation() {
    return federation;
  }

  /** Expected encoder id, or null for any. */
  public String encoder() {
    return encoder;
  }

  /** Expected feature count, or null for any. */
  public Integer features() {
    return features;
  }

  /** Expected basis seed, or null for any. */
  public Long basisSeed() {
    return basisSeed;
  }

  /** Expected D, or null for any. */
  public Integer dim() {
    return dim;
  }

  /** Expected S, or null for any. */
  public Integer classes() {
    return classes;
  }

  /** Builder; every limit starts at its default and every expectation at "don't care". */
  public static final class Builder {
    private int maxFrameBytes = DEFAULT_MAX_FRAME_BYTES;
    private int maxHeaderBytes = DEFAULT_MAX_HEADER_BYTES;
    private int maxLedgerLines = DEFAULT_MAX_LEDGER_LINES;
    private int maxLedgerLineBytes = DEFAULT_MAX_LEDGER_LINE_BYTES;
    private int maxDim = DEFAULT_MAX_DIM;
    private int maxClasses = DEFAULT_MAX_CLASSES;
    private long maxValues = DEFAULT_MAX_VALUES;
    private String federation;
    private String encoder;
    private Integer features;
    private Long basisSeed;
    private Integer dim;
    private Integer classes;

    private Builder() {}

    public Builder maxFrameBytes(int v) {
      maxFrameBytes = positive("maxFrameBytes", v);
      return this;
    }

    public Builder maxHeaderBytes(int v) {
      maxHeaderBytes = positive("maxHeaderBytes", v);
      return this;
    }

    /** Maximum ledger lines per envelope (0 allowed: accept none). */
    public Builder maxLedgerLines(int v) {
      if (v < 0) {
        throw new IllegalArgumentException("maxLedgerLines must be >= 0, got " + v);
      }
      maxLedgerLines = v;
      return this;
    }

    /** Maximum UTF-8 bytes of one ledger line. */
    public Builder maxLedgerLineBytes(int v) {
      maxLedgerLineBytes = positive("maxLedgerLineBytes", v);
      return this;
    }

    public Builder maxDim(int v) {
      maxDim = positive("maxDim", v);
      return this;
    }

    public Builder maxClasses(int v) {
      maxClasses = positive("maxClasses", v);
      return this;
    }

    /** Maximum S·D. */
    public Builder maxValues(long v) {
      if (v < 1) {
        throw new IllegalArgumentException("maxValues must be >= 1, got " + v);
      }
      maxValues = v;
      return this;
    }

    /** Expected federation id; null = any. */
    public Builder federation(String v) {
      federation = v;
      return this;
    }

    /** Expected encoder id ({@code cos}, {@code sign}, {@code cos-bias}); null = any. */
    public Builder encoder(String v) {
      encoder = v;
      return this;
    }

    /** Expected feature count; null = any. */
    public Builder features(Integer v) {
      features = v;
      return this;
    }

    /** Expected basis seed; null = any. */
    public Builder basisSeed(Long v) {
      basisSeed = v;
      return this;
    }

    /** Expected D; null = any. */
    public Builder dim(Integer v) {
      dim = v;
      return this;
    }

    /** Expected S; null = any. */
    public Builder classes(Integer v) {
      classes = v;
      return this;
    }

    public Expectations build() {
      return new Expectations(this);
    }

    private static int positive(String name, int v) {
      if (v < 1) {
        throw new IllegalArgumentException(name + " must be >= 1, got " + v);
      }
      return v;
    }
  }

  @Override
  public String toString() {
    return "Expectations[federation=" + federation + ", encoder=" + encoder + ", features=" + features
        + ", basisSeed=" + basisSeed + ", dim=" + dim + ", classes=" + classes + ", maxFrameBytes=" + maxFrameBytes
        + ", maxHeaderBytes=" + maxHeaderBytes + ", maxLedgerLines=" + maxLedgerLines + ", maxLedgerLineBytes="
        + maxLedgerLineBytes + ", maxDim=" + maxDim + ", maxClasses=" + maxClasses + ", maxValues=" + maxValues + "]";
  }

  static boolean matches(Object expected, Object actual) {
    return expected == null || Objects.equals(expected, actual);
  }
}
