package io.hdfl.hd;

/**
 * Predicted classes with their top-2 margin (best score minus second best; small means uncertain)
 * and the best score itself.
 */
public record Predictions(int[] labels, float[] margins, float[] bestScores) {
  public int size() {
    return labels.length;
  }
}
