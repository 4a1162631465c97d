package io.hdfl.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.hdfl.io.AtomicFile;
import io.hdfl.kernels.VectorKernelsProvider;
import io.hdfl.run.DeviceBench;
import io.hdfl.sensors.energy.DeviceProfiles;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code hdfl bench}: what this device does at its D and S, as a table and a JSON file. */
@Command(name = "bench", mixinStandardHelpOptions = true,
    description = "Benchmark this device: GEMM GFLOP/s (scalar and vector kernels), encode and inference latency at "
        + "D and S, one federation round over the embedded broker (time and energy, with the meter), memory peak. "
        + "Prints a table, writes JSON, and with --compare shows the change against an earlier result.")
final class BenchCommand implements Callable<Integer> {
  private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  @Spec CommandSpec spec;

  @Option(names = "--dim", defaultValue = "10000", description = "Hypervector dimension D (default: ${DEFAULT-VALUE}).")
  int dim;

  @Option(names = "--classes", defaultValue = "26", description = "Classes S (default: ${DEFAULT-VALUE}).")
  int classes;

  @Option(names = "--features", defaultValue = "617", description = "Input features (default: ${DEFAULT-VALUE}).")
  int features;

  @Option(names = "--quick", description = "Smaller batches and fewer repetitions (a few seconds).")
  boolean quick;

  @Option(names = "--profile", paramLabel = "NAME|SPEC", description = "Device profile for estimated energy.")
  String profile;

  @Option(names = "--out", paramLabel = "FILE", description = "JSON result (default: bench-<date-time>.json).")
  Path out;

  @Option(names = "--compare", paramLabel = "FILE", description = "An earlier result to compare with.")
  Path compare;

  @Override
  public Integer call() throws Exception {
    if (dim < 16 || classes < 2 || features < 1 || dim > 1_000_000 || classes > 10_000 || features > 100_000) {
      throw new IllegalArgumentException("need 16 <= --dim <= 1e6, 2 <= --classes <= 1e4, 1 <= --features <= 1e5");
    }
    JsonNode earlier = null;
    if (compare != null) {
      try {
        earlier = JSON.readTree(Files.readString(compare));
      } catch (IOException e) {
        throw new IllegalArgumentException(compare + ": not a bench result (" + e.getMessage().lines().findFirst()
            .orElse("") + ")");
      }
    }
    Map<String, Object> r = new DeviceBench(VectorKernelsProvider.get()).run(new DeviceBench.Plan(dim, classes,
        features, quick, DeviceProfiles.resolve(profile != null ? profile : DeviceProfiles.defaultName())));
    Path file = out != null ? out
        : Path.of("bench-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")) + ".json");
    byte[] json = JSON.writeValueAsBytes(r);
    AtomicFile.write(file, o -> o.write(json));
    PrintWriter w = spec.commandLine().getOut();
    w.printf("hdfl bench (%s)%n", r.get("kernel_provider"));
    for (Map.Entry<String, Object> e : r.entrySet()) {
      if (e.getKey().equals("kernel_provider")) {
        continue;
      }
      String now = format(e.getValue());
      JsonNode then = earlier == null ? null : earlier.get(e.getKey());
      if (then != null && then.isNumber() && e.getValue() instanceof Number v && then.asDouble() != 0) {
        double change = (v.doubleValue() / then.asDouble() - 1) * 100;
        w.printf("  %-26s %14s   was %-12s %+.1f %%%n", e.getKey(), now, format(then.asDouble()), change);
      } else {
        w.printf("  %-26s %14s%n", e.getKey(), now);
      }
    }
    w.printf("written to %s%n", file);
    return 0;
  }

  private static String format(Object v) {
    if (v instanceof Double d) {
      return String.format(Locale.ROOT, Math.abs(d) >= 100 ? "%.1f" : "%.3g", d);
    }
    return String.valueOf(v);
  }
}
