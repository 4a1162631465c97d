package io.hdfl.data;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * A labelled, in-memory classification data set: {@code n} samples of {@code f} features each,
 * stored row-major in one {@code float[]} of length {@code n * f}, with one class index in {@code
 * [0, numClasses)} per sample.
 *
 * <p>Construction validates everything (lengths consistent, labels in range, every feature
 * finite), so a {@code Dataset} in hand is always well formed. The public constructor copies its
 * arrays; {@link #features()} and {@link #labels()} return the backing arrays without copying so
 * that encoders can read them at full speed — callers must not modify them.
 */
public final class Dataset {
  /** Largest accepted feature count per sample. */
  public static final int MAX_FEATURES = 1 << 20;
  /** Largest accepted number of classes. */
  public static final int MAX_CLASSES = 1 << 16;
  /** Largest number of feature values ({@code n * f}) one data set can hold (a Java array). */
  public static final int MAX_VALUES = Integer.MAX_VALUE - 8;

  private final int featureCount;
  private final float[] features;
  private final int[] labels;
  private final int numClasses;
  private final List<String> classNames;
  private final String source;
  private final float minFeature;
  private final float maxFeature;

  /**
   * Creates a data set from copies of the given arrays.
   *
   * @param featureCount features per sample, {@code 1..MAX_FEATURES}
   * @param features row-major values, length {@code labels.length * featureCount}, all finite
   * @param labels one class index per sample, each in {@code [0, numClasses)}
   * @param numClasses number of classes, {@code 1..MAX_CLASSES}
   * @param classNames one name per class ({@code numClasses} entries, none null)
   * @param source human-readable description of where the data came from
   * @throws IllegalArgumentException if any of the above does not hold
   */
  public Dataset(
      int featureCount,
      float[] features,
      int[] labels,
      int numClasses,
      List<String> classNames,
      String source) {
    this(featureCount, features.clone(), labels.clone(), numClasses, classNames, source, true);
  }

  private Dataset(
      int featureCount,
      float[] features,
      int[] labels,
      int numClasses,
      List<String> classNames,
      String source,
      boolean validate) {
    Objects.requireNonNull(features, "features");
    Objects.requireNonNull(labels, "labels");
    Objects.requireNonNull(classNames, "classNames");
    if (featureCount < 1 || featureCount > MAX_FEATURES) {
      throw new IllegalArgumentException(
          "feature count " + featureCount + " outside [1, " + MAX_FEATURES + "]");
    }
    if (numClasses < 1 || numClasses > MAX_CLASSES) {
      throw new IllegalArgumentException(
          "class count " + numClasses + " outside [1, " + MAX_CLASSES + "]");
    }
    if ((long) labels.length * featureCount != features.length) {
      throw new IllegalArgumentException(
          "features array has "
              + features.length
              + " values, expected "
              + labels.length
              + " samples x "
              + featureCount
              + " features");
    }
    if (classNames.size() != numClasses) {
      throw new IllegalArgumentException(
          classNames.size() + " class names given for " + numClasses + " classes");
    }
    List<String> names = new ArrayList<>(classNames.size());
    for (String name : classNames) {
      names.add(Objects.requireNonNull(name, "class name"));
    }
    for (int i = 0; i < labels.length; i++) {
      if (labels[i] < 0 || labels[i] >= numClasses) {
        throw new IllegalArgumentException(
            "label " + labels[i] + " of sample " + i + " outside [0, " + numClasses + ")");
      }
    }
    float min = Float.POSITIVE_INFINITY;
    float max = Float.NEGATIVE_INFINITY;
    for (int k = 0; k < features.length; k++) {
      float v = features[k];
      if (validate && !Float.isFinite(v)) {
        throw new IllegalArgumentException(
            "feature "
                + (k % featureCount)
                + " of sample "
                + (k / featureCount)
                + " is "
                + v
                + " (values must be finite)");
      }
      min = Math.min(min, v);
      max = Math.max(max, v);
    }
    this.featureCount = featureCount;
    this.features = features;
    this.labels = labels;
    this.numClasses = numClasses;
    this.classNames = Collections.unmodifiableList(names);
    this.source = Objects.requireNonNull(source, "source");
    this.minFeature = features.length == 0 ? Float.NaN : min;
    this.maxFeature = features.length == 0 ? Float.NaN : max;
  }

  /** Takes ownership of the arrays (no copy); for loaders that built them and drop them. */
  static Dataset wrap(
      int featureCount,
      float[] features,
      int[] labels,
      int numClasses,
      List<String> classNames,
      String source) {
    return new Dataset(featureCount, features, labels, numClasses, classNames, source, true);
  }

  /** The class names {@code "0", "1", ..., "numClasses-1"} used by formats with bare indices. */
  public static List<String> indexClassNames(int numClasses) {
    if (numClasses < 0 || numClasses > MAX_CLASSES) {
      throw new IllegalArgumentException(
          "class count " + numClasses + " outside [0, " + MAX_CLASSES + "]");
    }
    List<String> names = new ArrayList<>(numClasses);
    for (int c = 0; c < numClasses; c++) {
      names.add(Integer.toString(c));
    }
    return Collections.unmodifiableList(names);
  }

  /** Number of samples {@code n}. */
  public int size() {
    return labels.length;
  }

  /** Number of features per sample {@code f}. */
  public int featureCount() {
    return featureCount;
  }

  /** Number of classes; labels lie in {@code [0, numClasses)}. */
  public int numClasses() {
    return numClasses;
  }

  /** Name of each class, indexed by label (unmodifiable). */
  public List<String> classNames() {
    return classNames;
  }

  /** Where the data came from, e.g. a file path. */
  public String source() {
    return source;
  }

  /**
   * The row-major feature values ({@code size() * featureCount()}), not copied: do not modify.
   * Sample {@code i} occupies {@code [rowOffset(i), rowOffset(i) + featureCount())}.
   */
  public float[] features() {
    return features;
  }

  /** The label of every sample, not copied: do not modify. */
  public int[] labels() {
    return labels;
  }

  /** Label of sample {@code i}. */
  public int label(int i) {
    return labels[i];
  }

  /** Offset of sample {@code i}'s first feature in {@link #features()}. */
  public int rowOffset(int i) {
    Objects.checkIndex(i, labels.length);
    return i * featureCount;
  }

  /** A copy of sample {@code i}'s features. */
  public float[] row(int i) {
    int off = rowOffset(i);
    float[] row = new float[featureCount];
    System.arraycopy(features, off, row, 0, featureCount);
    return row;
  }

  /** Feature {@code j} of sample {@code i}. */
  public float feature(int i, int j) {
    Objects.checkIndex(j, featureCount);
    return features[rowOffset(i) + j];
  }

  /**
   * The samples at {@code indices}, in that order (an index may repeat), with the same classes.
   *
   * @throws IndexOutOfBoundsException if an index is outside {@code [0, size())}
   */
  public Dataset subset(int[] indices) {
    if ((long) indices.length * featureCount > MAX_VALUES) {
      throw new IllegalArgumentException("subset of " + indices.length + " samples is too large");
    }
    float[] f = new float[indices.length * featureCount];
    int[] l = new int[indices.length];
    for (int k = 0; k < indices.length; k++) {
      int i = Objects.checkIndex(indices[k], labels.length);
      System.arraycopy(features, i * featureCount, f, k * featureCount, featureCount);
      l[k] = labels[i];
    }
    String desc = source + " [" + indices.length + " of " + labels.length + " samples]";
    return new Dataset(featureCount, f, l, numClasses, classNames, desc, false);
  }

  /**
   * The same samples with another class list (e.g. a training set's), whose size becomes the new
   * {@link #numClasses()}; every label must still be a valid index into it.
   *
   * @throws IllegalArgumentException if a label is {@code >= classNames.size()}
   */
  public Dataset withClasses(List<String> classNames) {
    return new Dataset(
        featureCount, features, labels, classNames.size(), classNames, source, false);
  }

  /** Number of samples of each class, indexed by label ({@code numClasses()} entries). */
  public int[] labelHistogram() {
    int[] counts = new int[numClasses];
    for (int label : labels) {
      counts[label]++;
    }
    return counts;
  }

  /** Smallest feature value, or NaN for an empty data set. */
  public float minFeature() {
    return minFeature;
  }

  /** Largest feature value, or NaN for an empty data set. */
  public float maxFeature() {
    return maxFeature;
  }

  @Override
  public String toString() {
    return "Dataset["
        + size()
        + " samples x "
        + featureCount
        + " features, "
        + numClasses
        + " classes, "
        + source
        + "]";
  }
}
