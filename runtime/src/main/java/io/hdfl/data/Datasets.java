package io.hdfl.data;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * Entry point for loading data files: picks the format by file name ({@link DatasetFormat}) unless
 * {@link LoadOptions#format()} forces one, and loads test files so that they agree with a
 * training set.
 *
 * <p>Every content problem — and a missing file — is a {@link DatasetFormatException} with a
 * one-line message naming the file; other I/O failures are {@link IOException}s.
 */
public final class Datasets {
  private Datasets() {}

  /** Loads a data file with default options. */
  public static Dataset load(Path path) throws IOException {
    return load(path, LoadOptions.defaults());
  }

  /**
   * Loads a data file. {@link LoadOptions#classNames()}, if given, names the classes: for CSV it
   * maps label strings; for choir_dat and IDX it replaces the {@code "0".."C-1"} names (every
   * label must be below its size).
   *
   * @throws DatasetFormatException if the file name matches no supported format (the message
   *     lists them), the file is missing, or its content is invalid
   */
  public static Dataset load(Path path, LoadOptions options) throws IOException {
    Decompression.requireFile(path);
    DatasetFormat format = formatOf(path, options);
    Dataset data =
        switch (format) {
          case CHOIR_DAT -> ChoirDatFormat.read(path);
          case IDX -> options.labelsFile().isPresent()
              ? IdxFormat.read(path, options.labelsFile().get())
              : IdxFormat.read(path);
          case CSV -> CsvFormat.read(path, options);
        };
    if (format != DatasetFormat.CSV && options.classNames().isPresent()) {
      // Formats with bare class indices: the names simply label those indices.
      List<String> names = options.classNames().get();
      int[] labels = data.labels();
      for (int i = 0; i < labels.length; i++) {
        if (labels[i] >= names.size()) {
          throw new DatasetFormatException(
              path.toString(),
              "sample "
                  + i
                  + " has label "
                  + labels[i]
                  + " but only "
                  + names.size()
                  + " class names were given");
        }
      }
      data = data.withClasses(names);
    }
    return data;
  }

  /** {@link #loadCompatible(Path, Dataset, LoadOptions)} with default options. */
  public static Dataset loadCompatible(Path path, Dataset reference) throws IOException {
    return loadCompatible(path, reference, LoadOptions.defaults());
  }

  /**
   * Loads a file (typically a test set) so that it agrees with {@code reference} (its training
   * set): CSV labels are mapped through the reference's class names (unless the options give
   * others), the feature count must equal the reference's, every label must be a class of the
   * reference, and the result carries the reference's class count and names.
   *
   * @throws DatasetFormatException if the file cannot be loaded or does not agree
   */
  public static Dataset loadCompatible(Path path, Dataset reference, LoadOptions options)
      throws IOException {
    Decompression.requireFile(path);
    DatasetFormat format = formatOf(path, options);
    LoadOptions effective = options;
    if (format == DatasetFormat.CSV && options.classNames().isEmpty()) {
      effective = options.toBuilder().classNames(reference.classNames()).build();
    }
    Dataset loaded = load(path, effective);
    String source = path.toString();
    if (loaded.featureCount() != reference.featureCount()) {
      throw new DatasetFormatException(
          source,
          "has "
              + loaded.featureCount()
              + " features per sample but the training set "
              + reference.source()
              + " has "
              + reference.featureCount());
    }
    int[] labels = loaded.labels();
    for (int i = 0; i < labels.length; i++) {
      if (labels[i] >= reference.numClasses()) {
        throw new DatasetFormatException(
            source,
            "sample "
                + i
                + " has label "
                + labels[i]
                + ", but the training set "
                + reference.source()
                + " has only "
                + reference.numClasses()
                + " classes");
      }
    }
    if (loaded.classNames().equals(reference.classNames())) {
      return loaded;
    }
    return loaded.withClasses(reference.classNames());
  }

  /**
   * The format {@code path} is read in; CSV column options are refused for the others, which have no
   * columns (given, they would be ignored silently).
   */
  private static DatasetFormat formatOf(Path path, LoadOptions options) {
    DatasetFormat format = options.format().orElseGet(() -> DatasetFormat.forPath(path));
    if (format != DatasetFormat.CSV && (options.labelColumnName().isPresent()
        || options.labelColumnIndex().isPresent() || !options.ignoredColumns().isEmpty())) {
      throw new DatasetFormatException(path.toString(), "is a " + format.name().toLowerCase(java.util.Locale.ROOT)
          + " file, which has no columns: a label column and ignored columns are chosen in CSV files only");
    }
    return format;
  }
}
