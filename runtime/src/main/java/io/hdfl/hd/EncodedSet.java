package io.hdfl.hd;

import io.hdfl.kernels.VectorKernels;

/**
 * A labelled data set in hypervector form, encoded once and reused by every training epoch and
 * round (the basis is fixed per federation, so encodings never change).
 */
public final class EncodedSet {
  private final float[] vectors;
  private final int size;
  private final int dim;
  private final int[] labels;
  private final int classes;
  private final double[] squaredNorms;

  private EncodedSet(float[] vectors, int size, int dim, int[] labels, int classes) {
    this.vectors = vectors;
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

  /** Encodes {@code n} samples (row-major {@code features}) with their labels in [0, classes). */
  public static EncodedSet encode(Encoder encoder, float[] features, int n, int[] labels, int classes, int threads) {
    float[] out = allocate(encoder.spec(), n, labels, classes);
    encoder.encode(features, n, out, threads);
    return new EncodedSet(out, n, encoder.dim(), java.util.Arrays.copyOf(labels, n), classes);
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

  private static float[] allocate(EncoderSpec spec, int n, int[] labels, int classes) {
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
    return new float[(int) size];
  }

  /** Wraps existing hypervectors (not copied). */
  public static EncodedSet of(float[] vectors, int n, int dim, int[] labels, int classes) {
    if ((long) n * dim > vectors.length || labels.length < n) {
      throw new IllegalArgumentException("vectors or labels too short for " + n + " x " + dim);
    }
    return new EncodedSet(vectors, n, dim, labels, classes);
  }

  /** This set followed by {@code more} (same D and classes), copied. */
  public EncodedSet concat(EncodedSet more) {
    if (more.dim != dim || more.classes != classes) {
      throw new IllegalArgumentException("cannot append D=" + more.dim + ", S=" + more.classes + " to D=" + dim + ", S="
          + classes);
    }
    float[] v = new float[(size + more.size) * dim];
    System.arraycopy(vectors, 0, v, 0, size * dim);
    System.arraycopy(more.vectors, 0, v, size * dim, more.size * dim);
    int[] l = new int[size + more.size];
    System.arraycopy(labels, 0, l, 0, size);
    System.arraycopy(more.labels, 0, l, size, more.size);
    return new EncodedSet(v, size + more.size, dim, l, classes);
  }

  /** The rows at {@code indices}, copied. */
  public EncodedSet subset(int[] indices) {
    float[] v = new float[indices.length * dim];
    int[] l = new int[indices.length];
    for (int i = 0; i < indices.length; i++) {
      System.arraycopy(vectors, indices[i] * dim, v, i * dim, dim);
      l[i] = labels[indices[i]];
    }
    return new EncodedSet(v, indices.length, dim, l, classes);
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

  /** The live row-major hypervectors. Callers must not modify them. */
  public float[] vectors() {
    return vectors;
  }

  /** |H_i|², precomputed in double. */
  public double squaredNorm(int i) {
    return squaredNorms[i];
  }
}
