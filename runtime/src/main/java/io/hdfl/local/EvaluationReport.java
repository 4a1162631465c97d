package io.hdfl.local;

import io.hdfl.hd.Evaluation;

/** Quality and speed of a model on a test set. {@code inferMicros} = (encode + classify) / sample. */
public record EvaluationReport(Evaluation evaluation, int samples, double encodeSeconds, double inferMicros) {}
