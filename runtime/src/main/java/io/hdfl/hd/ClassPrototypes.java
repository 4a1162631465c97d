package io.hdfl.hd;

import io.hdfl.kernels.VectorKernels;
import java.util.Arrays;

/**
 * The model: one D-dimensional prototype per class, stored row-major ({@code S × D}), with their
 * squared norms kept up to date for cosine scoring. After the storage changes directly, {@link
 * #recomputeNorms()} marks the norms out of date and they are recomputed when next asked for: a ring
 * peer adds noise after its last retraining pass and hands the model on without scoring with it
 * again, so neither of those two recomputations (each a sequential double sum over S × D values) is
 * ever made. Reading a model from several threads at once is safe (a norm computed twice has the
 * same bits); changing it is not.
 */
public final class ClassPrototypes {
  private final int classes;
  private final int dim;
  private final float[] vectors;
  private final double[] normSq;
  /** {@code Math.sqrt(normSq[c])}, kept with it (cosine scoring divides by it once per sample and class). */
  private final double[] norm;
  /** Written after the norms it guards, so a thread that reads it false sees them. */
  private volatile boolean normsStale;

  /** All-zero prototypes. */
  public ClassPrototypes(int classes, int dim) {
    this(classes, dim, newStorage(classes, dim));
  }

  private ClassPrototypes(int classes, int dim, float[] vectors) {
    this.classes = classes;
    this.dim = dim;
    this.vectors = vectors;
    this.normSq = new double[classes];
    this.norm = new double[classes];
    this.normsStale = true;
  }

  private static float[] newStorage(int classes, int dim) {
    if (classes < 1 || dim < 1) {
      throw new IllegalArgumentException("need classes >= 1 and dim >= 1, got " + classes + ", " + dim);
    }
    long size = (long) classes * dim;
    if (size > Integer.MAX_VALUE - 16) {
      throw new IllegalArgumentException("model " + classes + "x" + dim + " is too large");
    }
    return new float[(int) size];
  }

  /** Prototypes holding a copy of {@code vectors} ({@code classes × dim}, row-major, all finite). */
  public static ClassPrototypes copyOf(int classes, int dim, float[] vectors) {
    float[] v = newStorage(classes, dim);
    if (vectors.length != v.length) {
      throw new IllegalArgumentException("expected " + v.length + " values, got " + vectors.length);
    }
    int bad = io.hdfl.kernels.FiniteCheck.firstNonFinite(vectors);
    if (bad >= 0) {
      throw new IllegalArgumentException("prototype value " + bad + " is not finite");
    }
    System.arraycopy(vectors, 0, v, 0, v.length);
    return new ClassPrototypes(classes, dim, v);
  }

  public int classes() {
    return classes;
  }

  public int dim() {
    return dim;
  }

  /** The live row-major storage. After changing it directly, call {@link #recomputeNorms()}. */
  public float[] vectors() {
    return vectors;
  }

  /** A copy of the storage. */
  public float[] toArray() {
    return vectors.clone();
  }

  /** {@code C_c += alpha · h[off .. off + D)}, keeping the norm exact. */
  public void add(int c, float alpha, float[] h, int off, VectorKernels k) {
    checkClass(c);
    freshNorms();
    k.axpy(alpha, h, off, vectors, c * dim, dim);
    setNormSq(c, k.sumOfSquares(vectors, c * dim, dim));
  }

  /**
   * {@code C_c += alpha · H_i} (sample {@code i} of {@code set}) when the caller already knows {@code
   * C_c · H_i}: the norm is updated in O(1) as {@code |C|² + 2α(C·H) + α²|H|²}. Used by retraining,
   * which recomputes exact norms at the end of each epoch.
   */
  void addKnowing(int c, float alpha, EncodedSet set, int i, double dotBefore, VectorKernels k) {
    freshNorms();
    set.addTo(k, alpha, i, vectors, c * dim);
    setNormSq(c, Math.max(0.0, normSq[c] + 2.0 * alpha * dotBefore + (double) alpha * alpha * set.squaredNorm(i)));
  }

  /** Squared L2 norm of prototype {@code c}. */
  public double normSq(int c) {
    checkClass(c);
    freshNorms();
    return normSq[c];
  }

  /** L2 norm of prototype {@code c}: {@code Math.sqrt(normSq(c))}, to the bit. */
  public double norm(int c) {
    checkClass(c);
    freshNorms();
    return norm[c];
  }

  /**
   * The norms of every class, up to date, as this object's own array (the trainer reads them once per
   * sample instead of class by class): read it, never write it, and read it again after a change.
   */
  double[] norms() {
    freshNorms();
    return norm;
  }

  /**
   * Declares the stored values changed: every norm is recomputed from them (in double precision, the
   * same sum as ever) when it is next asked for.
   */
  public void recomputeNorms() {
    normsStale = true;
  }

  private void freshNorms() {
    if (!normsStale) {
      return;
    }
    // Each norm is the same sequential double sum as ever (its bits decide cosine scores, and with
    // them every model); four classes are summed side by side so that the four chains of additions
    // overlap instead of each waiting for its previous addition.
    int c = 0;
    for (; c + 4 <= classes; c += 4) {
      int o0 = c * dim, o1 = o0 + dim, o2 = o1 + dim, o3 = o2 + dim;
      double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
      for (int i = 0; i < dim; i++) {
        s0 += (double) vectors[o0 + i] * vectors[o0 + i];
        s1 += (double) vectors[o1 + i] * vectors[o1 + i];
        s2 += (double) vectors[o2 + i] * vectors[o2 + i];
        s3 += (double) vectors[o3 + i] * vectors[o3 + i];
      }
      setNormSq(c, s0);
      setNormSq(c + 1, s1);
      setNormSq(c + 2, s2);
      setNormSq(c + 3, s3);
    }
    for (; c < classes; c++) {
      double s = 0;
      for (int i = c * dim, end = i + dim; i < end; i++) {
        s += (double) vectors[i] * vectors[i];
      }
      setNormSq(c, s);
    }
    normsStale = false;
  }

  private void setNormSq(int c, double n2) {
    normSq[c] = n2;
    norm[c] = Math.sqrt(n2);
  }

  /** A deep copy. */
  public ClassPrototypes copy() {
    return new ClassPrototypes(classes, dim, vectors.clone());
  }

  private void checkClass(int c) {
    if (c < 0 || c >= classes) {
      throw new IndexOutOfBoundsException("class " + c + " outside [0, " + classes + ")");
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ClassPrototypes p && p.classes == classes && p.dim == dim
        && Arrays.equals(p.vectors, vectors);
  }

  @Override
  public int hashCode() {
    return 31 * (31 * classes + dim) + Arrays.hashCode(vectors);
  }
}
