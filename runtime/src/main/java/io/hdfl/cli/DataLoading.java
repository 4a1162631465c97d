package io.hdfl.cli;

import io.hdfl.data.LoadOptions;
import picocli.CommandLine.Option;

/** Options shared by every command that reads a data file. */
final class DataLoading {
  @Option(
      names = "--label-column",
      paramLabel = "NAME|INDEX",
      description = "CSV: the label column, by header name or 0-based index (#N, or N where no column is named N; "
          + "default: 'label', else the last column).")
  String labelColumn;

  @Option(
      names = "--ignore-columns",
      paramLabel = "NAME|INDEX",
      split = ",",
      description = "CSV: columns that hold no feature and are not read (a time stamp, a machine id), by header name "
          + "or 0-based index (#N, or N where no column is named N), comma-separated.")
  java.util.List<String> ignoredColumns;

  /** Whether any of these options was given. */
  boolean given() {
    return labelColumn != null || ignoredColumns != null;
  }

  LoadOptions options() {
    LoadOptions.Builder b = LoadOptions.builder();
    if (ignoredColumns != null) {
      b.ignoredColumns(ignoredColumns);
    }
    if (labelColumn != null) {
      b.labelColumn(labelColumn.strip());
    }
    return b.build();
  }
}
