package io.hdfl.cli;

import io.hdfl.data.Dataset;
import io.hdfl.data.Datasets;
import io.hdfl.data.LoadOptions;
import io.hdfl.hd.EncodingPrecision;
import io.hdfl.hd.HdModel;
import io.hdfl.hd.ModelFile;
import io.hdfl.kernels.VectorKernels;
import io.hdfl.kernels.VectorKernelsProvider;
import io.hdfl.local.EvaluationReport;
import io.hdfl.local.LocalTraining;
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

/** {@code hdfl eval}: evaluate a saved model on a test set. */
@Command(name = "eval", mixinStandardHelpOptions = true, description = "Evaluate a saved model on a test set.")
final class EvalCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin DataLoading loading;

  @Option(names = "--model", required = true, paramLabel = "FILE",
      description = "Model written by 'hdfl train --model', or the final-model.hdfl of a 'hdfl simulate' run folder "
          + "or of a 'hdfl peer' state directory.")
  Path model;

  @Option(names = "--test", required = true, paramLabel = "FILE", description = "Test data.")
  Path test;

  @Option(names = "--encodings", defaultValue = "float32", paramLabel = "float32|int8",
      converter = Converters.EncodingPrecisionConverter.class,
      description = "How the test set is encoded before scoring: float32, or int8 codes as 'hdfl simulate' keeps "
          + "them by default, which gives its final accuracy exactly (default: ${DEFAULT-VALUE}).")
  EncodingPrecision encodings;

  @Option(names = "--threads", description = "Worker threads (default: available processors).")
  Integer threads;

  @Option(names = "--json", description = "Print one JSON object instead of the human report.")
  boolean json;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    HdModel m = ModelFile.read(model);
    LoadOptions opts = loading.options().toBuilder().classNames(m.classNames()).build();
    Dataset testSet = Datasets.load(test, opts);
    if (testSet.featureCount() != m.encoder().features()) {
      throw new IllegalArgumentException(test + ": has " + testSet.featureCount() + " features per sample but model "
          + model + " expects " + m.encoder().features());
    }
    int[] labels = testSet.labels();
    for (int i = 0; i < labels.length; i++) {
      if (labels[i] >= m.prototypes().classes()) {
        throw new IllegalArgumentException(test + ": sample " + i + " has label " + labels[i] + " but model " + model
            + " knows " + m.prototypes().classes() + " classes");
      }
    }
    int t = threads == null ? Runtime.getRuntime().availableProcessors() : threads;
    if (t < 1) {
      throw new IllegalArgumentException("--threads must be >= 1, got " + t);
    }
    VectorKernels kernels = VectorKernelsProvider.get();
    EvaluationReport r = new LocalTraining(kernels).evaluate(m, testSet, t, encodings);
    if (json) {
      Map<String, Object> o = new LinkedHashMap<>(ReportFormat.evaluationJson(r));
      o.put("dim", m.encoder().dim());
      o.put("classes", m.prototypes().classes());
      o.put("encoder", m.encoder().kind().id());
      o.put("similarity", m.similarity().id());
      o.put("encodings", encodings.id());
      o.put("kernel_provider", kernels.name());
      JsonOutput.print(out, o);
    } else {
      out.printf("hdfl eval: %s on %s%n", model, test);
      out.printf("  model      %s encoder, D=%d, %d classes, %s similarity, basis seed %d%n",
          m.encoder().kind().id(), m.encoder().dim(), m.prototypes().classes(), m.similarity().id(),
          m.encoder().basisSeed());
      out.printf("  test set   encoded as %s%n", encodings == EncodingPrecision.INT8 ? "int8 codes" : "float32");
      ReportFormat.printEvaluation(out, r, m.classNames(), true);
    }
    return 0;
  }
}
