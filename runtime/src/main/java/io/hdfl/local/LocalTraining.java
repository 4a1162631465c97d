package io.hdfl.local;

import io.hdfl.data.Dataset;
import io.hdfl.hd.ClassPrototypes;
import io.hdfl.hd.Classifier;
import io.hdfl.hd.EncodedSet;
import io.hdfl.hd.Encoder;
import io.hdfl.hd.EncoderSpec;
import io.hdfl.hd.EncodingPrecision;
import io.hdfl.hd.Evaluation;
import io.hdfl.hd.HdModel;
import io.hdfl.hd.Predictions;
import io.hdfl.hd.PrototypeTrainer;
import io.hdfl.kernels.VectorKernels;

/**
 * Train on one data set and evaluate on another, on this device only: encode once, bundle, retrain
 * for the configured epochs, then classify the test set.
 */
public final class LocalTraining {
  private final VectorKernels kernels;

  public LocalTraining(VectorKernels kernels) {
    this.kernels = kernels;
  }

  public TrainingReport run(Dataset train, Dataset test, TrainingConfig cfg, TrainingProgress progress) {
    if (test.featureCount() != train.featureCount()) {
      throw new IllegalArgumentException("test set has " + test.featureCount() + " features, training set "
          + train.featureCount());
    }
    EncoderSpec spec = new EncoderSpec(cfg.encoder(), train.featureCount(), cfg.dim(), cfg.seed());
    progress.stage("generating basis " + spec.features() + "x" + spec.dim());
    long t0 = System.nanoTime();
    Encoder encoder = new Encoder(spec, kernels, cfg.threads());
    long t1 = System.nanoTime();
    progress.stage("encoding " + train.size() + " training samples");
    EncodedSet encoded = EncodedSet.encode(encoder, train.features(), train.size(), train.labels(),
        train.numClasses(), cfg.threads(), cfg.encodings());
    long t2 = System.nanoTime();
    progress.stage("training");
    ClassPrototypes prototypes = new ClassPrototypes(train.numClasses(), cfg.dim());
    PrototypeTrainer trainer = new PrototypeTrainer(kernels, cfg.similarity());
    trainer.bundle(prototypes, encoded);
    int mistakes = trainer.retrain(prototypes, encoded, cfg.epochs(), cfg.seed(), progress::epoch);
    long t3 = System.nanoTime();
    HdModel model = new HdModel(spec, cfg.similarity(), prototypes, train.classNames());
    progress.stage("evaluating on " + test.size() + " test samples");
    EvaluationReport report = evaluate(model, encoder, test, cfg.threads(), cfg.encodings());
    return new TrainingReport(model, report, train.size(), seconds(t1 - t0), seconds(t2 - t1), seconds(t3 - t2),
        mistakes, kernels.name());
  }

  /** Encodes and classifies {@code test} with {@code model} (float32 encodings). */
  public EvaluationReport evaluate(HdModel model, Encoder encoder, Dataset test, int threads) {
    return evaluate(model, encoder, test, threads, EncodingPrecision.FLOAT32);
  }

  /** Encodes {@code test} in {@code precision} and classifies it with {@code model}. */
  public EvaluationReport evaluate(HdModel model, Encoder encoder, Dataset test, int threads,
      EncodingPrecision precision) {
    if (test.featureCount() != model.encoder().features()) {
      throw new IllegalArgumentException("test set has " + test.featureCount() + " features but the model expects "
          + model.encoder().features());
    }
    int classes = model.prototypes().classes();
    long t0 = System.nanoTime();
    EncodedSet encoded = EncodedSet.encode(encoder, test.features(), test.size(), test.labels(), classes, threads,
        precision);
    long t1 = System.nanoTime();
    Predictions p = new Classifier(kernels, model.similarity()).predict(model.prototypes(), encoded, threads);
    long t2 = System.nanoTime();
    Evaluation e = Evaluation.of(test.labels(), p, classes);
    return new EvaluationReport(e, test.size(), seconds(t1 - t0), (t2 - t0) / 1e3 / test.size());
  }

  /** Evaluates a saved model: rebuilds its encoder from the spec, then {@link #evaluate}. */
  public EvaluationReport evaluate(HdModel model, Dataset test, int threads, EncodingPrecision precision) {
    return evaluate(model, new Encoder(model.encoder(), kernels, threads), test, threads, precision);
  }

  private static double seconds(long nanos) {
    return nanos / 1e9;
  }
}
