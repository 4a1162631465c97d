package io.hdfl.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class PartitionerTest {
  /** counts[c] samples of class c, in a scrambled order. */
  private static int[] labels(long seed, int... counts) {
    List<Integer> y = new ArrayList<>();
    for (int c = 0; c < counts.length; c++) {
      for (int k = 0; k < counts[c]; k++) {
        y.add(c);
      }
    }
    int[] a = y.stream().mapToInt(Integer::intValue).toArray();
    SplittableRandom r = new SplittableRandom(seed);
    for (int i = a.length - 1; i > 0; i--) {
      int j = r.nextInt(i + 1);
      int t = a[i];
      a[i] = a[j];
      a[j] = t;
    }
    return a;
  }

  private static int[] uniform(int classes, int perClass) {
    int[] counts = new int[classes];
    Arrays.fill(counts, perClass);
    return counts;
  }

  /** Checks disjointness, ascending order and non-emptiness; returns how many samples were used. */
  private static int checkDisjoint(List<int[]> parts, int n) {
    boolean[] seen = new boolean[n];
    int used = 0;
    for (int[] part : parts) {
      assertTrue(part.length > 0, "empty client");
      for (int k = 0; k < part.length; k++) {
        if (k > 0) {
          assertTrue(part[k - 1] < part[k], "not ascending");
        }
        assertFalse(seen[part[k]], "index " + part[k] + " assigned twice");
        seen[part[k]] = true;
        used++;
      }
    }
    return used;
  }

  /** Samples per class of one client's share. */
  private static Map<Integer, Integer> classCounts(int[] part, int[] labels) {
    Map<Integer, Integer> m = new TreeMap<>();
    for (int i : part) {
      m.merge(labels[i], 1, Integer::sum);
    }
    return m;
  }

  @Test
  void iidBalancedDropsRemainder() {
    int[] y = labels(1, 40, 33, 30);
    List<int[]> parts = Partitioner.iid(10, true, 3).assign(y, 3);
    assertEquals(10, parts.size());
    for (int[] p : parts) {
      assertEquals(10, p.length);
    }
    assertEquals(100, checkDisjoint(parts, y.length));
  }

  @Test
  void iidUnbalancedUsesAll() {
    int[] y = labels(1, 40, 33, 30);
    List<int[]> parts = Partitioner.iid(10, false, 3).assign(y, 3);
    for (int k = 0; k < 10; k++) {
      assertEquals(k < 3 ? 11 : 10, parts.get(k).length);
    }
    assertEquals(103, checkDisjoint(parts, y.length));
  }

  @Test
  void classesPerClientRule() {
    assertEquals(13, Partitioner.classesPerClient(26, 2));
    assertEquals(9, Partitioner.classesPerClient(26, 3));
    assertEquals(2, Partitioner.classesPerClient(26, 26));
    assertEquals(2, Partitioner.classesPerClient(10, 20));
    assertEquals(10, Partitioner.classesPerClient(10, 1));
    assertEquals(1, Partitioner.classesPerClient(1, 4));
    assertEquals(2, Partitioner.classesPerClient(2, 1));
  }

  @Test
  void nonIidBalancedEqualPortions() {
    int[] counts = uniform(26, 60);
    counts[12] = 59;
    int[] y = labels(9, counts);
    for (int k : new int[] {1, 2, 3, 5, 7, 10, 26, 40}) {
      int m = Partitioner.classesPerClient(26, k);
      List<int[]> parts = Partitioner.nonIid(k, true, 11).assign(y, 26);
      assertEquals(k, parts.size());
      checkDisjoint(parts, y.length);
      int size = parts.get(0).length;
      assertEquals(0, size % m);
      int p = size / m;
      assertTrue(p >= 1);
      for (int[] part : parts) {
        Map<Integer, Integer> cc = classCounts(part, y);
        assertEquals(m, cc.size(), "K=" + k + ": classes per client");
        for (int count : cc.values()) {
          assertEquals(p, count, "K=" + k + ": portion size");
        }
        assertEquals(m * p, part.length);
      }
      // p is the largest portion every class can fill.
      int[] slots = new int[26];
      for (int[] part : parts) {
        for (int c : classCounts(part, y).keySet()) {
          slots[c]++;
        }
      }
      int expectedP = Integer.MAX_VALUE;
      for (int c = 0; c < 26; c++) {
        expectedP = Math.min(expectedP, counts[c] / slots[c]);
      }
      assertEquals(expectedP, p, "K=" + k);
    }
  }

  @Test
  void nonIidUnbalancedUsesAllAndPortionsDifferByAtMostOne() {
    int[] counts = {17, 5, 9, 30, 12, 8, 21};
    int[] y = labels(2, counts);
    for (int k : new int[] {1, 2, 3, 4, 6, 9}) {
      int m = Partitioner.classesPerClient(7, k);
      List<int[]> parts = Partitioner.nonIid(k, false, 4).assign(y, 7);
      assertEquals(y.length, checkDisjoint(parts, y.length), "K=" + k + ": coverage");
      Map<Integer, List<Integer>> portions = new TreeMap<>();
      for (int[] part : parts) {
        Map<Integer, Integer> cc = classCounts(part, y);
        assertTrue(cc.size() <= m);
        for (Map.Entry<Integer, Integer> e : cc.entrySet()) {
          portions.computeIfAbsent(e.getKey(), c -> new ArrayList<>()).add(e.getValue());
        }
      }
      for (List<Integer> sizes : portions.values()) {
        int min = sizes.stream().mapToInt(Integer::intValue).min().getAsInt();
        int max = sizes.stream().mapToInt(Integer::intValue).max().getAsInt();
        assertTrue(max - min <= 1, "K=" + k + ": " + sizes);
      }
    }
  }

  @Test
  void nonIidClientsHoldExactlyMClassesWhenDataSuffices() {
    int[] y = labels(3, uniform(10, 50));
    for (int k : new int[] {2, 4, 5, 8, 20}) {
      int m = Partitioner.classesPerClient(10, k);
      for (int[] part : Partitioner.nonIid(k, false, 6).assign(y, 10)) {
        assertEquals(m, classCounts(part, y).size(), "K=" + k);
      }
    }
  }

  @Test
  void deterministicPerSeedAndSeedsDiffer() {
    int[] y = labels(5, uniform(10, 30));
    for (Partitioner.Scheme scheme : Partitioner.Scheme.values()) {
      for (boolean balanced : new boolean[] {true, false}) {
        List<int[]> a = Partitioner.of(scheme, 4, balanced, 99).assign(y, 10);
        List<int[]> b = Partitioner.of(scheme, 4, balanced, 99).assign(y, 10);
        List<int[]> c = Partitioner.of(scheme, 4, balanced, 100).assign(y, 10);
        boolean differs = false;
        for (int k = 0; k < 4; k++) {
          assertArrayEquals(a.get(k), b.get(k));
          differs |= !Arrays.equals(a.get(k), c.get(k));
        }
        assertTrue(differs, scheme + " balanced=" + balanced + ": seeds 99 and 100 agree");
      }
    }
  }

  @Test
  void absentClassesAreIgnoredByNonIid() {
    int[] y = labels(4, 20, 0, 20, 20);
    List<int[]> parts = Partitioner.nonIid(3, true, 1).assign(y, 4);
    for (int[] part : parts) {
      Map<Integer, Integer> cc = classCounts(part, y);
      assertFalse(cc.containsKey(1));
      assertEquals(2, cc.size());
    }
  }

  @Test
  void errors() {
    int[] y = labels(1, 3, 3);
    assertThrows(IllegalArgumentException.class, () -> Partitioner.iid(0, true, 1));
    assertThrows(IllegalArgumentException.class, () -> Partitioner.nonIid(-2, true, 1));
    IllegalArgumentException tooMany =
        assertThrows(
            IllegalArgumentException.class, () -> Partitioner.iid(7, false, 1).assign(y, 2));
    assertTrue(tooMany.getMessage().contains("cannot partition 6 samples among 7 clients"));
    // 2 classes x 3 samples, 4 clients x 2 classes = 4 slots per class: p = floor(3/4) = 0.
    IllegalArgumentException zero =
        assertThrows(
            IllegalArgumentException.class, () -> Partitioner.nonIid(4, true, 1).assign(y, 2));
    assertTrue(
        zero.getMessage().contains("fewer clients or an unbalanced partition"), zero.getMessage());
    // Unbalanced, the same request leaves the fourth slot of each class empty.
    IllegalArgumentException empty =
        assertThrows(
            IllegalArgumentException.class, () -> Partitioner.nonIid(4, false, 1).assign(y, 2));
    assertTrue(empty.getMessage().contains("without samples"), empty.getMessage());
  }

  @Test
  void splitIntoDatasets() {
    Dataset d = TestFiles.synthetic(40, 3, 4);
    List<Dataset> parts = Partitioner.nonIid(2, true, 8).split(d);
    assertEquals(2, parts.size());
    for (Dataset part : parts) {
      assertEquals(20, part.size());
      assertEquals(4, part.numClasses());
      int nonEmpty = 0;
      for (int count : part.labelHistogram()) {
        nonEmpty += count > 0 ? 1 : 0;
        assertTrue(count == 0 || count == 10);
      }
      assertEquals(2, nonEmpty);
    }
  }
}
