package io.hdfl.sensors.signal;

import java.io.IOException;
import java.util.List;

/** Reads the data rows of a CSV signal file into samples, checking each one (see {@link CsvSignalSource}). */
final class CsvRows {

  private final String file;
  private final BoundedLineReader lines;
  private final CsvHeader header;
  private final char delimiter;
  private long lastTimestamp;
  private boolean anyRow;

  CsvRows(String file, BoundedLineReader lines, CsvHeader header, char delimiter) {
    this.file = file;
    this.lines = lines;
    this.header = header;
    this.delimiter = delimiter;
  }

  /** The next row as a sample, or null at the end of the file. */
  Sample next() throws IOException {
    String line;
    do {
      line = nextLine();
      if (line == null) {
        return null;
      }
    } while (line.isBlank());
    List<String> fields;
    try {
      fields = CsvFields.split(line, delimiter, header.columns());
    } catch (IllegalArgumentException e) {
      throw bad(e.getMessage());
    }
    if (fields.size() != header.columns()) {
      throw bad((fields.size() > header.columns() ? "more than " + header.columns() : fields.size())
          + " fields, the header has " + header.columns());
    }
    try {
      long t = CsvNumbers.timestamp(fields.get(header.timeColumn()), header.nanosPerTimeUnit());
      if (anyRow && t < lastTimestamp) {
        throw new IllegalArgumentException("timestamp goes back (" + t + " ns after " + lastTimestamp + " ns)");
      }
      int label = header.labelColumn() < 0 ? Sample.NO_LABEL : CsvNumbers.label(fields.get(header.labelColumn()));
      int[] cols = header.channelColumns();
      float[] values = new float[cols.length];
      for (int c = 0; c < cols.length; c++) {
        try {
          values[c] = CsvNumbers.value(fields.get(cols[c]));
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException("column " + (cols[c] + 1) + " (" + header.channels().get(c).name()
              + "): " + e.getMessage());
        }
      }
      lastTimestamp = t;
      anyRow = true;
      return Sample.adopt(t, values, label);
    } catch (IllegalArgumentException e) {
      throw bad(e.getMessage());
    }
  }

  private String nextLine() throws IOException {
    return lines.next();
  }

  private SignalFormatException bad(String problem) {
    return new SignalFormatException(file + ": line " + lines.lineNumber() + ": " + problem);
  }
}
