package io.hdfl.data;

import static io.hdfl.data.TestFiles.failure;
import static io.hdfl.data.TestFiles.gzip;
import static io.hdfl.data.TestFiles.write;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CsvFormatTest {
  @TempDir Path dir;

  private static Dataset parse(String text, LoadOptions options) throws IOException {
    return CsvFormat.read(new StringReader(text), "t.csv", options);
  }

  private static Dataset parse(String text) throws IOException {
    return parse(text, LoadOptions.defaults());
  }

  private static String parseFailure(String text, LoadOptions options) {
    return failure(() -> parse(text, options));
  }

  private static String parseFailure(String text) {
    return parseFailure(text, LoadOptions.defaults());
  }

  @Test
  void defaultLabelColumnIsLastWithIntegerLabels() throws IOException {
    Dataset d = parse("a,b,y\n1,2,0\n3.5,-4e1,2\n\n5,6,1\n");
    assertEquals(3, d.size());
    assertEquals(2, d.featureCount());
    assertArrayEquals(new float[] {1, 2, 3.5f, -40, 5, 6}, d.features());
    assertArrayEquals(new int[] {0, 2, 1}, d.labels());
    assertEquals(3, d.numClasses());
    assertEquals(List.of("0", "1", "2"), d.classNames());
  }

  @Test
  void integerLabelsAreClassIndices() throws IOException {
    Dataset d = parse("x,label\n1,4\n2,1\n");
    assertEquals(5, d.numClasses());
    assertArrayEquals(new int[] {4, 1}, d.labels());
    assertArrayEquals(new int[] {0, 1, 0, 0, 1}, d.labelHistogram());
  }

  @Test
  void columnNamedLabelAnyCaseIsDefault() throws IOException {
    Dataset d = parse("LaBeL,x,y\ncat,1,2\ndog,3,4\n");
    assertEquals(2, d.featureCount());
    assertArrayEquals(new float[] {1, 2, 3, 4}, d.features());
    assertArrayEquals(new int[] {0, 1}, d.labels());
  }

  @Test
  void stringLabelsMapToSortedIndices() throws IOException {
    Dataset d = parse("x,class\n1,zebra\n2,ant\n3,mole\n4,ant\n");
    assertEquals(List.of("ant", "mole", "zebra"), d.classNames());
    assertArrayEquals(new int[] {2, 0, 1, 0}, d.labels());
  }

  @Test
  void mixedLabelsAreStrings() throws IOException {
    Dataset d = parse("x,y\n1,10\n2,9\n3,b\n");
    assertEquals(List.of("10", "9", "b"), d.classNames());
    assertArrayEquals(new int[] {0, 1, 2}, d.labels());
  }

  @Test
  void labelColumnByNameAndIndex() throws IOException {
    String text = "id,x,y\n0,1.5,1\n1,2.5,0\n";
    Dataset byName = parse(text, LoadOptions.builder().labelColumn("id").build());
    assertArrayEquals(new float[] {1.5f, 1, 2.5f, 0}, byName.features());
    assertArrayEquals(new int[] {0, 1}, byName.labels());
    Dataset byCaseName = parse(text, LoadOptions.builder().labelColumn("ID").build());
    assertArrayEquals(new int[] {0, 1}, byCaseName.labels());
    Dataset byIndex = parse(text, LoadOptions.builder().labelColumn(1).build());
    assertEquals(List.of("1.5", "2.5"), byIndex.classNames());
    assertArrayEquals(new float[] {0, 1, 1, 0}, byIndex.features());

    String m = parseFailure(text, LoadOptions.builder().labelColumn("nope").build());
    assertTrue(m.contains("no column named 'nope'; columns are ('id', 'x', 'y')"), m);
    String m2 = parseFailure(text, LoadOptions.builder().labelColumn(3).build());
    assertTrue(m2.contains("label column index 3 is out of range"), m2);
  }

  @Test
  void quotedFields() throws IOException {
    Dataset d = parse("\"a\",\"b, c\",label\n\"1\", 2 ,\"x \"\"y\"\"\"\n3,4,\"x \"\"y\"\"\"\n");
    assertEquals(2, d.featureCount());
    assertEquals(List.of("x \"y\""), d.classNames());
    assertArrayEquals(new float[] {1, 2, 3, 4}, d.features());

    assertTrue(parseFailure("a,b\n\"1,2\n").contains("line 2 has an unterminated quoted field"));
    assertTrue(parseFailure("a,b\n\"1\"x,2\n").contains("line 2 has text after a closing quote"));
    assertTrue(parseFailure("a,b\n1\"x,2\n").contains("quote inside an unquoted field"));
  }

  @Test
  void crlfAndBom() throws IOException {
    Dataset d = parse("\uFEFFlabel,x\r\n1,2\r\n0,3\r\n");
    assertArrayEquals(new int[] {1, 0}, d.labels());
    assertArrayEquals(new float[] {2, 3}, d.features());
  }

  @Test
  void gzipFileAndPathLoading() throws IOException {
    String text = "f0,f1,label\n0.5,1,a\n2,3,b\n";
    Path gz = write(dir, "d.csv.gz", gzip(text.getBytes(StandardCharsets.UTF_8)));
    Dataset d = Datasets.load(gz);
    assertEquals(List.of("a", "b"), d.classNames());
    assertEquals(gz.toString(), d.source());
    assertArrayEquals(new float[] {0.5f, 1, 2, 3}, d.features());
  }

  @Test
  void writeThenReadWithClassNamesRestoresLabels() throws IOException {
    float[] x = {0.1f, -2.5e-7f, 3, 4, 1e30f, -0f};
    int[] y = {1, 0, 2};
    List<String> names = List.of("b, with comma", "a \"quoted\"", "c");
    Dataset d = new Dataset(2, x, y, 3, names, "mem");
    Path p = dir.resolve("w.csv");
    CsvFormat.write(d, p);
    Dataset back = CsvFormat.read(p, LoadOptions.builder().classNames(names).build());
    assertArrayEquals(x, back.features());
    assertArrayEquals(y, back.labels());
    assertEquals(names, back.classNames());
  }

  @Test
  void trainTestMappingViaDatasets() throws IOException {
    Path train = write(dir, "train.csv", "x,label\n1,cat\n2,dog\n3,eel\n");
    Path test = write(dir, "test.csv", "x,label\n4,eel\n5,cat\n");
    Dataset tr = Datasets.load(train);
    Dataset te = Datasets.loadCompatible(test, tr);
    assertEquals(List.of("cat", "dog", "eel"), te.classNames());
    assertEquals(3, te.numClasses());
    assertArrayEquals(new int[] {2, 0}, te.labels());
    // Loaded alone, the test set would number its classes differently.
    assertArrayEquals(new int[] {1, 0}, Datasets.load(test).labels());

    Path bad = write(dir, "bad.csv", "x,label\n4,eel\n5,fox\n");
    String m = failure(() -> Datasets.loadCompatible(bad, tr));
    assertEquals(
        bad + ": line 3: label 'fox' is not one of the 3 known classes ('cat', 'dog', 'eel')", m);
  }

  @Test
  void raggedRowNamesLine() {
    String m = parseFailure("a,b,label\n1,2,0\n\n3,4\n");
    assertEquals("t.csv: line 4 has 2 fields, expected 3 as in the header", m);
  }

  @Test
  void badNumbersNameLineColumnSampleFeature() {
    String m = parseFailure("a,b,label\n1,2,0\n3,NaN,1\n");
    assertTrue(m.contains("line 3, column 'b' (sample 1, feature 1): value 'NaN' is NaN"), m);
    String inf = parseFailure("a,b,label\n1,-Infinity,0\n");
    assertTrue(inf.contains("(sample 0, feature 1)") && inf.contains("-Infinity"), inf);
    String overflow = parseFailure("a,b,label\n1,1e39,0\n");
    assertTrue(overflow.contains("'1e39' is Infinity"), overflow);
    String text = parseFailure("a,b,label\n1,x\u0001y,0\n");
    assertTrue(text.contains("'x?y' is not a number"), text);
    String empty = parseFailure("a,b,label\n1,,0\n");
    assertTrue(empty.contains("column 'b' (sample 0, feature 1): empty value"), empty);
    String emptyLabel = parseFailure("a,b,label\n1,2,\n");
    assertTrue(emptyLabel.contains("line 2 has an empty label"), emptyLabel);
  }

  @Test
  void headerProblems() {
    assertTrue(parseFailure("").contains("empty file (a header row is required)"));
    assertTrue(parseFailure("\n  \n").contains("empty file"));
    String m = parseFailure("1,2,3\n4,5,6\n");
    assertTrue(m.contains("line 1 looks like data, not a header"), m);
    assertTrue(parseFailure("label\n1\n").contains("need at least one feature column"));
    assertTrue(parseFailure("a,label\n").contains("no data rows after the header"));
    String ambiguous = parseFailure("label,LABEL,x\n1,2,3\n");
    assertTrue(ambiguous.contains("ambiguous"), ambiguous);
  }

  @Test
  void absurdLabelsAndColumns() {
    String big = parseFailure("x,label\n1,0\n2,99999999999\n");
    assertTrue(big.contains("line 3: integer label '99999999999' is too large"), big);
    StringBuilder header = new StringBuilder();
    for (int j = 0; j <= Dataset.MAX_FEATURES + 1; j++) {
      header.append(j == 0 ? "c" : ",c").append(j);
    }
    String wide = parseFailure(header + "\n");
    assertTrue(wide.contains("feature columns, more than " + Dataset.MAX_FEATURES), wide);
  }

  @Test
  void binaryFileIsRejected() throws IOException {
    Path p = write(dir, "b.csv", new byte[] {'a', ',', 'b', '\n', (byte) 0xff, (byte) 0xfe, 0});
    String m = failure(() -> CsvFormat.read(p));
    assertTrue(m.contains("not valid UTF-8"), m);
  }

  @Test
  void classNamesOptionValidates() {
    assertThrows(
        IllegalArgumentException.class, () -> LoadOptions.builder().classNames(List.of("a", "a")));
    assertThrows(IllegalArgumentException.class, () -> LoadOptions.builder().classNames(List.of()));
  }

  /** A machine's export has columns that hold no feature: a time stamp, a machine id; they are left out. */
  @Test
  void ignoredColumnsAreNotRead() throws IOException {
    String csv = "timestamp,machine,a,quality,b\n2026-11-28T10:00:00,press-2,1,ok,2\n2026-11-28T10:00:01,press-2,3,worn,4\n";
    LoadOptions byName = LoadOptions.builder().labelColumn("quality").ignoredColumns(List.of("timestamp", "Machine"))
        .build();
    Dataset d = parse(csv, byName);
    assertEquals(2, d.featureCount());
    assertArrayEquals(new float[] {1, 2, 3, 4}, d.features());
    assertEquals(List.of("ok", "worn"), d.classNames());
    for (List<String> byIndex : List.of(List.of("3", "0", "1"), List.of("#3", "#0", "#1"))) {
      Dataset indexed = parse(csv, LoadOptions.builder().labelColumn(byIndex.get(0))
          .ignoredColumns(byIndex.subList(1, 3)).build());
      assertArrayEquals(d.features(), indexed.features(), byIndex.toString());
      assertArrayEquals(d.labels(), indexed.labels(), byIndex.toString());
    }
    // without them, the first row says what is wrong and how to leave the column out; later rows do not
    String first = parseFailure(csv, LoadOptions.builder().labelColumn("quality").build());
    assertTrue(first.contains("line 2, column 'timestamp' (sample 0, feature 0): '2026-11-28T10:00:00' is not a number "
        + "(a column that holds no feature, a time stamp say, can be left out: --ignore-columns timestamp, or "
        + "'data.ignore-columns = timestamp' in a device's config)"), first);
    String later = parseFailure("a,label\n1,0\nx,1\n");
    assertTrue(later.endsWith("'x' is not a number"), later);
    // a column with no name (a file written with its row numbers first) is named by its index, which a shell keeps
    String unnamed = parseFailure(",a,label\nr1,1,0\n");
    assertTrue(unnamed.contains("--ignore-columns '#0', or 'data.ignore-columns = #0'"), unnamed);
    assertArrayEquals(new float[] {1}, parse(",a,label\nr1,1,0\n",
        LoadOptions.builder().ignoredColumns(List.of("#0")).build()).features());
    // a number with a decimal comma in a comma-separated file is no column of another kind: another hint
    String comma = parseFailure("a,label\n\"0,5\",ok\n");
    assertTrue(comma.endsWith("'0,5' is not a number (decimal commas are read in semicolon-separated files only)"),
        comma);
    // a date with dots is text, as a time stamp is
    String date = parseFailure("Datum;a;label\n28.11.2026;1,5;ok\n");
    assertTrue(date.contains("'28.11.2026' is not a number (a column that holds no feature, a time stamp say, can be "
        + "left out: --ignore-columns Datum"), date);
  }

  /**
   * Digits name a column before they index one; where they name one and index another (a file written
   * with its row numbers first: columns named 0, 1, … one place right of their indices) they are refused.
   */
  @Test
  void digitsThatNameOneColumnAndIndexAnotherAreRefused() throws IOException {
    String rowNumbered = ",0,1,2\n0,5,6,ok\n1,7,8,worn\n";
    String label = parseFailure(rowNumbered, LoadOptions.builder().labelColumn("2").build());
    assertTrue(label.contains("label column '2' is ambiguous: it names column 3 and is the index of column 2 ('1'): "
        + "write #2 for the column at index 2, #3 for the one named '2'"), label);
    Dataset d = parse(rowNumbered, LoadOptions.builder().labelColumn("#3").ignoredColumns(List.of("#0")).build());
    assertArrayEquals(new float[] {5, 6, 7, 8}, d.features());
    assertEquals(List.of("ok", "worn"), d.classNames());
    // where a column named by digits sits at that index, there is nothing to tell apart
    Dataset plain = parse("x,1,y\n5,ok,6\n", LoadOptions.builder().labelColumn("1").build());
    assertArrayEquals(new float[] {5, 6}, plain.features());
    assertEquals(List.of("ok"), plain.classNames());
  }

  @Test
  void ignoredColumnsMustNameColumnsOtherThanTheLabel() {
    String csv = "t,a,b,label\n0,1,2,0\n";
    String unknown = parseFailure(csv, LoadOptions.builder().ignoredColumns(List.of("time")).build());
    assertTrue(unknown.contains("no column named 'time' to ignore; columns are ('t', 'a', 'b', 'label')"), unknown);
    String range = parseFailure(csv, LoadOptions.builder().ignoredColumns(List.of("4")).build());
    assertTrue(range.contains("ignored column index 4 is out of range (the header has 4 columns, 0-based)"), range);
    String label = parseFailure(csv, LoadOptions.builder().ignoredColumns(List.of("label")).build());
    assertTrue(label.contains("column 'label' is the label column (by default the column named 'label', else the last "
        + "one: choose another with --label-column, or 'data.label-column'); it cannot be ignored as well"), label);
    String chosen = parseFailure(csv, LoadOptions.builder().labelColumn("a").ignoredColumns(List.of("a")).build());
    assertTrue(chosen.contains("column 'a' is the label column; it cannot be ignored as well"), chosen);
    String twice = parseFailure(csv, LoadOptions.builder().ignoredColumns(List.of("t", "0")).build());
    assertTrue(twice.contains("column 't' is ignored twice"), twice);
    String none = parseFailure(csv, LoadOptions.builder().ignoredColumns(List.of("t", "a", "b")).build());
    assertTrue(none.contains("no feature column is left: every column but the label column 'label' is ignored"), none);
    assertThrows(IllegalArgumentException.class, () -> LoadOptions.builder().ignoredColumns(List.of("t", " t ")));
    assertThrows(IllegalArgumentException.class, () -> LoadOptions.builder().ignoredColumns(List.of(" ")));
  }

  /**
   * A spreadsheet saved as CSV where the decimal mark is a comma separates columns with semicolons:
   * read with decimal commas; a tab-separated export with decimal points.
   */
  @Test
  void semicolonAndTabSeparatedFilesAreRead() throws IOException {
    Dataset eu = parse("a;b;label\n0,25;-1,5e2;ok\n3;4,5;worn\n");
    assertEquals(2, eu.featureCount());
    assertArrayEquals(new float[] {0.25f, -150f, 3f, 4.5f}, eu.features());
    Dataset tabs = parse("a\tb\tlabel\n0.25\t-1\tok\n");
    assertArrayEquals(new float[] {0.25f, -1f}, tabs.features());
    String tabComma = parseFailure("a\tb\tlabel\n0,25\t-1\tok\n");
    assertTrue(tabComma.contains("'0,25' is not a number (decimal commas are read in semicolon-separated files only)"),
        tabComma);
    // the delimiter is the one the header has most often: a comma inside a name does not decide it
    Dataset quoted = parse("\"temp, C\";b;label\n1,5;2;ok\n");
    assertArrayEquals(new float[] {1.5f, 2f}, quoted.features());
    Dataset unquoted = parse("Zeit;Druck, bar;label\n1;2,5;ok\n");
    assertArrayEquals(new float[] {1f, 2.5f}, unquoted.features());
    Dataset tie = parse("Temperatur, °C;Druck, bar;label\n20,5;1,01;ok\n");
    assertArrayEquals(new float[] {20.5f, 1.01f}, tie.features(), "as many commas as semicolons: semicolons");
    // an empty tab-separated cell is an empty value, not skipped white space
    String empty = parseFailure("a\tb\tlabel\n1\t\tok\n");
    assertTrue(empty.contains("column 'b' (sample 0, feature 1): empty value"), empty);
    // one file, one decimal mark: is 1.234 a thousand or one and a bit?
    String mixed = parseFailure("a;label\n0,5;ok\n1.234;ok\n");
    assertTrue(mixed.contains("line 3, column 'a' (sample 1, feature 0): '1.234' has a decimal point where line 2, "
        + "column 'a' (sample 0, feature 0) has a decimal comma: one file has one decimal mark"), mixed);
    String thousands = parseFailure("a;label\n1.234,5;ok\n");
    assertTrue(thousands.contains("'1.234,5' is not a number"), thousands);
    // no header: a first line of numbers, whichever delimiter splits it
    String headerless = parseFailure("0,25;1,5;0\n0,5;2;1\n");
    assertTrue(headerless.contains("line 1 looks like data, not a header"), headerless);
    assertEquals(';', CsvFormat.delimiterOf("a;b"));
    assertEquals(';', CsvFormat.delimiterOf("Zeit;Druck, bar;label"));
    assertEquals('\t', CsvFormat.delimiterOf("t\tp;avg\tlabel"));
    assertEquals(';', CsvFormat.delimiterOf("a;b,c"), "a semicolon on a tie");
    assertEquals(',', CsvFormat.delimiterOf("a,b\tc"), "a comma before a tab on a tie");
    assertEquals(',', CsvFormat.delimiterOf("\uFEFFa"), "a single column: refused later as one");
  }
}
