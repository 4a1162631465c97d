package io.hdfl.data;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * How to load a data file; every setting is optional. Build with {@link #builder()}; {@link
 * #defaults()} picks the format by file name and uses each format's defaults.
 */
public final class LoadOptions {
  private static final LoadOptions DEFAULTS = builder().build();

  private final DatasetFormat format;
  private final String labelColumnName;
  private final int labelColumnIndex;
  private final List<String> classNames;
  private final Path labelsFile;
  private final List<String> ignoredColumns;

  private LoadOptions(Builder b) {
    this.format = b.format;
    this.labelColumnName = b.labelColumnName;
    this.labelColumnIndex = b.labelColumnIndex;
    this.classNames = b.classNames;
    this.labelsFile = b.labelsFile;
    this.ignoredColumns = b.ignoredColumns;
  }

  /** Format by file name, each format's defaults. */
  public static LoadOptions defaults() {
    return DEFAULTS;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** A builder preset with these options. */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.format = format;
    b.labelColumnName = labelColumnName;
    b.labelColumnIndex = labelColumnIndex;
    b.classNames = classNames;
    b.labelsFile = labelsFile;
    b.ignoredColumns = ignoredColumns;
    return b;
  }

  /** The format to use regardless of the file name, if forced. */
  public Optional<DatasetFormat> format() {
    return Optional.ofNullable(format);
  }

  /** CSV: the label column's name, if set. */
  public Optional<String> labelColumnName() {
    return Optional.ofNullable(labelColumnName);
  }

  /** CSV: the label column's 0-based index, if set. */
  public OptionalInt labelColumnIndex() {
    return labelColumnIndex < 0 ? OptionalInt.empty() : OptionalInt.of(labelColumnIndex);
  }

  /**
   * The class names, if set. CSV: label strings are mapped onto them (e.g. a training set's
   * {@link Dataset#classNames()}) and a label not among them is an error. choir_dat and IDX: they
   * name the class indices, and every label must be below their count.
   */
  public Optional<List<String>> classNames() {
    return Optional.ofNullable(classNames);
  }

  /** IDX: the labels file, if given explicitly instead of derived from the images file name. */
  public Optional<Path> labelsFile() {
    return Optional.ofNullable(labelsFile);
  }

  /**
   * CSV: the columns that hold no feature and are not read (a time stamp, a machine id), each by
   * header name or {@code #N} by 0-based index (see {@link CsvFormat}); empty by default.
   */
  public List<String> ignoredColumns() {
    return ignoredColumns;
  }

  /** Builder of {@link LoadOptions}. */
  public static final class Builder {
    private DatasetFormat format;
    private String labelColumnName;
    private int labelColumnIndex = -1;
    private List<String> classNames;
    private Path labelsFile;
    private List<String> ignoredColumns = List.of();

    private Builder() {}

    /** Use this format whatever the file is called. */
    public Builder format(DatasetFormat format) {
      this.format = Objects.requireNonNull(format, "format");
      return this;
    }

    /**
     * CSV: the label column by header name (exact match preferred, else a unique
     * case-insensitive match), or {@code #N} for the one at 0-based index N (digits that name no
     * column are an index too; see {@link CsvFormat}). Replaces any index set before.
     */
    public Builder labelColumn(String name) {
      this.labelColumnName = Objects.requireNonNull(name, "name");
      this.labelColumnIndex = -1;
      return this;
    }

    /** CSV: the label column by 0-based index. Replaces any name set before. */
    public Builder labelColumn(int index) {
      if (index < 0) {
        throw new IllegalArgumentException("label column index must be >= 0, got " + index);
      }
      this.labelColumnIndex = index;
      this.labelColumnName = null;
      return this;
    }

    /**
     * Class names (label = position in the list). CSV labels are mapped onto them, as a test set
     * must to agree with its training set; for other formats they name the indices.
     *
     * @throws IllegalArgumentException if the list is empty, too long, or has duplicates
     */
    public Builder classNames(List<String> classNames) {
      List<String> copy = List.copyOf(classNames);
      if (copy.isEmpty() || copy.size() > Dataset.MAX_CLASSES) {
        throw new IllegalArgumentException(
            "need 1.." + Dataset.MAX_CLASSES + " class names, got " + copy.size());
      }
      Set<String> seen = new HashSet<>();
      for (String name : copy) {
        if (!seen.add(name)) {
          throw new IllegalArgumentException("duplicate class name '" + name + "'");
        }
      }
      this.classNames = copy;
      return this;
    }

    /** IDX: read labels from this file instead of deriving its name from the images file. */
    public Builder labelsFile(Path labelsFile) {
      this.labelsFile = Objects.requireNonNull(labelsFile, "labelsFile");
      return this;
    }

    /**
     * CSV: columns not to read, each given as the label column's name is. Replaces any set before.
     *
     * @throws IllegalArgumentException for a blank entry or one given twice
     */
    public Builder ignoredColumns(List<String> columns) {
      List<String> copy = new java.util.ArrayList<>();
      for (String c : columns) {
        String name = Objects.requireNonNull(c, "column").strip();
        if (name.isEmpty()) {
          throw new IllegalArgumentException("an ignored column is blank");
        }
        if (copy.contains(name)) {
          throw new IllegalArgumentException("column '" + name + "' is ignored twice");
        }
        copy.add(name);
      }
      this.ignoredColumns = List.copyOf(copy);
      return this;
    }

    public LoadOptions build() {
      return new LoadOptions(this);
    }
  }
}
