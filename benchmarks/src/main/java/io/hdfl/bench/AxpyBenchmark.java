package io.hdfl.bench;

import io.hdfl.kernels.VectorKernels;
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
 * Prototype update {@code y += alpha·x} (training and perceptron retraining) at hypervector dimension
 * {@code dim}. Each op flips the sign of alpha, so y alternates between two states instead of
 * drifting, and the inputs are dyadic rationals ({@code k/256}, alpha = ±1/2) for which every sum is
 * exact: the final y is checked bit for bit. Work per op: {@code 2·dim} FLOP.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class AxpyBenchmark {
  private static final float ALPHA = 0.5f;

  @Param({"2000", "10000"})
  public int dim;

  private VectorKernels scalar;
  private VectorKernels vector;
  private float[] x;
  private float[] y0;
  private float[] y1;
  private float[] y;
  private float alpha;

  @Setup(Level.Trial)
  public void setUp() {
    scalar = KernelsUnderTest.scalar();
    vector = KernelsUnderTest.vector();
    x = SyntheticInputs.dyadic(dim, 256, 8, SyntheticInputs.SEED + 6); // a hypervector in [-1, 1]
    y0 = SyntheticInputs.dyadic(dim, 1 << 20, 8, SyntheticInputs.SEED + 7); // a prototype
    y1 = new float[dim];
    for (int i = 0; i < dim; i++) {
      y1[i] = (float) (y0[i] + (double) ALPHA * x[i]); // exact: a multiple of 2^-9 below 2^13
    }
    for (VectorKernels k : new VectorKernels[] {scalar, vector}) {
      float[] t = y0.clone();
      k.axpy(ALPHA, x, 0, t, 0, dim);
      ResultCheck.exact("setup check, " + k.describe(), y1, t);
      k.axpy(-ALPHA, x, 0, t, 0, dim);
      ResultCheck.exact("setup check (undo), " + k.describe(), y0, t);
    }
    y = y0.clone();
    alpha = ALPHA;
  }

  /** Checks y after the measured ops: y0 after an even number of them, y0 + x/2 after an odd one. */
  @TearDown(Level.Trial)
  public void checkMeasuredOutput() {
    ResultCheck.exact("measured output", alpha == ALPHA ? y0 : y1, y);
  }

  @Benchmark
  public void axpyScalar() {
    float a = alpha;
    alpha = -a;
    scalar.axpy(a, x, 0, y, 0, dim);
  }

  @Benchmark
  public void axpyVector() {
    float a = alpha;
    alpha = -a;
    vector.axpy(a, x, 0, y, 0, dim);
  }
}
