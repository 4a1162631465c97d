package io.hdfl.data;

import java.io.BufferedWriter;
import io.hdfl.io.AtomicFile;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;

/**
 * Comma-separated values, UTF-8, optionally gzip-compressed (detected by magic bytes).
 *
 * <ul>
 *   <li>The first non-blank line is a header row of column names; it is required, and a first
 *       line that is all numbers is rejected as a missing header. Blank lines are skipped.
 *   <li>The delimiter is the header's: of a comma, a semicolon and a tab, the one that splits it
 *       (outside quotes) into the most fields; on a tie a semicolon, then a comma (a spreadsheet saved
 *       as CSV under a locale whose decimal mark is a comma writes semicolons, and its column names
 *       may hold commas). Where it is a semicolon, numbers may
 *       have a decimal comma ({@code 0,25}), and a file that has both decimal commas and decimal
 *       points is refused (is {@code 1.234} a thousand?).
 *   <li>The label column is chosen by {@link LoadOptions#labelColumnName()} or {@link
 *       LoadOptions#labelColumnIndex()}; by default it is the column named {@code label} (any
 *       case) if there is one, else the last column. The columns of {@link
 *       LoadOptions#ignoredColumns()} are not read (a time stamp, a machine id). A column is given by
 *       its name, or by {@code #N} for the one at 0-based index N; digits that name no column are an
 *       index too, and digits that name one column and index another are refused as ambiguous. Every
 *       other column is a numeric feature ({@link Float#parseFloat}); NaN and infinite values are
 *       rejected.
 *   <li>Labels: with {@link LoadOptions#classNames()} each label must be one of those names and
 *       maps to its position (how a test set agrees with its training set). Otherwise, if every
 *       label is a non-negative integer it is the class index ({@code numClasses = max + 1},
 *       names {@code "0".."max"}); else the distinct label strings, sorted, become the classes.
 *   <li>Fields may be double-quoted ({@code ""} inside quotes is a quote), but a quoted field may
 *       not span lines. Every row must have as many fields as the header.
 * </ul>
 */
public final class CsvFormat {
  private static final int MAX_QUOTED = 40;

  private CsvFormat() {}

  /** Reads a CSV file with default options. */
  public static Dataset read(Path path) throws IOException {
    return read(path, LoadOptions.defaults());
  }

  /** Reads a (possibly gzip-compressed) CSV file. */
  public static Dataset read(Path path, LoadOptions options) throws IOException {
    try (InputStream in = Decompression.open(path)) {
      // newDecoder() reports malformed input rather than replacing it.
      Reader reader = new InputStreamReader(in, StandardCharsets.UTF_8.newDecoder());
      return read(reader, path.toString(), options);
    }
  }

  /**
   * Reads CSV text from a reader, which is not closed.
   *
   * @param source names the data in error messages and in {@link Dataset#source()}
   */
  public static Dataset read(Reader reader, String source, LoadOptions options)
      throws IOException {
    CsvLineReader lines = new CsvLineReader(reader, source);
    try {
      return parse(lines, source, options);
    } catch (CharacterCodingException e) {
      throw new DatasetFormatException(
          source,
          "not valid UTF-8 text after line " + lines.lineNumber() + " (binary file?)",
          e);
    }
  }

  private static Dataset parse(CsvLineReader lines, String source, LoadOptions options)
      throws IOException {
    String line = nextNonBlank(lines);
    if (line == null) {
      throw new DatasetFormatException(source, "empty file (a header row is required)");
    }
    if (line.startsWith("\uFEFF")) {
      line = line.substring(1);
    }
    char delimiter = delimiterOf(line);
    DecimalMarks marks = new DecimalMarks(delimiter == ';');
    List<String> header = CsvFields.split(line, delimiter, lines.lineNumber(), source);
    if (looksLikeData(line, lines.lineNumber(), source)) {
      throw new DatasetFormatException(
          source,
          "line "
              + lines.lineNumber()
              + " looks like data, not a header; a header row of column names is required");
    }
    int columns = header.size();
    if (columns < 2) {
      throw new DatasetFormatException(
          source,
          "header has " + columns + " column; need at least one feature column and a label column (columns are "
              + "separated by commas, semicolons or tabs)");
    }
    int labelCol = labelColumn(header, source, options);
    boolean[] skipped = ignoredColumns(header, labelCol, source, options);
    skipped[labelCol] = true;
    int f = 0;
    for (boolean skip : skipped) {
      f += skip ? 0 : 1;
    }
    if (f == 0) {
      throw new DatasetFormatException(source, "no feature column is left: every column but the label column "
          + quote(header.get(labelCol)) + " is ignored");
    }
    if (f > Dataset.MAX_FEATURES) {
      throw new DatasetFormatException(
          source,
          "header has " + f + " feature columns, more than " + Dataset.MAX_FEATURES);
    }

    Map<String, Integer> classIndex = null;
    if (options.classNames().isPresent()) {
      List<String> names = options.classNames().get();
      classIndex = new HashMap<>();
      for (int c = 0; c < names.size(); c++) {
        classIndex.put(names.get(c), c);
      }
    }
    // Without given class names, labels are first collected as ids of distinct strings.
    Map<String, Integer> distinct = new LinkedHashMap<>();
    List<Integer> firstLine = new ArrayList<>();

    FeatureBuffer features = new FeatureBuffer(source);
    LabelBuffer labels = new LabelBuffer();
    float[] row = new float[f];
    int sample = 0;
    while ((line = nextNonBlank(lines)) != null) {
      int lineNo = lines.lineNumber();
      List<String> cells = CsvFields.split(line, delimiter, lineNo, source);
      if (cells.size() != columns) {
        throw new DatasetFormatException(
            source,
            "line "
                + lineNo
                + " has "
                + cells.size()
                + " fields, expected "
                + columns
                + " as in the header");
      }
      int j = 0;
      for (int col = 0; col < columns; col++) {
        if (skipped[col]) {
          continue;
        }
        row[j] = number(cells.get(col), marks, source, lineNo, sample, j, header, col);
        j++;
      }
      String label = cells.get(labelCol);
      if (label.isEmpty()) {
        throw new DatasetFormatException(source, "line " + lineNo + " has an empty label");
      }
      int id;
      if (classIndex != null) {
        Integer c = classIndex.get(label);
        if (c == null) {
          throw new DatasetFormatException(
              source,
              "line "
                  + lineNo
                  + ": label "
                  + quote(label)
                  + " is not one of the "
                  + classIndex.size()
                  + " known classes "
                  + preview(options.classNames().get()));
        }
        id = c;
      } else {
        Integer known = distinct.get(label);
        if (known == null) {
          if (distinct.size() == Dataset.MAX_CLASSES) {
            throw new DatasetFormatException(
                source,
                "line "
                    + lineNo
                    + ": more than "
                    + Dataset.MAX_CLASSES
                    + " distinct labels (is '"
                    + header.get(labelCol)
                    + "' really the label column?)");
          }
          known = distinct.size();
          distinct.put(label, known);
          firstLine.add(lineNo);
        }
        id = known;
      }
      features.append(row, 0, f);
      labels.add(id);
      sample++;
    }
    if (sample == 0) {
      throw new DatasetFormatException(source, "no data rows after the header");
    }
    int[] labelArray = labels.toArray();
    List<String> classNames;
    if (classIndex != null) {
      classNames = options.classNames().get();
    } else {
      int[] remap = new int[distinct.size()];
      classNames = assignClasses(distinct, firstLine, remap, source);
      for (int i = 0; i < labelArray.length; i++) {
        labelArray[i] = remap[labelArray[i]];
      }
    }
    return Dataset.wrap(
        f, features.toArray(), labelArray, classNames.size(), classNames, source);
  }

  /**
   * Chooses class indices for the distinct labels (ids in insertion order) and fills {@code
   * remap[id] = class}; returns the class names.
   */
  private static List<String> assignClasses(
      Map<String, Integer> distinct, List<Integer> firstLine, int[] remap, String source) {
    boolean allIndices = distinct.keySet().stream().allMatch(CsvFormat::isDigits);
    if (allIndices) {
      int max = 0;
      for (Map.Entry<String, Integer> e : distinct.entrySet()) {
        String s = e.getKey();
        String trimmed = s.replaceFirst("^0+(?=.)", "");
        int value = trimmed.length() > 6 ? Integer.MAX_VALUE : Integer.parseInt(trimmed);
        if (value >= Dataset.MAX_CLASSES) {
          throw new DatasetFormatException(
              source,
              "line "
                  + firstLine.get(e.getValue())
                  + ": integer label "
                  + quote(s)
                  + " is too large for a class index (at most "
                  + (Dataset.MAX_CLASSES - 1)
                  + ")");
        }
        remap[e.getValue()] = value;
        max = Math.max(max, value);
      }
      return Dataset.indexClassNames(max + 1);
    }
    List<String> sorted = new ArrayList<>(distinct.keySet());
    sorted.sort(null);
    for (int c = 0; c < sorted.size(); c++) {
      remap[distinct.get(sorted.get(c))] = c;
    }
    return List.copyOf(sorted);
  }

  private static int labelColumn(List<String> header, String source, LoadOptions options) {
    if (options.labelColumnIndex().isPresent()) {
      int index = options.labelColumnIndex().getAsInt();
      if (index >= header.size()) {
        throw new DatasetFormatException(
            source,
            "label column index "
                + index
                + " is out of range (the header has "
                + header.size()
                + " columns, 0-based)");
      }
      return index;
    }
    if (options.labelColumnName().isPresent()) {
      String name = options.labelColumnName().get();
      int found = column(header, name, "label column", source);
      if (found < 0) {
        throw new DatasetFormatException(
            source, "no column named " + quote(name) + "; columns are " + preview(header));
      }
      return found;
    }
    int found = findIgnoringCase(header, "label", "label column", source);
    return found >= 0 ? found : header.size() - 1;
  }

  /**
   * The columns of {@link LoadOptions#ignoredColumns()}, by name or index, marked.
   *
   * @throws DatasetFormatException for a column the header does not have, the label column, or one
   *     column named twice
   */
  private static boolean[] ignoredColumns(List<String> header, int labelCol, String source, LoadOptions options) {
    boolean[] skipped = new boolean[header.size()];
    for (String given : options.ignoredColumns()) {
      int col = column(header, given, "ignored column", source);
      if (col < 0) {
        throw new DatasetFormatException(
            source, "no column named " + quote(given) + " to ignore; columns are " + preview(header));
      }
      if (col == labelCol) {
        boolean chosen = options.labelColumnName().isPresent() || options.labelColumnIndex().isPresent();
        throw new DatasetFormatException(source, "column " + quote(header.get(col)) + " is the label column"
            + (chosen ? "" : " (by default the column named 'label', else the last one: choose another with "
            + "--label-column, or 'data.label-column')") + "; it cannot be ignored as well");
      }
      if (skipped[col]) {
        throw new DatasetFormatException(source, "column " + quote(header.get(col)) + " is ignored twice");
      }
      skipped[col] = true;
    }
    return skipped;
  }

  /**
   * The column {@code given} names: {@code #N} is the one at 0-based index N; a name is matched as
   * {@link #columnNamed} matches it, and digits that name no column are an index. Digits that name one
   * column and index another are refused as ambiguous (a file written with its row numbers first has
   * columns named 0, 1, … one place to the right of their indices). -1 if no column has the name.
   */
  private static int column(List<String> header, String given, String role, String source) {
    if (given.length() > 1 && given.charAt(0) == '#' && isDigits(given.substring(1))) {
      return indexed(header, given.substring(1), role, source);
    }
    int named = columnNamed(header, given, role, source);
    if (!isDigits(given)) {
      return named;
    }
    int index = given.length() > 6 ? Integer.MAX_VALUE : Integer.parseInt(given);
    if (named >= 0 && named != index && index < header.size()) {
      throw new DatasetFormatException(source, role + " " + quote(given) + " is ambiguous: it names column " + named
          + " and is the index of column " + index + " (" + quote(header.get(index)) + "): write #" + index
          + " for the column at index " + index + ", #" + named + " for the one named " + quote(given));
    }
    return named >= 0 ? named : indexed(header, given, role, source);
  }

  /** The column at the 0-based index {@code digits}, or an error naming {@code role}. */
  private static int indexed(List<String> header, String digits, String role, String source) {
    int index = digits.length() > 6 ? Integer.MAX_VALUE : Integer.parseInt(digits);
    if (index >= header.size()) {
      throw new DatasetFormatException(source, role + " index " + digits + " is out of range (the header has "
          + header.size() + " columns, 0-based)");
    }
    return index;
  }

  /**
   * The column named {@code name}: its exact match (which must be unique), else its only
   * case-insensitive match; -1 if there is none. {@code role} names it in errors.
   */
  private static int columnNamed(List<String> header, String name, String role, String source) {
    int exact = header.indexOf(name);
    if (exact >= 0) {
      if (header.lastIndexOf(name) != exact) {
        throw new DatasetFormatException(
            source, role + " " + quote(name) + " appears more than once in the header");
      }
      return exact;
    }
    return findIgnoringCase(header, name, role, source);
  }

  private static int findIgnoringCase(List<String> header, String name, String role, String source) {
    int found = -1;
    for (int i = 0; i < header.size(); i++) {
      if (header.get(i).equalsIgnoreCase(name)) {
        if (found >= 0) {
          throw new DatasetFormatException(
              source,
              role
                  + " "
                  + quote(name)
                  + " is ambiguous: columns "
                  + found
                  + " and "
                  + i
                  + " match; choose one by index");
        }
        found = i;
      }
    }
    return found;
  }

  /**
   * The delimiters a file may have, in the order that settles a tie: a semicolon first, since the
   * column names of a semicolon-separated file often hold commas ("Druck, bar", "400,5"), those of a
   * comma-separated one rarely semicolons.
   */
  private static final char[] DELIMITERS = {';', ',', '\t'};

  /**
   * The delimiter of a file whose header is {@code header}: of a comma, a semicolon and a tab, the
   * one it has most often outside quotes (a semicolon, then a comma, on a tie; a comma if it has none).
   */
  static char delimiterOf(String header) {
    char best = ',';
    int most = 0;
    for (char d : DELIMITERS) {
      int n = countOutsideQuotes(header, d);
      if (n > most) {
        best = d;
        most = n;
      }
    }
    return best;
  }

  private static int countOutsideQuotes(String line, char ch) {
    boolean quoted = false;
    int n = 0;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (c == '"') {
        quoted = !quoted;
      } else if (!quoted && c == ch) {
        n++;
      }
    }
    return n;
  }

  /**
   * Whether a first line is data rather than a header: split at any delimiter into more than one
   * field, every field a number (with decimal commas where split at semicolons). A file without a
   * header would otherwise lose its first sample, or be split at the wrong delimiter.
   */
  private static boolean looksLikeData(String line, int lineNo, String source) {
    for (char d : DELIMITERS) {
      if (countOutsideQuotes(line, d) == 0) {
        continue;
      }
      List<String> cells;
      try {
        cells = CsvFields.split(line, d, lineNo, source);
      } catch (DatasetFormatException e) {
        continue; // not split this way
      }
      boolean decimalComma = d == ';';
      if (cells.stream().allMatch(cell -> isNumber(cell, decimalComma))) {
        return true;
      }
    }
    return false;
  }

  /**
   * The decimal mark a semicolon-separated file uses, as its numbers show it: a comma ({@code 0,25})
   * or a point; both in one file are refused. Other files have decimal points only.
   */
  private static final class DecimalMarks {
    private final boolean commaAllowed;
    private char seen;
    private String firstWhere;

    DecimalMarks(boolean commaAllowed) {
      this.commaAllowed = commaAllowed;
    }

    /** {@code cell} as {@link Float#parseFloat} reads it, its decimal comma made a point where allowed. */
    String normalized(String cell, String source, String where) {
      if (!commaAllowed) {
        return cell;
      }
      int comma = cell.indexOf(',');
      char mark = comma >= 0 ? ',' : cell.indexOf('.') >= 0 ? '.' : 0;
      if (mark == 0) {
        return cell;
      }
      if (seen == 0) {
        seen = mark;
        firstWhere = where;
      } else if (mark != seen && isNumber(cell, true)) {
        throw new DatasetFormatException(source, where + ": " + quote(cell) + " has a decimal "
            + (mark == ',' ? "comma" : "point") + " where " + firstWhere + " has a decimal " + (seen == ',' ? "comma"
            : "point") + ": one file has one decimal mark (is a point there a thousands separator?)");
      }
      return withDecimalPoint(cell);
    }
  }

  private static float number(String cell, DecimalMarks marks, String source, int lineNo, int sample, int feature,
      List<String> header, int col) {
    String column = header.get(col);
    String where =
        "line "
            + lineNo
            + ", column "
            + quote(column)
            + " (sample "
            + sample
            + ", feature "
            + feature
            + ")";
    if (cell.isEmpty()) {
      throw new DatasetFormatException(source, where + ": empty value");
    }
    float v;
    try {
      v = Float.parseFloat(marks.normalized(cell, source, where));
    } catch (NumberFormatException e) {
      // text in the first row: most likely a column of another kind (a time stamp, a machine id)
      boolean text = sample == 0 && !cell.matches("[+-]?[0-9]*[.,]?[0-9]*([eE][+-]?[0-9]+)?");
      boolean decimalComma = !marks.commaAllowed && cell.matches("[+-]?[0-9]*,[0-9]+([eE][+-]?[0-9]+)?");
      throw new DatasetFormatException(source, where + ": " + quote(cell) + " is not a number" + (decimalComma
          ? " (decimal commas are read in semicolon-separated files only)" : !text ? ""
          : " (a column that holds no feature, a time stamp say, can be left out: --ignore-columns "
              + ignoreSuggestion(header, col, true) + ", or 'data.ignore-columns = " + ignoreSuggestion(header, col, false)
              + "' in a device's config)"));
    }
    if (!Float.isFinite(v)) {
      throw new DatasetFormatException(
          source, where + ": value " + quote(cell) + " is " + v + " (values must be finite)");
    }
    return v;
  }

  private static String nextNonBlank(CsvLineReader lines) throws IOException {
    String line;
    while ((line = lines.next()) != null) {
      if (!line.isBlank()) {
        return line;
      }
    }
    return null;
  }

  /** Whether {@code s} is a finite number, read with one decimal comma where {@code decimalComma}. */
  private static boolean isNumber(String s, boolean decimalComma) {
    try {
      return Float.isFinite(Float.parseFloat(decimalComma ? withDecimalPoint(s) : s));
    } catch (NumberFormatException e) {
      return false;
    }
  }

  /** {@code s} with its one decimal comma as a point (with no point besides); else as it is. */
  private static String withDecimalPoint(String s) {
    int comma = s.indexOf(',');
    return comma >= 0 && comma == s.lastIndexOf(',') && s.indexOf('.') < 0 ? s.replace(',', '.') : s;
  }

  /**
   * How to name column {@code col} to ignore it: its name where that is plain, unique and no number,
   * else {@code #} and its 0-based index; as a shell word when {@code shell}.
   */
  private static String ignoreSuggestion(List<String> header, int col, boolean shell) {
    String name = header.get(col);
    boolean plain = !name.isEmpty() && name.length() <= MAX_QUOTED && header.indexOf(name) == header.lastIndexOf(name)
        && name.chars().noneMatch(ch -> ch == ',' || ch == '\'' || ch == '"' || ch == '#' || Character.isISOControl(ch))
        && name.strip().equals(name) && !isDigits(name);
    String word = plain ? name : "#" + col;
    return shell && !word.matches("[A-Za-z0-9_.:/+=-]+") ? "'" + word + "'" : word;
  }

  private static boolean isDigits(String s) {
    if (s.isEmpty()) {
      return false;
    }
    for (int i = 0; i < s.length(); i++) {
      char ch = s.charAt(i);
      if (ch < '0' || ch > '9') {
        return false;
      }
    }
    return true;
  }

  /** A value from the file, quoted, shortened and stripped of control characters for messages. */
  static String quote(String s) {
    String shown = s.length() > MAX_QUOTED ? s.substring(0, MAX_QUOTED) + "..." : s;
    StringBuilder sb = new StringBuilder("'");
    for (int i = 0; i < shown.length(); i++) {
      char ch = shown.charAt(i);
      sb.append(Character.isISOControl(ch) ? '?' : ch);
    }
    return sb.append('\'').toString();
  }

  private static String preview(List<String> names) {
    StringBuilder sb = new StringBuilder("(");
    int shown = Math.min(names.size(), 10);
    for (int i = 0; i < shown; i++) {
      sb.append(i == 0 ? "" : ", ").append(quote(names.get(i)));
    }
    if (names.size() > shown) {
      sb.append(", ... ").append(names.size() - shown).append(" more");
    }
    return sb.append(')').toString();
  }

  /**
   * Writes {@code data} as CSV to {@code path} (gzip if the name ends in {@code .gz}), atomically:
   * a header {@code f0,...,f<n-1>,label}, then one row per sample with its class name as label.
   * Reading it back with {@code classNames(data.classNames())} restores the exact labels.
   */
  public static void write(Dataset data, Path path) throws IOException {
    AtomicFile.write(path, file -> {
      GZIPOutputStream gz = Decompression.wantsGzip(path) ? new GZIPOutputStream(file, 1 << 16) : null;
      Writer out = new BufferedWriter(new OutputStreamWriter(gz != null ? gz : file, StandardCharsets.UTF_8), 1 << 16);
      write(data, out);
      out.flush();
      if (gz != null) {
        gz.finish();
      }
    });
  }


  /** Writes {@code data} as CSV text to a writer, which is flushed but not closed. */
  public static void write(Dataset data, Writer out) throws IOException {
    int f = data.featureCount();
    for (int j = 0; j < f; j++) {
      out.write("f" + j + ",");
    }
    out.write("label\n");
    float[] values = data.features();
    List<String> names = data.classNames();
    for (int i = 0; i < data.size(); i++) {
      int off = i * f;
      for (int j = 0; j < f; j++) {
        out.write(Float.toString(values[off + j]));
        out.write(',');
      }
      out.write(csvField(names.get(data.label(i))));
      out.write('\n');
    }
    out.flush();
  }

  private static String csvField(String s) {
    boolean plain =
        !s.isEmpty()
            && s.strip().equals(s)
            && s.chars().noneMatch(ch -> ch == ',' || ch == '"' || ch == '\n' || ch == '\r');
    if (plain) {
      return s;
    }
    if (s.indexOf('\n') >= 0 || s.indexOf('\r') >= 0) {
      throw new IllegalArgumentException(
          "class name " + quote(s) + " contains a line break; it cannot be written as CSV");
    }
    return '"' + s.replace("\"", "\"\"") + '"';
  }
}
