package io.hdfl.cli;

import io.hdfl.data.LoadOptions;
import picocli.CommandLine.Option;

/** Options shared by every command that reads a data file. */
final class DataLoading {
  @Option(
      names = "--label-column",
      paramLabel = "NAME|INDEX",
      description = "CSV: the label column, by header name or 0-based index (default: 'label', else the last column).")
  String labelColumn;

  LoadOptions options() {
    LoadOptions.Builder b = LoadOptions.builder();
    if (labelColumn != null) {
      String v = labelColumn.trim();
      if (v.matches("\\d+")) {
        b.labelColumn(Integer.parseInt(v));
      } else {
        b.labelColumn(v);
      }
    }
    return b.build();
  }
}
