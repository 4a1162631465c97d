package io.hdfl.cli;

import io.hdfl.data.ChoirDatFormat;
import io.hdfl.data.Dataset;
import io.hdfl.data.Datasets;
import io.hdfl.data.StratifiedSplit;
import io.hdfl.data.TrainTestSplit;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code hdfl data inspect|split}. */
@Command(name = "data", mixinStandardHelpOptions = true, description = "Inspect and prepare data files.",
    subcommands = {DataCommand.Inspect.class, DataCommand.Split.class})
final class DataCommand implements Runnable {
  @Spec CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  @Command(name = "inspect", mixinStandardHelpOptions = true,
      description = "Samples, features, classes, value range and label histogram of a data file.")
  static final class Inspect implements Callable<Integer> {
    @Spec CommandSpec spec;
    @Mixin DataLoading loading;

    @Parameters(paramLabel = "FILE", description = "choir_dat[.gz], IDX images or CSV.")
    Path file;

    @Option(names = "--json", description = "Print one JSON object.")
    boolean json;

    @Override
    public Integer call() throws Exception {
      PrintWriter out = spec.commandLine().getOut();
      Dataset d = Datasets.load(file, loading.options());
      int[] hist = d.labelHistogram();
      if (json) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("file", file.toString());
        m.put("samples", d.size());
        m.put("features", d.featureCount());
        m.put("classes", d.numClasses());
        m.put("min", d.minFeature());
        m.put("max", d.maxFeature());
        Map<String, Integer> h = new LinkedHashMap<>();
        for (int c = 0; c < hist.length; c++) {
          h.put(d.classNames().get(c), hist[c]);
        }
        m.put("labels", h);
        JsonOutput.print(out, m);
        return 0;
      }
      out.printf("%s%n", file);
      out.printf("  samples   %d%n  features  %d%n  classes   %d%n", d.size(), d.featureCount(), d.numClasses());
      out.printf("  values    [%g, %g]%n", d.minFeature(), d.maxFeature());
      out.println("  labels    (class: samples)");
      int max = 1;
      for (int v : hist) {
        max = Math.max(max, v);
      }
      for (int c = 0; c < hist.length; c++) {
        int bar = (int) Math.round(40.0 * hist[c] / max);
        out.printf("    %-12s %7d %s%n", d.classNames().get(c), hist[c], "#".repeat(bar));
      }
      return 0;
    }
  }

  @Command(name = "split", mixinStandardHelpOptions = true,
      description = "Stratified, seeded train/test split of one file into two choir_dat files.")
  static final class Split implements Callable<Integer> {
    @Spec CommandSpec spec;
    @Mixin DataLoading loading;

    @Parameters(paramLabel = "FILE", description = "Data file to split.")
    Path file;

    @Option(names = "--test-fraction", defaultValue = "0.2", description = "Share of each class for test (default: ${DEFAULT-VALUE}).")
    double fraction;

    @Option(names = "--seed", defaultValue = "42", description = "Shuffle seed (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--train-out", required = true, paramLabel = "FILE", description = "Training part (.choir_dat[.gz]).")
    Path trainOut;

    @Option(names = "--test-out", required = true, paramLabel = "FILE", description = "Test part (.choir_dat[.gz]).")
    Path testOut;

    @Override
    public Integer call() throws Exception {
      Dataset d = Datasets.load(file, loading.options());
      TrainTestSplit s = StratifiedSplit.split(d, fraction, seed);
      ChoirDatFormat.write(s.train(), trainOut);
      ChoirDatFormat.write(s.test(), testOut);
      spec.commandLine().getOut().printf("%s: %d train -> %s, %d test -> %s (stratified, fraction %.3f, seed %d)%n",
          file, s.train().size(), trainOut, s.test().size(), testOut, fraction, seed);
      return 0;
    }
  }
}
