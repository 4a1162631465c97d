package io.hdfl.hd;

import io.hdfl.kernels.PackedMatrix;
import io.hdfl.kernels.ParallelRows;
import io.hdfl.kernels.VectorKernels;

/**
 * Maps feature vectors to hypervectors: each sample is L2-normalized, projected on the basis
 * ({@code F·B}, a GEMM for a batch) and passed through the nonlinearity of its {@link EncoderKind}.
 * Every output component lies in [-1, 1], so one sample's hypervector has L2 norm ≤ √D — the
 * sensitivity the privacy engine relies on.
 */
public final class Encoder {
  /** Rows encoded per task: bounds the normalized-input scratch and keeps outputs cache-warm. */
  private static final int CHUNK_ROWS = 256;
  /**
   * Basis columns generated at a time by {@link #encodeOnce}: a multiple of every panel width of the
   * kernels (3 vectors of 4, 8 or 16 floats), so blocks start on panel boundaries.
   */
  static final int STREAM_COLUMNS = 1152;
  /**
   * A remainder of fewer columns than this joins the last whole block of {@link #encodeOnce}: a last
   * block at least this wide (a multiple of every vector width and loop unrolling) keeps the
   * nonlinearity's scalar tail within its last row.
   */
  private static final int MIN_LAST_BLOCK = 128;

  private final EncoderSpec spec;
  private final Basis basis;
  private final VectorKernels kernels;

  public Encoder(EncoderSpec spec, VectorKernels kernels, int threads) {
    this.spec = spec;
    this.kernels = kernels;
    this.basis = Basis.generate(spec.basisSeed(), spec.features(), spec.dim(), kernels, threads);
  }

  public EncoderSpec spec() {
    return spec;
  }

  public int dim() {
    return spec.dim();
  }

  public int features() {
    return spec.features();
  }

  public VectorKernels kernels() {
    return kernels;
  }

  /** Encodes one sample. */
  public float[] encode(float[] sample) {
    float[] out = new float[spec.dim()];
    encode(sample, 1, out, 1);
    return out;
  }

  /**
   * Encodes {@code n} row-major samples of {@link #features()} values into {@code out} ({@code n × D}),
   * with up to {@code threads} threads.
   */
  public void encode(float[] x, int n, float[] out, int threads) {
    checkBatch(spec, x, n, out.length);
    int f = spec.features();
    int chunks = (n + CHUNK_ROWS - 1) / CHUNK_ROWS;
    ParallelRows.run(chunks, threads, 1, 1, (c0, c1) -> {
      float[] scratch = new float[Math.min(n, CHUNK_ROWS) * f];
      for (int c = c0; c < c1; c++) {
        int r0 = c * CHUNK_ROWS;
        encodeRows(x, r0, Math.min(CHUNK_ROWS, n - r0), scratch, out, r0);
      }
    });
  }

  /**
   * Encodes like {@link #encode} and stores each component as an int8 code of {@code scale}
   * (round(h / scale), clamped to ±{@link EncodedSet#MAX_CODE}) in {@code out} ({@code n × D}): the
   * float components exist only per chunk of rows, never for the whole batch.
   */
  void encodeCodes(float[] x, int n, byte[] out, float scale, int threads) {
    checkBatch(spec, x, n, out.length);
    int f = spec.features();
    int d = spec.dim();
    int chunks = (n + CHUNK_ROWS - 1) / CHUNK_ROWS;
    ParallelRows.run(chunks, threads, 1, 1, (c0, c1) -> {
      float[] scratch = new float[Math.min(n, CHUNK_ROWS) * f];
      float[] part = new float[Math.min(n, CHUNK_ROWS) * d];
      for (int c = c0; c < c1; c++) {
        int r0 = c * CHUNK_ROWS;
        int rows = Math.min(CHUNK_ROWS, n - r0);
        encodeRows(x, r0, rows, scratch, part, 0);
        EncodedSet.toCodes(part, 0, rows * d, scale, out, r0 * d);
      }
    });
  }

  /**
   * Encodes samples {@code [r0, r0 + rows)} of {@code x} into rows {@code [outRow, outRow + rows)} of
   * {@code out}; {@code scratch} holds the normalized inputs.
   */
  private void encodeRows(float[] x, int r0, int rows, float[] scratch, float[] out, int outRow) {
    int f = spec.features();
    normalize(kernels, x, r0, rows, f, scratch);
    kernels.project(scratch, 0, rows, f, basis.packed(), out, outRow * spec.dim(), 1);
    applyNonlinearity(spec.kind(), kernels, out, outRow * spec.dim(), rows, spec.dim(), basis.phases(), 0);
  }

  /**
   * Encodes like {@code new Encoder(spec, kernels, threads).encode(x, n, out, threads)}, to the same
   * bits, without ever holding the whole f×D basis: it is generated {@value #STREAM_COLUMNS} columns at
   * a time, each block projected for every sample and then dropped. For a batch encoded once — a
   * device's stored data set, at start — the peak memory is the output plus one block (2.8 MB at
   * f=617) instead of the output plus the basis (25 MB at f=617, D=10000). The basis costs the same to
   * generate; the samples are normalized once per block (cheap next to the projection).
   */
  public static void encodeOnce(EncoderSpec spec, VectorKernels kernels, float[] x, int n, float[] out, int threads) {
    checkBatch(spec, x, n, out.length);
    int d = spec.dim();
    streamOnce(spec, kernels, x, n, threads, (part, rows, w, r0, from) -> {
      for (int r = 0; r < rows; r++) {
        System.arraycopy(part, r * w, out, (r0 + r) * d + from, w);
      }
    });
  }

  /**
   * Encodes like {@link #encodeOnce} and stores each component as an int8 code of {@code scale}, as
   * {@link #encodeCodes} does: the codes are those of the float encoding quantized, but the float
   * components exist only per block of rows and columns. A device's stored data set then needs its n×D
   * codes plus a few blocks, not the n×D floats as well: 5000 samples of 617 features at D=10000
   * encode with a 100 MB heap, where the floats-then-codes path needed 330 MB (and was no faster).
   */
  static void encodeOnceCodes(EncoderSpec spec, VectorKernels kernels, float[] x, int n, byte[] out, float scale,
      int threads) {
    checkBatch(spec, x, n, out.length);
    int d = spec.dim();
    streamOnce(spec, kernels, x, n, threads, (part, rows, w, r0, from) -> {
      for (int r = 0; r < rows; r++) {
        EncodedSet.toCodes(part, r * w, w, scale, out, (r0 + r) * d + from);
      }
    });
  }

  /** Takes the encoded components of rows {@code [r0, r0 + rows)}, columns {@code [from, from + w)}. */
  private interface BlockSink {
    /** {@code part} holds the block row-major, {@code w} values a row. */
    void put(float[] part, int rows, int w, int r0, int from);
  }

  /**
   * Encodes {@code x} a block of basis columns at a time, each block a chunk of rows at a time, and
   * hands each encoded block to {@code sink}. The nonlinearity is applied to each block, so its
   * kernels' scalar tails must fall on the values they fall on when they run over whole rows (a
   * vector cosine and the scalar one can differ in the last bit). They do: every block but the last
   * is {@value #STREAM_COLUMNS} columns, a whole number of vectors, so over a chunk of rows the tail
   * is as long as over whole rows; and the last block is at least {@value #MIN_LAST_BLOCK} columns
   * (or all of D), wider than any tail, so the tail holds the same last values of the chunk's last
   * row. The bits are those of {@link #encode}.
   */
  private static void streamOnce(EncoderSpec spec, VectorKernels kernels, float[] x, int n, int threads,
      BlockSink sink) {
    int f = spec.features();
    int d = spec.dim();
    int chunks = (n + CHUNK_ROWS - 1) / CHUNK_ROWS;
    float[] phases = spec.kind() == EncoderKind.COS_BIAS ? Basis.phases(spec.basisSeed(), d) : null;
    for (int b0 = 0; b0 < d; ) {
      int from = b0;
      int w = d - from < STREAM_COLUMNS + MIN_LAST_BLOCK ? d - from : STREAM_COLUMNS;
      b0 += w;
      PackedMatrix block = Basis.columns(spec.basisSeed(), f, d, from, from + w, kernels, threads);
      // the same row chunks, each projected by one thread, as encode: the same arithmetic per value
      ParallelRows.run(chunks, threads, 1, 1, (c0, c1) -> {
        float[] scratch = new float[Math.min(n, CHUNK_ROWS) * f];
        float[] part = new float[Math.min(n, CHUNK_ROWS) * w];
        for (int c = c0; c < c1; c++) {
          int r0 = c * CHUNK_ROWS;
          int rows = Math.min(CHUNK_ROWS, n - r0);
          normalize(kernels, x, r0, rows, f, scratch);
          kernels.project(scratch, 0, rows, f, block, part, 0, 1);
          applyNonlinearity(spec.kind(), kernels, part, 0, rows, w, phases, from);
          sink.put(part, rows, w, r0, from);
        }
      });
    }
  }

  private static void checkBatch(EncoderSpec spec, float[] x, int n, int outLength) {
    int f = spec.features();
    int d = spec.dim();
    if ((long) n * f > x.length) {
      throw new IllegalArgumentException(n + " samples of " + f + " features need " + (long) n * f
          + " values, got " + x.length);
    }
    if ((long) n * d > outLength) {
      throw new IllegalArgumentException("output holds " + outLength + " values, need " + (long) n * d);
    }
  }

  /** Copies samples {@code [r0, r0 + rows)} into {@code scratch}, each scaled to unit L2 norm. */
  private static void normalize(VectorKernels kernels, float[] x, int r0, int rows, int f, float[] scratch) {
    System.arraycopy(x, r0 * f, scratch, 0, rows * f);
    for (int r = 0; r < rows; r++) {
      float sq = kernels.sumOfSquares(scratch, r * f, f);
      if (sq > 0f && Float.isFinite(sq)) {
        kernels.scale((float) (1.0 / Math.sqrt(sq)), scratch, r * f, f);
      } else if (!Float.isFinite(sq)) {
        throw new IllegalArgumentException("sample " + (r0 + r) + " has a non-finite feature");
      }
    }
  }

  /**
   * The encoder's nonlinearity, in place, on {@code rows} rows of {@code width} projections starting at
   * {@code base} of {@code out}: columns {@code [from, from + width)} of the encoding ({@code phases}
   * is indexed by column).
   */
  private static void applyNonlinearity(EncoderKind kind, VectorKernels kernels, float[] out, int base, int rows,
      int width, float[] phases, int from) {
    switch (kind) {
      case COS:
        kernels.cos(out, base, out, base, rows * width);
        break;
      case SIGN:
        kernels.sign(out, base, out, base, rows * width);
        break;
      case COS_BIAS:
        for (int r = 0; r < rows; r++) {
          kernels.axpy(1f, phases, from, out, base + r * width, width);
        }
        kernels.cos(out, base, out, base, rows * width);
        break;
      default:
        throw new IllegalStateException("unhandled encoder " + kind);
    }
  }

}
