package io.hdfl.cli;

import io.hdfl.data.Dataset;
import io.hdfl.data.Datasets;
import io.hdfl.hd.EncoderKind;
import io.hdfl.hd.EncodingPrecision;
import io.hdfl.hd.ModelFile;
import io.hdfl.hd.Similarity;
import io.hdfl.kernels.VectorKernels;
import io.hdfl.kernels.VectorKernelsProvider;
import io.hdfl.local.LocalTraining;
import io.hdfl.local.TrainingConfig;
import io.hdfl.local.TrainingProgress;
import io.hdfl.local.TrainingReport;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code hdfl train}: local training and evaluation, no federation. */
@Command(
    name = "train",
    mixinStandardHelpOptions = true,
    description = "Train HD class prototypes on one data set and evaluate them on another (no federation).")
final class TrainCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin DataLoading loading;

  @Option(names = "--train", required = true, paramLabel = "FILE",
      description = "Training data: choir_dat[.gz], IDX images (*-images-idx3-ubyte[.gz]) or CSV.")
  Path train;

  @Option(names = "--test", required = true, paramLabel = "FILE", description = "Test data, same formats.")
  Path test;

  @Option(names = "--dim", defaultValue = "2000", description = "Hypervector dimension D (default: ${DEFAULT-VALUE}).")
  int dim;

  @Option(names = "--encoder", defaultValue = "cos", paramLabel = "cos|sign|cos-bias",
      converter = Converters.EncoderKindConverter.class, description = "Encoder (default: ${DEFAULT-VALUE}).")
  EncoderKind encoder;

  @Option(names = "--encodings", defaultValue = "float32", paramLabel = "float32|int8",
      converter = Converters.EncodingPrecisionConverter.class,
      description = "How the encodings are kept while training and testing: float32 or int8 codes (a quarter of "
          + "the memory; default: ${DEFAULT-VALUE}).")
  EncodingPrecision encodings;

  @Option(names = "--epochs", defaultValue = "20",
      description = "Retraining passes after the one-pass bundling; 0 = one pass only (default: ${DEFAULT-VALUE}).")
  int epochs;

  @Option(names = "--similarity", defaultValue = "cosine", paramLabel = "cosine|dot",
      converter = Converters.SimilarityConverter.class, description = "Scoring (default: ${DEFAULT-VALUE}).")
  Similarity similarity;

  @Option(names = "--seed", defaultValue = "42", description = "Basis and shuffling seed (default: ${DEFAULT-VALUE}).")
  long seed;

  @Option(names = "--threads", description = "Worker threads (default: available processors).")
  Integer threads;

  @Option(names = "--model", paramLabel = "OUT", description = "Write the trained model to this file.")
  Path model;

  @Option(names = "--json", description = "Print one JSON object instead of the human report.")
  boolean json;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    TrainingConfig cfg = TrainingConfig.builder().dim(dim).encoder(encoder).epochs(epochs).similarity(similarity)
        .seed(seed).threads(threads == null ? Runtime.getRuntime().availableProcessors() : threads)
        .encodings(encodings).build();
    TrainingProgress progress = TerminalProgress.forTerminal(spec.commandLine().getErr(), json);
    progress.stage("loading " + train.getFileName());
    Dataset trainSet = Datasets.load(train, loading.options());
    Dataset testSet = Datasets.loadCompatible(test, trainSet, loading.options());
    VectorKernels kernels = VectorKernelsProvider.get();
    TrainingReport r = new LocalTraining(kernels).run(trainSet, testSet, cfg, progress);
    if (progress instanceof TerminalProgress) {
      ((TerminalProgress) progress).finish();
    }
    if (model != null) {
      ModelFile.write(r.model(), model);
    }
    if (json) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.putAll(ReportFormat.evaluationJson(r.test()));
      m.put("encode_s", r.encodeSeconds());
      m.put("train_s", r.trainSeconds());
      m.put("basis_s", r.basisSeconds());
      m.put("dim", cfg.dim());
      m.put("classes", trainSet.numClasses());
      m.put("features", trainSet.featureCount());
      m.put("train_samples", r.trainSamples());
      m.put("encoder", cfg.encoder().id());
      m.put("encodings", cfg.encodings().id());
      m.put("similarity", cfg.similarity().id());
      m.put("epochs", cfg.epochs());
      m.put("seed", cfg.seed());
      m.put("threads", cfg.threads());
      m.put("kernel_provider", r.kernels());
      m.put("model", model == null ? null : model.toString());
      JsonOutput.print(out, m);
    } else {
      out.printf("hdfl train: %s -> %s%n", train, test);
      out.printf("  data       %d train x %d features, %d classes; %d test%n", r.trainSamples(),
          trainSet.featureCount(), trainSet.numClasses(), testSet.size());
      out.printf("  encoder    %s, D=%d, seed %d, %s similarity; kernels %s%n", cfg.encoder().id(), cfg.dim(),
          cfg.seed(), cfg.similarity().id(), kernels.describe());
      out.printf("  time       basis %.2f s, encode %.2f s, train %.2f s (1 pass + %d epochs, last epoch %d updates)%n",
          r.basisSeconds(), r.encodeSeconds(), r.trainSeconds(), cfg.epochs(), r.lastEpochMistakes());
      ReportFormat.printEvaluation(out, r.test(), trainSet.classNames(), false);
      if (model != null) {
        out.printf("  model      written to %s%n", model);
      }
    }
    return 0;
  }
}
