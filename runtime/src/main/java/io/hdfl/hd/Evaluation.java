package io.hdfl.hd;

/**
 * Classification quality: accuracy, macro-F1 (mean F1 over the classes that occur in the truth or the
 * predictions), confusion matrix ({@code confusion[truth][predicted]}), per-class recall (NaN for a
 * class with no test samples) and the mean top-2 margin.
 */
public record Evaluation(
    int samples, double accuracy, double macroF1, int[][] confusion, double[] recall, double meanMargin) {

  /** Scores {@code predictions} against {@code truth} (labels in [0, classes)). */
  public static Evaluation of(int[] truth, Predictions predictions, int classes) {
    int[] pred = predictions.labels();
    if (truth.length != pred.length) {
      throw new IllegalArgumentException(truth.length + " labels but " + pred.length + " predictions");
    }
    int n = truth.length;
    int[][] confusion = new int[classes][classes];
    int correct = 0;
    double marginSum = 0;
    for (int i = 0; i < n; i++) {
      confusion[truth[i]][pred[i]]++;
      if (truth[i] == pred[i]) {
        correct++;
      }
      marginSum += predictions.margins()[i];
    }
    double[] recall = new double[classes];
    double f1Sum = 0;
    int f1Count = 0;
    for (int c = 0; c < classes; c++) {
      int tp = confusion[c][c];
      int support = 0;
      int predicted = 0;
      for (int k = 0; k < classes; k++) {
        support += confusion[c][k];
        predicted += confusion[k][c];
      }
      recall[c] = support > 0 ? (double) tp / support : Double.NaN;
      if (support > 0 || predicted > 0) {
        f1Sum += 2.0 * tp / (support + predicted);
        f1Count++;
      }
    }
    return new Evaluation(n, n > 0 ? (double) correct / n : Double.NaN,
        f1Count > 0 ? f1Sum / f1Count : Double.NaN, confusion, recall, n > 0 ? marginSum / n : Double.NaN);
  }
}
