package io.hdfl.data;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Seeded stratified train/test split: every class contributes the same fraction of its samples to
 * the test part.
 *
 * <p>Rule: with one {@code new SplittableRandom(seed)}, for each class {@code c = 0, 1, ...} in
 * turn, the indices of its {@code n_c} samples (ascending) are Fisher–Yates shuffled and the first
 * {@code Math.round(testFraction * n_c)} go to the test part, the rest to training. Each part
 * keeps the original sample order. The same data, fraction and seed always give the same split.
 */
public final class StratifiedSplit {
  private StratifiedSplit() {}

  /**
   * Splits {@code data}.
   *
   * @param testFraction share of each class that goes to the test part, in {@code [0, 1]}
   * @param seed seed of the shuffles
   * @throws IllegalArgumentException if {@code testFraction} is outside {@code [0, 1]} or NaN
   */
  public static TrainTestSplit split(Dataset data, double testFraction, long seed) {
    int[][] parts = splitIndices(data.labels(), data.numClasses(), testFraction, seed);
    return new TrainTestSplit(data.subset(parts[0]), data.subset(parts[1]), parts[0], parts[1]);
  }

  /**
   * The index lists of {@link #split}: {@code result[0]} training and {@code result[1]} test
   * indices, each ascending.
   */
  public static int[][] splitIndices(
      int[] labels, int numClasses, double testFraction, long seed) {
    if (!(testFraction >= 0 && testFraction <= 1)) {
      throw new IllegalArgumentException("test fraction must be in [0, 1], got " + testFraction);
    }
    SplittableRandom random = new SplittableRandom(seed);
    int[][] byClass = Shuffle.indicesByClass(labels, numClasses);
    int[] train = new int[labels.length];
    int[] test = new int[labels.length];
    int nTrain = 0;
    int nTest = 0;
    for (int[] members : byClass) {
      Shuffle.shuffle(members, random);
      int take = (int) Math.round(testFraction * members.length);
      for (int k = 0; k < members.length; k++) {
        if (k < take) {
          test[nTest++] = members[k];
        } else {
          train[nTrain++] = members[k];
        }
      }
    }
    train = Arrays.copyOf(train, nTrain);
    test = Arrays.copyOf(test, nTest);
    Arrays.sort(train);
    Arrays.sort(test);
    return new int[][] {train, test};
  }
}
