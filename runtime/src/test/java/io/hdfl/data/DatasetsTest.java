package io.hdfl.data;

import static io.hdfl.data.TestFiles.concat;
import static io.hdfl.data.TestFiles.failure;
import static io.hdfl.data.TestFiles.le;
import static io.hdfl.data.TestFiles.sample;
import static io.hdfl.data.TestFiles.write;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DatasetsTest {
  @TempDir Path dir;

  @Test
  void formatByFileName() {
    assertEquals(Optional.of(DatasetFormat.CHOIR_DAT), DatasetFormat.forFileName("a.choir_dat"));
    assertEquals(Optional.of(DatasetFormat.CHOIR_DAT), DatasetFormat.forFileName("A.CHOIR_DAT.GZ"));
    assertEquals(
        Optional.of(DatasetFormat.IDX), DatasetFormat.forFileName("train-images-idx3-ubyte"));
    assertEquals(
        Optional.of(DatasetFormat.IDX), DatasetFormat.forFileName("t10k-images.idx3-ubyte.gz"));
    assertEquals(Optional.of(DatasetFormat.CSV), DatasetFormat.forFileName("x.csv"));
    assertEquals(Optional.of(DatasetFormat.CSV), DatasetFormat.forFileName("x.csv.gz"));
    assertEquals(Optional.empty(), DatasetFormat.forFileName("x.parquet"));
    assertEquals(Optional.empty(), DatasetFormat.forFileName("train-labels-idx1-ubyte"));
  }

  @Test
  void unknownExtensionListsSupportedFormats() throws IOException {
    Path p = write(dir, "data.parquet", new byte[] {1, 2, 3});
    String m = failure(() -> Datasets.load(p));
    assertTrue(m.startsWith(p + ": unknown data file type; supported: "), m);
    assertTrue(m.contains(".choir_dat") && m.contains("idx3-ubyte") && m.contains(".csv"), m);
    assertTrue(!m.contains("\n"));
  }

  @Test
  void formatCanBeForced() throws IOException {
    Path p = write(dir, "data.bin", concat(le(2, 3), sample(2, 1f, 2f)));
    Dataset d =
        Datasets.load(p, LoadOptions.builder().format(DatasetFormat.CHOIR_DAT).build());
    assertEquals(1, d.size());
    assertEquals(2, d.label(0));
  }

  @Test
  void missingAndDirectory() throws IOException {
    Path absent = dir.resolve("none.csv");
    assertEquals(absent + ": file not found", failure(() -> Datasets.load(absent)));
    Path sub = Files.createDirectory(dir.resolve("sub.csv"));
    assertTrue(failure(() -> Datasets.load(sub)).contains("is a directory"));
  }

  @Test
  void aMissingFileIsReportedAsMissingWhateverItsName() throws IOException {
    // a mistyped path: before its format (or an IDX file's labels) is guessed from the name
    for (String name : new String[] {"data.gz", "noextension", "train-images-idx3-ubyte.gz"}) {
      Path absent = dir.resolve(name);
      assertEquals(absent + ": file not found", failure(() -> Datasets.load(absent)), name);
      assertEquals(absent + ": file not found",
          failure(() -> Datasets.loadCompatible(absent, TestFiles.synthetic(4, 2, 2))), name);
    }
    Path sub = Files.createDirectory(dir.resolve("folder"));
    assertTrue(failure(() -> Datasets.load(sub)).contains("is a directory"));
    // an existing file with an unknown name still lists the formats
    Path unknown = write(dir, "data.bin", new byte[] {1, 2, 3});
    assertTrue(failure(() -> Datasets.load(unknown)).contains("unknown data file type"));
  }

  @Test
  void compatibleChoirTakesTrainingClasses() throws IOException {
    Dataset train = TestFiles.synthetic(10, 2, 5);
    // The test file's header declares only 3 classes; the result must carry the training's 5.
    Path test =
        write(dir, "test.choir_dat", concat(le(2, 3), sample(2, 1f, 2f), sample(0, 3f, 4f)));
    Dataset d = Datasets.loadCompatible(test, train);
    assertEquals(5, d.numClasses());
    assertEquals(train.classNames(), d.classNames());
    assertArrayEquals(new int[] {2, 0}, d.labels());
  }

  @Test
  void compatibleRejectsFeatureCountAndLabelMismatch() throws IOException {
    Dataset train = TestFiles.synthetic(10, 2, 3);
    Path wide = write(dir, "wide.choir_dat", concat(le(3, 3), sample(0, 1f, 2f, 3f)));
    String m = failure(() -> Datasets.loadCompatible(wide, train));
    assertEquals(
        wide + ": has 3 features per sample but the training set synthetic has 2", m);

    Path many =
        write(dir, "many.choir_dat", concat(le(2, 9), sample(0, 1f, 2f), sample(7, 1f, 2f)));
    String m2 = failure(() -> Datasets.loadCompatible(many, train));
    assertTrue(m2.contains("sample 1 has label 7, but the training set synthetic has only 3"), m2);
  }

  @Test
  void compatibleCsvWithIntegerLabels() throws IOException {
    Path train = write(dir, "train.csv", "a,label\n1,0\n2,1\n3,2\n4,3\n");
    Path test = write(dir, "test.csv", "a,label\n5,3\n6,1\n");
    Dataset tr = Datasets.load(train);
    Dataset te = Datasets.loadCompatible(test, tr);
    assertEquals(4, te.numClasses());
    assertArrayEquals(new int[] {3, 1}, te.labels());
  }

  @Test
  void labelsFileGetsHint() throws IOException {
    Path p = write(dir, "train-labels-idx1-ubyte.gz", new byte[] {1});
    String m = failure(() -> Datasets.load(p));
    assertEquals(
        p + ": is an IDX labels file; load the matching images-idx3-ubyte file instead", m);
  }

  @Test
  void classNamesNameIndicesOfBinaryFormats() throws IOException {
    Path p = write(dir, "n.choir_dat", concat(le(1, 2), sample(1, 1f), sample(0, 2f)));
    LoadOptions names = LoadOptions.builder().classNames(List.of("ok", "worn", "broken")).build();
    Dataset d = Datasets.load(p, names);
    assertEquals(List.of("ok", "worn", "broken"), d.classNames());
    assertEquals(3, d.numClasses());
    assertArrayEquals(new int[] {1, 0}, d.labels());
    LoadOptions one = LoadOptions.builder().classNames(List.of("ok")).build();
    String m = failure(() -> Datasets.load(p, one));
    assertEquals(p + ": sample 0 has label 1 but only 1 class names were given", m);
  }
}
