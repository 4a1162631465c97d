package io.hdfl.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class DatasetTest {
  private static Dataset small() {
    float[] x = {1, 2, 3, -4, 5, 6, 7, 8, 9.5f};
    int[] y = {0, 2, 2};
    return new Dataset(3, x, y, 3, List.of("a", "b", "c"), "test");
  }

  @Test
  void accessorsAndStatistics() {
    Dataset d = small();
    assertEquals(3, d.size());
    assertEquals(3, d.featureCount());
    assertEquals(3, d.numClasses());
    assertEquals(List.of("a", "b", "c"), d.classNames());
    assertEquals(3, d.rowOffset(1));
    assertArrayEquals(new float[] {-4, 5, 6}, d.row(1));
    assertEquals(9.5f, d.feature(2, 2));
    assertEquals(2, d.label(2));
    assertArrayEquals(new int[] {1, 0, 2}, d.labelHistogram());
    assertEquals(-4f, d.minFeature());
    assertEquals(9.5f, d.maxFeature());
  }

  @Test
  void constructorCopiesItsArrays() {
    float[] x = {1, 2};
    int[] y = {0, 1};
    Dataset d = new Dataset(1, x, y, 2, Dataset.indexClassNames(2), "t");
    x[0] = 100;
    y[0] = 1;
    assertEquals(1f, d.feature(0, 0));
    assertEquals(0, d.label(0));
  }

  @Test
  void subsetKeepsOrderAndClasses() {
    Dataset s = small().subset(new int[] {2, 0, 2});
    assertEquals(3, s.size());
    assertArrayEquals(new int[] {2, 0, 2}, s.labels());
    assertArrayEquals(new float[] {7, 8, 9.5f, 1, 2, 3, 7, 8, 9.5f}, s.features());
    assertEquals(3, s.numClasses());
    assertEquals(List.of("a", "b", "c"), s.classNames());
    assertThrows(IndexOutOfBoundsException.class, () -> small().subset(new int[] {3}));
    assertThrows(IndexOutOfBoundsException.class, () -> small().subset(new int[] {-1}));
  }

  @Test
  void emptySubsetHasNanRange() {
    Dataset e = small().subset(new int[0]);
    assertEquals(0, e.size());
    assertTrue(Float.isNaN(e.minFeature()));
    assertTrue(Float.isNaN(e.maxFeature()));
  }

  @Test
  void rejectsInconsistentInput() {
    List<String> two = Dataset.indexClassNames(2);
    assertThrows(
        IllegalArgumentException.class,
        () -> new Dataset(2, new float[3], new int[] {0, 1}, 2, two, "t"));
    assertThrows(
        IllegalArgumentException.class,
        () -> new Dataset(1, new float[2], new int[] {0, 2}, 2, two, "t"));
    assertThrows(
        IllegalArgumentException.class,
        () -> new Dataset(1, new float[2], new int[] {0, -1}, 2, two, "t"));
    assertThrows(
        IllegalArgumentException.class,
        () -> new Dataset(1, new float[] {0, Float.NaN}, new int[] {0, 1}, 2, two, "t"));
    assertThrows(
        IllegalArgumentException.class,
        () -> new Dataset(1, new float[2], new int[] {0, 1}, 3, two, "t"));
    assertThrows(
        IllegalArgumentException.class,
        () -> new Dataset(0, new float[0], new int[0], 2, two, "t"));
    assertThrows(
        IllegalArgumentException.class,
        () -> new Dataset(1, new float[0], new int[0], 0, List.of(), "t"));
  }

  @Test
  void withClassesWidensOrRejects() {
    Dataset d = small();
    Dataset wider = d.withClasses(List.of("a", "b", "c", "d"));
    assertEquals(4, wider.numClasses());
    assertArrayEquals(new int[] {1, 0, 2, 0}, wider.labelHistogram());
    assertThrows(IllegalArgumentException.class, () -> d.withClasses(List.of("a", "b")));
  }

  @Test
  void indexClassNames() {
    assertEquals(List.of("0", "1", "2"), Dataset.indexClassNames(3));
  }
}
