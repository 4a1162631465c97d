package io.hdfl.bench;

import io.hdfl.kernels.VectorKernelsProvider;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs the kernel benchmarks through the JMH Runner API, then prints time per op, GFLOP/s (Gelem/s
 * for cos) and the vector/scalar speedup, and writes the same as JSON.
 *
 * <pre>
 * java --add-modules jdk.incubator.vector -jar benchmarks/target/benchmarks.jar [options] [regex...]
 *   --quick          small shapes and short iterations (a few minutes in all)
 *   --slow-scalar    also run the scalar GEMM/encode at 60000x784x2000 (about a minute per op)
 *   --out FILE       results JSON (default benchmarks/results/kernels-DATE.json)
 *   --list           print the benchmarks and exit
 *   regex            run only benchmarks whose full name it finds (several are OR-ed)
 *   -f 2, -wi 5, -p dim=2000, -prof gc, ...   any other JMH option is passed through
 * </pre>
 */
public final class KernelBenchmarks {
  static final String VECTOR_MODULE = "jdk.incubator.vector";
  /** JMH options that take no value; every other JMH option consumes the next argument. */
  private static final Set<String> JMH_FLAGS = Set.of("-h", "-l", "-lp", "-lprof", "-lrf");

  private final PrintStream out;
  private final PrintStream err;

  KernelBenchmarks(PrintStream out, PrintStream err) {
    this.out = out;
    this.err = err;
  }

  public static void main(String[] args) {
    System.exit(new KernelBenchmarks(System.out, System.err).run(args));
  }

  /** Parsed command line. */
  record Args(boolean quick, boolean slowScalar, boolean list, boolean help, String outFile, Pattern filter,
      List<String> jmhArgs) {}

  /** Parses the harness arguments; throws IllegalArgumentException on a usage error. */
  static Args parse(String... argv) {
    boolean quick = false;
    boolean slowScalar = false;
    boolean list = false;
    boolean help = false;
    String outFile = null;
    List<String> regexes = new ArrayList<>();
    List<String> jmh = new ArrayList<>();
    for (int i = 0; i < argv.length; i++) {
      String a = argv[i];
      if (a.equals("--quick")) {
        quick = true;
      } else if (a.equals("--slow-scalar")) {
        slowScalar = true;
      } else if (a.equals("--list")) {
        list = true;
      } else if (a.equals("--help") || a.equals("-h")) {
        help = true;
      } else if (a.equals("--out")) {
        if (i + 1 >= argv.length) {
          throw new IllegalArgumentException("--out needs a file name");
        }
        outFile = argv[++i];
      } else if (a.startsWith("--out=")) {
        outFile = a.substring("--out=".length());
      } else if (a.startsWith("--")) {
        throw new IllegalArgumentException("unknown option " + a);
      } else if (a.startsWith("-") && a.length() > 1) {
        if (JMH_FLAGS.contains(a)) {
          throw new IllegalArgumentException("JMH option " + a + " is not supported here; use --list or --help");
        }
        jmh.add(a);
        if (i + 1 >= argv.length) {
          throw new IllegalArgumentException("JMH option " + a + " needs a value");
        }
        jmh.add(argv[++i]);
      } else {
        regexes.add(a);
      }
    }
    Pattern filter;
    try {
      filter = Pattern.compile(regexes.isEmpty() ? "" : "(?:" + String.join(")|(?:", regexes) + ")");
    } catch (PatternSyntaxException e) {
      throw new IllegalArgumentException("bad benchmark regex: " + e.getMessage(), e);
    }
    return new Args(quick, slowScalar, list, help, outFile, filter, jmh);
  }

  /** Runs the harness; returns the process exit code (0 ok, 1 benchmark failure, 2 usage error). */
  public int run(String... argv) {
    Args args;
    Options user;
    try {
      args = parse(argv);
      user = new CommandLineOptions(args.jmhArgs().toArray(new String[0]));
    } catch (IllegalArgumentException | CommandLineOptionException e) {
      err.println("error: " + e.getMessage());
      err.println("run with --help for usage");
      return 2;
    }
    if (args.help()) {
      out.println(usage());
      return 0;
    }
    List<RunPlan> plans = RunPlan.plans(args.quick(), args.slowScalar(), args.filter());
    if (args.list()) {
      plans.forEach(p -> p.benchmarks().forEach(b -> out.println(b + (p.params().isEmpty() ? "" : "  " + p.params()))));
      return 0;
    }
    if (plans.isEmpty()) {
      err.println("error: no benchmark matches " + args.filter().pattern() + "; see --list");
      return 2;
    }
    boolean wantsVector = plans.stream().flatMap(p -> p.benchmarks().stream()).anyMatch(b -> b.endsWith("Vector"));
    if (wantsVector && VectorKernelsProvider.panama().isEmpty()) {
      err.println("error: Panama kernels are unavailable, so the <op>Vector benchmarks cannot run: "
          + VectorKernelsProvider.reason() + ". Run: java --add-modules " + VECTOR_MODULE + " -jar benchmarks.jar");
      return 1;
    }

    Map<String, String> env = environment(args, argv);
    env.forEach((k, v) -> out.println("# " + k + ": " + v));
    List<KernelResult> results = new ArrayList<>();
    int status = 0;
    for (RunPlan plan : plans) {
      try {
        for (RunResult r : new Runner(options(plan, args.quick(), user)).run()) {
          results.add(KernelResult.of(r));
        }
      } catch (RunnerException e) {
        err.println("error: benchmark run failed (a result check or the benchmark threw; see the JMH output above): "
            + e.getMessage());
        status = 1;
        break;
      }
    }
    results = KernelResult.withSpeedups(results);
    out.println();
    out.println("hdfl kernel benchmarks" + (args.quick() ? " (--quick)" : "") + ", "
        + env.get("availableProcessors") + " cores, " + env.get("jdk"));
    out.print(ResultTable.render(results));
    if (!results.isEmpty()) {
      Path file = outputFile(args.outFile(), args.quick());
      try {
        if (file.toAbsolutePath().getParent() != null) {
          Files.createDirectories(file.toAbsolutePath().getParent());
        }
        Files.writeString(file, ResultsJson.render(env, results), StandardCharsets.UTF_8);
        out.println("results written to " + file);
      } catch (IOException e) {
        err.println("error: cannot write " + file + ": " + e);
        status = 1;
      }
    }
    return status;
  }

  /** JMH options for one run: the plan, the harness defaults, and whatever the user passed. */
  static Options options(RunPlan plan, boolean quick, Options user) {
    ChainedOptionsBuilder b = new OptionsBuilder().parent(user);
    for (String name : plan.benchmarks()) {
      b.include("^" + Pattern.quote(name) + "$");
    }
    plan.params().forEach((k, v) -> {
      if (!user.getParameter(k).hasValue()) {
        b.param(k, v.toArray(new String[0]));
      }
    });
    if (!user.getForkCount().hasValue()) {
      b.forks(1);
    }
    if (!user.getWarmupIterations().hasValue()) {
      b.warmupIterations(quick ? 2 : 3);
    }
    if (!user.getWarmupTime().hasValue()) {
      b.warmupTime(quick ? TimeValue.milliseconds(500) : TimeValue.seconds(2));
    }
    if (!user.getMeasurementIterations().hasValue()) {
      b.measurementIterations(quick ? 3 : 5);
    }
    if (!user.getMeasurementTime().hasValue()) {
      b.measurementTime(quick ? TimeValue.milliseconds(500) : TimeValue.seconds(2));
    }
    if (!user.shouldFailOnError().hasValue()) {
      b.shouldFailOnError(true);
    }
    if (!user.getTimeout().hasValue()) {
      b.timeout(TimeValue.minutes(15));
    }
    // Options replace the @Fork annotations' jvmArgsAppend, so the vector module goes in here too.
    List<String> append = new ArrayList<>();
    Collection<String> userAppend = user.getJvmArgsAppend().hasValue() ? user.getJvmArgsAppend().get() : List.of();
    append.addAll(userAppend);
    if (!String.join(" ", append).contains(VECTOR_MODULE)) {
      append.add("--add-modules");
      append.add(VECTOR_MODULE);
    }
    b.jvmArgsAppend(append.toArray(new String[0]));
    return b.build();
  }

  static Path outputFile(String requested, boolean quick) {
    if (requested != null) {
      return Paths.get(requested);
    }
    Path dir = Files.isDirectory(Paths.get("benchmarks")) ? Paths.get("benchmarks", "results") : Paths.get("results");
    String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyy-MM-dd-HHmmss"));
    return dir.resolve("kernels-" + stamp + (quick ? "-quick" : "") + ".json");
  }

  private static Map<String, String> environment(Args args, String[] argv) {
    Map<String, String> env = new LinkedHashMap<>();
    env.put("date", LocalDateTime.now().toString());
    env.put("jdk", System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
    env.put("os", System.getProperty("os.name") + " " + System.getProperty("os.arch"));
    env.put("cpu", cpuModel().orElse("unknown"));
    env.put("availableProcessors", Integer.toString(Runtime.getRuntime().availableProcessors()));
    env.put("scalarKernels", VectorKernelsProvider.scalar().describe());
    env.put("panamaKernels", VectorKernelsProvider.panama().map(k -> k.describe())
        .orElse("unavailable: " + VectorKernelsProvider.reason()));
    env.put("mode", args.quick() ? "quick" : "full");
    env.put("arguments", String.join(" ", argv));
    return env;
  }

  private static Optional<String> cpuModel() {
    try {
      for (String line : Files.readAllLines(Paths.get("/proc/cpuinfo"))) {
        if (line.startsWith("model name")) {
          return Optional.of(line.substring(line.indexOf(':') + 1).trim());
        }
      }
    } catch (IOException | RuntimeException e) {
      // Not Linux: the CPU model is only informative.
    }
    return Optional.empty();
  }

  static String usage() {
    return String.join("\n",
        "usage: java --add-modules " + VECTOR_MODULE + " -jar benchmarks/target/benchmarks.jar [options] [regex...]",
        "  --quick          small shapes, short iterations (a few minutes in all)",
        "  --slow-scalar    also run the scalar GEMM/encode at 60000x784x2000 (about a minute per op)",
        "  --out FILE       results JSON (default benchmarks/results/kernels-<date>.json)",
        "  --list           print the benchmarks (with the parameter overrides the harness applies) and exit",
        "  regex            only benchmarks whose full name it finds, e.g. Projection or 'cos(Scalar|Vector)'",
        "  other -options   passed to JMH, e.g. -f 2, -wi 5, -i 10, -p dim=2000, -prof gc",
        "Defaults: 1 fork; full: 3x2 s warmup + 5x2 s measurement; --quick: 2x0.5 s + 3x0.5 s.",
        "Every benchmark checks its own results and the run fails on a wrong result.",
        "Exit status: 0 ok, 1 a benchmark failed, 2 usage error.");
  }
}
