package io.hdfl.local;

import io.hdfl.hd.HdModel;

/**
 * What {@link LocalTraining} produced and measured: the model, its test evaluation, and timings
 * (basis generation, encoding of the training set, bundling plus retraining).
 */
public record TrainingReport(
    HdModel model,
    EvaluationReport test,
    int trainSamples,
    double basisSeconds,
    double encodeSeconds,
    double trainSeconds,
    int lastEpochMistakes,
    String kernels) {}
