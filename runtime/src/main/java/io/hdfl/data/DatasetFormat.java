package io.hdfl.data;

import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

/** The file formats hdfl reads, and how each is recognised by its file name. */
public enum DatasetFormat {
  /** {@code .choir_dat} or {@code .choir_dat.gz}: see {@link ChoirDatFormat}. */
  CHOIR_DAT(".choir_dat, .choir_dat.gz"),
  /** {@code *-images-idx3-ubyte[.gz]} with its {@code labels-idx1} file: see {@link IdxFormat}. */
  IDX("*images-idx3-ubyte[.gz] (with its labels-idx1-ubyte file)"),
  /** {@code .csv} or {@code .csv.gz} with a header row: see {@link CsvFormat}. */
  CSV(".csv, .csv.gz (header row required)");

  private final String patterns;

  DatasetFormat(String patterns) {
    this.patterns = patterns;
  }

  /** The file names this format is chosen for, for messages. */
  public String patterns() {
    return patterns;
  }

  /** The format a file name indicates (case-insensitive), if any. */
  public static Optional<DatasetFormat> forFileName(String fileName) {
    String name = fileName.toLowerCase(Locale.ROOT);
    if (name.endsWith(".choir_dat") || name.endsWith(".choir_dat.gz")) {
      return Optional.of(CHOIR_DAT);
    }
    if (name.matches(".*idx3[-.]ubyte(\\.gz)?")) {
      return Optional.of(IDX);
    }
    if (name.endsWith(".csv") || name.endsWith(".csv.gz")) {
      return Optional.of(CSV);
    }
    return Optional.empty();
  }

  /**
   * The format of {@code path} by its file name.
   *
   * @throws DatasetFormatException naming the supported formats if the name matches none
   */
  public static DatasetFormat forPath(Path path) {
    Path name = path.getFileName();
    String fileName = name == null ? "" : name.toString();
    if (fileName.toLowerCase(Locale.ROOT).matches(".*idx1[-.]ubyte(\\.gz)?")) {
      throw new DatasetFormatException(
          path.toString(),
          "is an IDX labels file; load the matching images-idx3-ubyte file instead");
    }
    return forFileName(fileName)
        .orElseThrow(
            () ->
                new DatasetFormatException(
                    path.toString(), "unknown data file type; supported: " + supported()));
  }

  /** One line listing every supported format's file names. */
  public static String supported() {
    StringBuilder sb = new StringBuilder();
    for (DatasetFormat f : values()) {
      if (sb.length() > 0) {
        sb.append("; ");
      }
      sb.append(f.patterns);
    }
    return sb.toString();
  }
}
