package io.hdfl.bench;

import io.hdfl.hd.Basis;
import io.hdfl.hd.Encoder;
import io.hdfl.hd.EncoderKind;
import io.hdfl.hd.EncoderSpec;
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
 * End-to-end cos encoding {@code H = cos(x̂·B)} of a whole data set through the runtime's {@link
 * Encoder} — the path {@code hdfl train} uses: per chunk of rows, L2 normalization, projection GEMM
 * and cos, chunks spread over the threads. MNIST-shaped 60000×784 → D = 2000, plus a small batch for
 * quick runs. Work per op is counted as the GEMM's {@code 2·n·f·D} FLOP.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector"})
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 5, time = 2)
public class EncodeBenchmark {
  /** The large shape the harness skips for the scalar kernels (a single op takes about a minute). */
  static final String SLOW_SCALAR_SHAPE = "60000x784x2000";
  /** The shape of {@code --quick} runs. */
  static final String QUICK_SHAPE = "512x784x2000";

  @Param({"512x784x2000", "60000x784x2000"})
  public String shape;

  /** The kernels' own threads argument for the projection; 0 = {@code Runtime.availableProcessors()}. */
  @Param("0")
  public int threads;

  private VectorKernels scalar;
  private VectorKernels vector;
  private Encoder encoderScalar;
  private Encoder encoderVector;
  private float[] x;
  private float[] basis;
  private float[] h;
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
    EncoderSpec spec = new EncoderSpec(EncoderKind.COS, f, d, SyntheticInputs.SEED + 1);
    encoderScalar = new Encoder(spec, scalar, kernelThreads);
    encoderVector = new Encoder(spec, vector, kernelThreads);
    basis = Basis.generate(spec.basisSeed(), f, d, scalar, kernelThreads).packed().toRowMajor();
    int m = Math.min(n, 67);
    float[] xs = SyntheticInputs.rowSample(x, n, f, m, SyntheticInputs.SEED + 2);
    float[] hs = new float[m * d];
    encoderScalar.encode(xs, m, hs, kernelThreads);
    ResultCheck.encoded("setup check, " + scalar.describe(), xs, m, f, basis, d, hs);
    Arrays.fill(hs, Float.NaN);
    encoderVector.encode(xs, m, hs, kernelThreads);
    ResultCheck.encoded("setup check, " + vector.describe(), xs, m, f, basis, d, hs);
    h = new float[n * d];
    Arrays.fill(h, Float.NaN);
  }

  /** Checks the hypervectors of the last measured op. */
  @TearDown(Level.Trial)
  public void checkMeasuredOutput() {
    ResultCheck.encoded("measured output (" + shape + ")", x, n, f, basis, d, h);
  }

  @Benchmark
  public void encodeScalar() {
    encoderScalar.encode(x, n, h, kernelThreads);
  }

  @Benchmark
  public void encodeVector() {
    encoderVector.encode(x, n, h, kernelThreads);
  }
}
