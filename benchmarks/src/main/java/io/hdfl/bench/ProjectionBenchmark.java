package io.hdfl.bench;

import io.hdfl.kernels.PackedMatrix;
import io.hdfl.kernels.VectorKernels;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Projection GEMM {@code out[n×D] = x[n×f]·B[f×D]} (the encoder's dominant cost), with the basis
 * packed once by the implementation under test. Shapes are the data sets': UCI HAR (7352×561),
 * MNIST (60000×784), ISOLET at D = 10000 (1000 of 6238 rows×617), and a small MNIST batch for quick
 * runs. Work per op: {@code 2·n·f·D} FLOP.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class ProjectionBenchmark {
  /** The large shape the harness skips for the scalar kernels (a single op takes about a minute). */
  static final String SLOW_SCALAR_SHAPE = "60000x784x2000";
  /** The shape of {@code --quick} runs. */
  static final String QUICK_SHAPE = "512x784x2000";

  @Param({"512x784x2000", "7352x561x2000", "60000x784x2000", "1000x617x10000"})
  public String shape;

  /** The kernels' own threads argument; 0 = {@code Runtime.availableProcessors()}. */
  @Param("0")
  public int threads;

  private VectorKernels scalar;
  private VectorKernels vector;
  private PackedMatrix packedScalar;
  private PackedMatrix packedVector;
  private float[] x;
  private float[] basis;
  private float[] out;
  private int n;
  private int f;
  private int d;
  private int kernelThreads;

  @Setup(Level.Trial)
  public void setUp() {
    Shape s = Shape.parse(shape);
    n = s.n();
    f = s.f();
    d = s.d();
    kernelThreads = threads > 0 ? threads : Runtime.getRuntime().availableProcessors();
    scalar = KernelsUnderTest.scalar();
    vector = KernelsUnderTest.vector();
    x = SyntheticInputs.normalizedRows(n, f, SyntheticInputs.SEED);
    basis = SyntheticInputs.gaussian(f * d, 1.0, SyntheticInputs.SEED + 1);
    packedScalar = scalar.pack(basis, f, d);
    packedVector = vector.pack(basis, f, d);
    checkOnSample(scalar, packedScalar, vector, packedVector, x, n, f, basis, d, kernelThreads);
    out = new float[n * d];
    Arrays.fill(out, Float.NaN); // every entry must be written by the measured op
  }

  /**
   * Runs both kernels once on a random sample of rows (odd-sized, so row tails and the thread split
   * are exercised) and checks both against the double-precision reference.
   */
  static void checkOnSample(VectorKernels scalar, PackedMatrix packedScalar, VectorKernels vector,
      PackedMatrix packedVector, float[] x, int n, int f, float[] basis, int d, int threads) {
    int m = Math.min(n, 67);
    float[] xs = SyntheticInputs.rowSample(x, n, f, m, SyntheticInputs.SEED + 2);
    float[] o = new float[m * d];
    scalar.project(xs, m, f, packedScalar, o, threads);
    ResultCheck.projection("setup check, " + scalar.describe(), xs, m, f, basis, d, o);
    Arrays.fill(o, Float.NaN);
    vector.project(xs, m, f, packedVector, o, threads);
    ResultCheck.projection("setup check, " + vector.describe(), xs, m, f, basis, d, o);
  }

  /** Checks the output of the last measured op. */
  @TearDown(Level.Trial)
  public void checkMeasuredOutput() {
    ResultCheck.projection("measured output (" + shape + ")", x, n, f, basis, d, out);
  }

  @Benchmark
  public void projectScalar() {
    scalar.project(x, n, f, packedScalar, out, kernelThreads);
  }

  @Benchmark
  public void projectVector() {
    vector.project(x, n, f, packedVector, out, kernelThreads);
  }
}
