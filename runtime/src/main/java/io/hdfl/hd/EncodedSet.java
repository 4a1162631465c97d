package io.hdfl.hd;

import io.hdfl.kernels.VectorKernels;

/**
 * A labelled data set in hypervector form, encoded once and reused by every training epoch and
 * round (the basis is fixed per federation, so encodings never change).
 *
 * <p>The hypervectors are stored as float32, or as int8 codes ({@link #quantize()}): component = code
 * × {@link #scale()}, a quarter of the memory and of the memory traffic of every retraining pass.
 * Training and inference go through {@link #scoresAt}, {@link #score}, {@link #scores} and {@link
 * #addTo}, which work on either form; scores are in the units of the components.
 */
public final class EncodedSet {
  /** The largest code: components in [-1, 1] are stored as round(127 x) with scale 1/127. */
  public static final int MAX_CODE = 127;

  private final float[] vectors;
  private final byte[] codes;
  private final float scale;
  private final int size;
  private final int dim;
  private final int[] labels;
  private final int classes;
  private final double[] squaredNorms;

  private EncodedSet(float[] vectors, int size, int dim, int[] labels, int classes) {
    this.vectors = vectors;
    this.codes = null;
    this.scale = 1f;
    this.size = size;
    this.dim = dim;
    this.labels = labels;
    this.classes = classes;
    this.squaredNorms = new double[size];
    for (int i = 0; i < size; i++) {
      double s = 0;
      for (int j = i * dim, end = j + dim; j < end; j++) {
        s += (double) vectors[j] * vectors[j];
      }
      squaredNorms[i] = s;
    }
  }

  private EncodedSet(byte[] codes, float scale, int size, int dim, int[] labels, int classes) {
    this.vectors = null;
    this.codes = codes;
    this.scale = scale;
    this.size = size;
    this.dim = dim;
    this.labels = labels;
    this.classes = classes;
    this.squaredNorms = new double[size];
    double s2 = (double) scale * scale;
    for (int i = 0; i < size; i++) {
      long s = 0;
      for (int j = i * dim, end = j + dim; j < end; j++) {
        s += codes[j] * codes[j];
      }
      squaredNorms[i] = s * s2;
    }
  }

  /** Encodes {@code n} samples (row-major {@code features}) with their labels in [0, classes). */
  public static EncodedSet encode(Encoder encoder, float[] features, int n, int[] labels, int classes, int threads) {
    float[] out = allocate(encoder.spec(), n, labels, classes);
    encoder.encode(features, n, out, threads);
    return new EncodedSet(out, n, encoder.dim(), java.util.Arrays.copyOf(labels, n), classes);
  }

  /**
   * Encodes {@code n} samples in {@code precision}. For int8 the codes are those of {@code encode(...)
   * .quantize()} (scale 1 for the {@code sign} encoder's ±1, 1/127 for the others, whose components
   * are in [-1, 1]), but the float components are held a chunk of rows at a time, never all at once.
   */
  public static EncodedSet encode(Encoder encoder, float[] features, int n, int[] labels, int classes, int threads,
      EncodingPrecision precision) {
    if (precision == EncodingPrecision.FLOAT32) {
      return encode(encoder, features, n, labels, classes, threads);
    }
    return encodeToCodes(encoder.spec(), n, labels, classes,
        (codes, scale) -> encoder.encodeCodes(features, n, codes, scale, threads));
  }

  /** Writes the int8 codes of {@code scale} of a batch into {@code codes}. */
  private interface CodeWriter {
    void write(byte[] codes, float scale);
  }

  /**
   * A set of {@code n} samples encoded straight to int8 by {@code writer}, at the scale {@link
   * #quantize()} gives such encodings: 1 for the {@code sign} encoder's ±1, 1/127 for the others,
   * whose components are in [-1, 1].
   */
  private static EncodedSet encodeToCodes(EncoderSpec spec, int n, int[] labels, int classes, CodeWriter writer) {
    byte[] codes = new byte[checkedSize(spec, n, labels, classes)];
    float scale = spec.kind() == EncoderKind.SIGN ? 1f : 1f / MAX_CODE;
    writer.write(codes, scale);
    return new EncodedSet(codes, scale, n, spec.dim(), java.util.Arrays.copyOf(labels, n), classes);
  }

  /**
   * Encodes like {@link #encode} with an encoder of {@code spec}, to the same bits, without holding the
   * whole basis ({@link Encoder#encodeOnce}): for a data set encoded once, such as a device's stored
   * samples, whose encoder is not needed afterwards.
   */
  public static EncodedSet encodeOnce(EncoderSpec spec, VectorKernels kernels, float[] features, int n, int[] labels,
      int classes, int threads) {
    float[] out = allocate(spec, n, labels, classes);
    Encoder.encodeOnce(spec, kernels, features, n, out, threads);
    return new EncodedSet(out, n, spec.dim(), java.util.Arrays.copyOf(labels, n), classes);
  }

  /**
   * Encodes like {@link #encodeOnce(EncoderSpec, VectorKernels, float[], int, int[], int, int)} in
   * {@code precision}; for int8, the codes of {@link #encode(Encoder, float[], int, int[], int, int,
   * EncodingPrecision)}, with the float components held only a block of rows and columns at a time.
   */
  public static EncodedSet encodeOnce(EncoderSpec spec, VectorKernels kernels, float[] features, int n, int[] labels,
      int classes, int threads, EncodingPrecision precision) {
    if (precision == EncodingPrecision.FLOAT32) {
      return encodeOnce(spec, kernels, features, n, labels, classes, threads);
    }
    return encodeToCodes(spec, n, labels, classes,
        (codes, scale) -> Encoder.encodeOnceCodes(spec, kernels, features, n, codes, scale, threads));
  }

  private static float[] allocate(EncoderSpec spec, int n, int[] labels, int classes) {
    return new float[checkedSize(spec, n, labels, classes)];
  }

  /** n × D, after checking the labels and that so many values fit in one array. */
  private static int checkedSize(EncoderSpec spec, int n, int[] labels, int classes) {
    if (n < 1) {
      throw new IllegalArgumentException("cannot encode an empty data set");
    }
    if (labels.length < n) {
      throw new IllegalArgumentException(n + " samples but " + labels.length + " labels");
    }
    for (int i = 0; i < n; i++) {
      if (labels[i] < 0 || labels[i] >= classes) {
        throw new IllegalArgumentException("label " + labels[i] + " of sample " + i + " outside [0, " + classes + ")");
      }
    }
    long size = (long) n * spec.dim();
    if (size > Integer.MAX_VALUE - 16) {
      throw new IllegalArgumentException(n + " samples at D=" + spec.dim() + " exceed the largest array;"
          + " encode in parts or lower --dim");
    }
    return (int) size;
  }

  /** Wraps existing hypervectors (not copied). */
  public static EncodedSet of(float[] vectors, int n, int dim, int[] labels, int classes) {
    if ((long) n * dim > vectors.length || labels.length < n) {
      throw new IllegalArgumentException("vectors or labels too short for " + n + " x " + dim);
    }
    return new EncodedSet(vectors, n, dim, labels, classes);
  }

  /**
   * This set followed by {@code more} (same D and classes), copied, in this set's form: appended to an
   * int8 set, {@code more} is quantized with this set's scale, except that an empty int8 set gives
   * {@code more} quantized with its own ({@code more} itself if it is int8: sets are not changed).
   */
  public EncodedSet concat(EncodedSet more) {
    if (more.dim != dim || more.classes != classes) {
      throw new IllegalArgumentException("cannot append D=" + more.dim + ", S=" + more.classes + " to D=" + dim + ", S="
          + classes);
    }
    if (size == 0 && codes != null) {
      return more.quantize(); // an empty int8 set has no scale of its own: the rows get theirs
    }
    int[] l = new int[size + more.size];
    System.arraycopy(labels, 0, l, 0, size);
    System.arraycopy(more.labels, 0, l, size, more.size);
    Object all = newStorage(size + more.size);
    System.arraycopy(storage(), 0, all, 0, size * dim);
    Object appended = codes == null ? more.floats()
        : more.codes != null && more.scale == scale ? more.codes : more.codesWith(scale);
    System.arraycopy(appended, 0, all, size * dim, more.size * dim);
    return withRows(all, size + more.size, l);
  }

  /**
   * The last {@code n} rows, copied, in this set's form and scale; this set itself when it has no more
   * than {@code n}.
   */
  public EncodedSet latest(int n) {
    if (n < 0) {
      throw new IllegalArgumentException("cannot keep " + n + " rows");
    }
    if (n >= size) {
      return this;
    }
    int from = size - n;
    Object rows = newStorage(n);
    System.arraycopy(storage(), from * dim, rows, 0, n * dim);
    return withRows(rows, n, java.util.Arrays.copyOfRange(labels, from, size));
  }

  /** The rows at {@code indices}, copied, in this set's form. */
  public EncodedSet subset(int[] indices) {
    int[] l = new int[indices.length];
    Object rows = newStorage(indices.length);
    for (int i = 0; i < indices.length; i++) {
      l[i] = labels[indices[i]];
      System.arraycopy(storage(), indices[i] * dim, rows, i * dim, dim);
    }
    return withRows(rows, indices.length, l);
  }

  /** The components as stored: the int8 codes or the floats. */
  private Object storage() {
    return codes != null ? codes : vectors;
  }

  /** Storage of this set's form for {@code rows} samples. */
  private Object newStorage(int rows) {
    return codes != null ? new byte[rows * dim] : new float[rows * dim];
  }

  /** A set of this set's form (and scale) over {@code storage} from {@link #newStorage}. */
  private EncodedSet withRows(Object storage, int rows, int[] labels) {
    return codes != null ? new EncodedSet((byte[]) storage, scale, rows, dim, labels, classes)
        : new EncodedSet((float[]) storage, rows, dim, labels, classes);
  }

  /**
   * This set with int8 codes (itself if it has them). Components that are all integers in [-127, 127]
   * (the {@code sign} encoder's ±1) are kept exactly, with scale 1; otherwise the scale is 1/127 of the
   * largest magnitude, at least 1/127, so every encoder's components in [-1, 1] become round(127 x)
   * and stay in [-1, 1] (the sensitivity the noise is calibrated to), with an error of at most 1/254.
   */
  public EncodedSet quantize() {
    if (codes != null) {
      return this;
    }
    boolean integral = true;
    double max = 0;
    for (int i = 0; i < size * dim; i++) {
      float x = vectors[i];
      if (x != Math.rint(x) || Math.abs(x) > MAX_CODE) {
        integral = false;
      }
      max = Math.max(max, Math.abs(x));
    }
    float s = integral ? 1f : (float) (Math.max(1.0, max) / MAX_CODE);
    return new EncodedSet(codesWith(s), s, size, dim, labels, classes);
  }

  /** Whether the components are stored as int8 codes. */
  public boolean quantized() {
    return codes != null;
  }

  /** The component value of code 1 (1 for a float32 set). */
  public float scale() {
    return scale;
  }

  /** The components as codes of {@code s}: round(x / s), clamped to ±{@link #MAX_CODE}. */
  private byte[] codesWith(float s) {
    byte[] c = new byte[size * dim];
    toCodes(floats(), 0, c.length, s, c, 0);
    return c;
  }

  /** {@code out[outOff + i] = round(v[i] / s)}, clamped to ±{@link #MAX_CODE}, for i < n. */
  static void toCodes(float[] v, int off, int n, float s, byte[] out, int outOff) {
    for (int i = 0; i < n; i++) {
      out[outOff + i] = (byte) Math.max(-MAX_CODE, Math.min(MAX_CODE, Math.round(v[off + i] / s)));
    }
  }

  /** The components as floats (a copy for an int8 set). */
  private float[] floats() {
    if (vectors != null) {
      return vectors;
    }
    float[] v = new float[size * dim];
    for (int i = 0; i < v.length; i++) {
      v[i] = codes[i] * scale;
    }
    return v;
  }

  public int size() {
    return size;
  }

  public int dim() {
    return dim;
  }

  public int classes() {
    return classes;
  }

  public int label(int i) {
    return labels[i];
  }

  /** A copy of the labels. */
  public int[] labels() {
    return labels.clone();
  }

  /** Offset of sample {@code i} in {@link #vectors()}. */
  public int offset(int i) {
    return i * dim;
  }

  /**
   * The live row-major hypervectors of a float32 set. Callers must not modify them.
   *
   * @throws IllegalStateException for an int8 set (use the scoring methods, or {@link #row})
   */
  public float[] vectors() {
    if (vectors == null) {
      throw new IllegalStateException("this set holds int8 codes, not float32 vectors");
    }
    return vectors;
  }

  /** Sample {@code i}'s hypervector, copied (components of an int8 set decoded). */
  public float[] row(int i) {
    float[] h = new float[dim];
    if (vectors != null) {
      System.arraycopy(vectors, i * dim, h, 0, dim);
    } else {
      for (int j = 0; j < dim; j++) {
        h[j] = codes[i * dim + j] * scale;
      }
    }
    return h;
  }

  /** |H_i|², precomputed in double. */
  public double squaredNorm(int i) {
    return squaredNorms[i];
  }

  /**
   * The {@code n} samples at {@code offsets[0..n)} ({@link #offset}s) scored against the {@code s}
   * prototypes: {@code out[k*s + c]} for the one at {@code offsets[k]}, each bit for bit what {@link
   * #score} and {@link #scores} give for that sample alone.
   */
  public void scoresAt(VectorKernels k, int[] offsets, int n, float[] protos, int s, float[] out) {
    if (codes == null) {
      k.dotScoresAt(vectors, offsets, n, protos, s, dim, out);
      return;
    }
    k.dotScoresAt(codes, offsets, n, protos, s, dim, out);
    scaleScores(out, n * s);
  }

  /**
   * Classes {@code a} and {@code b}'s scores of the {@code n} samples at {@code offsets[0..n)} ({@link
   * #offset}s): {@code out[2k]} and {@code out[2k + 1]} for the one at {@code offsets[k]}, each bit for
   * bit what {@link #score} gives.
   */
  public void scoresOfTwoAt(VectorKernels k, int[] offsets, int n, float[] protos, int s, int a, int b, float[] out) {
    if (codes == null) {
      k.dotScoresOfTwoAt(vectors, offsets, n, protos, s, dim, a, b, out);
      return;
    }
    k.dotScoresOfTwoAt(codes, offsets, n, protos, s, dim, a, b, out);
    scaleScores(out, 2 * n);
  }

  /** How many samples a perceptron pass scores at a time with {@link #scoresAt} on {@code k}. */
  public int scoringBlock(VectorKernels k) {
    return codes != null ? k.codeScoringBlock() : 2;
  }

  /** Class {@code c}'s score of sample {@code i}: {@code H_i · C_c}. */
  public float score(VectorKernels k, int i, float[] protos, int s, int c) {
    return codes == null ? k.dotScore(vectors, i * dim, protos, s, dim, c)
        : k.dotScore(codes, i * dim, protos, s, dim, c) * scale;
  }

  /** Samples {@code from .. from+n} scored against the {@code s} prototypes, {@code out[q*s + c]}. */
  public void scores(VectorKernels k, int from, int n, float[] protos, int s, float[] out) {
    if (codes == null) {
      k.dotScores(vectors, from * dim, n, protos, s, dim, out);
      return;
    }
    k.dotScores(codes, from * dim, n, protos, s, dim, out);
    scaleScores(out, n * s);
  }

  /** Code sums to scores: {@code out[0 .. n)} times the scale. */
  private void scaleScores(float[] out, int n) {
    for (int c = 0; c < n; c++) {
      out[c] *= scale;
    }
  }

  /** {@code y[yOff .. yOff+D) += alpha · H_i}. */
  public void addTo(VectorKernels k, float alpha, int i, float[] y, int yOff) {
    if (codes == null) {
      k.axpy(alpha, vectors, i * dim, y, yOff, dim);
    } else {
      k.axpy(alpha * scale, codes, i * dim, y, yOff, dim);
    }
  }
}
