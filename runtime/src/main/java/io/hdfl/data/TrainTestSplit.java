package io.hdfl.data;

import java.util.Objects;

/**
 * A data set divided into a training and a test part, with the indices (ascending) each part
 * took from the original.
 *
 * @param train the training samples
 * @param test the test samples
 * @param trainIndices indices of {@code train}'s samples in the original, ascending
 * @param testIndices indices of {@code test}'s samples in the original, ascending
 */
public record TrainTestSplit(Dataset train, Dataset test, int[] trainIndices, int[] testIndices) {
  public TrainTestSplit {
    Objects.requireNonNull(train, "train");
    Objects.requireNonNull(test, "test");
    Objects.requireNonNull(trainIndices, "trainIndices");
    Objects.requireNonNull(testIndices, "testIndices");
    if (train.size() != trainIndices.length || test.size() != testIndices.length) {
      throw new IllegalArgumentException("index lists do not match the part sizes");
    }
  }
}
