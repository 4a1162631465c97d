package io.hdfl.bench;

import io.hdfl.kernels.VectorKernels;
import java.util.SplittableRandom;
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
import org.openjdk.jmh.annotations.Warmup;

/**
 * The seeded (Box–Muller) noise of one model update of {@code values} values (10 × 2000: a
 * Fashion-MNIST ring; 26 × 10000: ISOLET at D=10000), three ways: drawn and added at the turn
 * ({@code fillGaussian} into a scratch array, then {@code axpy}, as a peer did before drawing ahead),
 * the part a peer now draws between its turns ({@code gaussianFactors}), and what is left for the turn
 * ({@code addGaussian} of the factors drawn ahead). The setup checks that the last two add exactly
 * what the first does. Work per op: {@code values} elements.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class NoiseBenchmark {
  private static final double SIGMA = 2.5;

  @Param({"20000", "260000"})
  public int values;

  private VectorKernels scalar;
  private VectorKernels vector;
  private SplittableRandom rng;
  private float[] model;
  private float[] scratch;
  private double[] radius;
  private double[] cos;
  private double[] sin;

  @Setup(Level.Trial)
  public void setUp() {
    scalar = KernelsUnderTest.scalar();
    vector = KernelsUnderTest.vector();
    int pairs = VectorKernels.gaussianPairs(values);
    radius = new double[pairs];
    cos = new double[pairs];
    sin = new double[pairs];
    scratch = new float[values];
    float[] start = SyntheticInputs.gaussian(values, 100.0, SyntheticInputs.SEED + 11);
    for (VectorKernels k : new VectorKernels[] {scalar, vector}) {
      float[] atTurn = start.clone();
      k.fillGaussian(scratch, 0, values, SIGMA, new SplittableRandom(SyntheticInputs.SEED));
      k.axpy(1f, scratch, 0, atTurn, 0, values);
      float[] ahead = start.clone();
      k.gaussianFactors(values, radius, cos, sin, 0, new SplittableRandom(SyntheticInputs.SEED));
      k.addGaussian(ahead, 0, values, SIGMA, radius, cos, sin, 0);
      ResultCheck.exact("setup check, noise drawn ahead against at the turn, " + k.describe(), atTurn, ahead);
    }
    model = start.clone();
    rng = new SplittableRandom(SyntheticInputs.SEED + 12);
  }

  @Benchmark
  public void atTurnScalar() {
    scalar.fillGaussian(scratch, 0, values, SIGMA, rng);
    scalar.axpy(1f, scratch, 0, model, 0, values);
  }

  @Benchmark
  public void atTurnVector() {
    vector.fillGaussian(scratch, 0, values, SIGMA, rng);
    vector.axpy(1f, scratch, 0, model, 0, values);
  }

  @Benchmark
  public void drawAheadScalar() {
    scalar.gaussianFactors(values, radius, cos, sin, 0, rng);
  }

  @Benchmark
  public void drawAheadVector() {
    vector.gaussianFactors(values, radius, cos, sin, 0, rng);
  }

  @Benchmark
  public void addDrawnAheadScalar() {
    scalar.addGaussian(model, 0, values, SIGMA, radius, cos, sin, 0);
  }

  @Benchmark
  public void addDrawnAheadVector() {
    vector.addGaussian(model, 0, values, SIGMA, radius, cos, sin, 0);
  }
}
