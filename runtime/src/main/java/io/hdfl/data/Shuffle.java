package io.hdfl.data;

import java.util.SplittableRandom;

/** Fisher–Yates shuffles driven by a seeded {@link SplittableRandom}, so results reproduce. */
final class Shuffle {
  private Shuffle() {}

  /** Shuffles {@code a} in place. */
  static void shuffle(int[] a, SplittableRandom random) {
    for (int i = a.length - 1; i > 0; i--) {
      int j = random.nextInt(i + 1);
      int t = a[i];
      a[i] = a[j];
      a[j] = t;
    }
  }

  /** {@code 0..n-1} in a random order. */
  static int[] permutation(int n, SplittableRandom random) {
    int[] p = new int[n];
    for (int i = 0; i < n; i++) {
      p[i] = i;
    }
    shuffle(p, random);
    return p;
  }

  /** The indices of the samples of each class, ascending: {@code result[c]} for class c. */
  static int[][] indicesByClass(int[] labels, int numClasses) {
    int[] counts = new int[numClasses];
    for (int label : labels) {
      counts[label]++;
    }
    int[][] byClass = new int[numClasses][];
    for (int c = 0; c < numClasses; c++) {
      byClass[c] = new int[counts[c]];
    }
    int[] fill = new int[numClasses];
    for (int i = 0; i < labels.length; i++) {
      byClass[labels[i]][fill[labels[i]]++] = i;
    }
    return byClass;
  }
}
