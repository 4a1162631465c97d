package io.hdfl.hd;

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
    int f = spec.features();
    int d = spec.dim();
    if ((long) n * f > x.length) {
      throw new IllegalArgumentException(n + " samples of " + f + " features need " + (long) n * f
          + " values, got " + x.length);
    }
    if ((long) n * d > out.length) {
      throw new IllegalArgumentException("output holds " + out.length + " values, need " + (long) n * d);
    }
    int chunks = (n + CHUNK_ROWS - 1) / CHUNK_ROWS;
    ParallelRows.run(chunks, threads, 1, 1, (c0, c1) -> {
      float[] scratch = new float[Math.min(n, CHUNK_ROWS) * f];
      for (int c = c0; c < c1; c++) {
        int r0 = c * CHUNK_ROWS;
        int rows = Math.min(CHUNK_ROWS, n - r0);
        encodeChunk(x, r0, rows, out, scratch);
      }
    });
  }

  private void encodeChunk(float[] x, int r0, int rows, float[] out, float[] scratch) {
    int f = spec.features();
    int d = spec.dim();
    System.arraycopy(x, r0 * f, scratch, 0, rows * f);
    for (int r = 0; r < rows; r++) {
      float sq = kernels.sumOfSquares(scratch, r * f, f);
      if (sq > 0f && Float.isFinite(sq)) {
        kernels.scale((float) (1.0 / Math.sqrt(sq)), scratch, r * f, f);
      } else if (!Float.isFinite(sq)) {
        throw new IllegalArgumentException("sample " + (r0 + r) + " has a non-finite feature");
      }
    }
    int base = r0 * d;
    kernels.project(scratch, 0, rows, f, basis.packed(), out, base, 1);
    switch (spec.kind()) {
      case COS:
        kernels.cos(out, base, out, base, rows * d);
        break;
      case SIGN:
        kernels.sign(out, base, out, base, rows * d);
        break;
      case COS_BIAS:
        for (int r = 0; r < rows; r++) {
          kernels.axpy(1f, basis.phases(), 0, out, base + r * d, d);
        }
        kernels.cos(out, base, out, base, rows * d);
        break;
      default:
        throw new IllegalStateException("unhandled encoder " + spec.kind());
    }
  }
}
