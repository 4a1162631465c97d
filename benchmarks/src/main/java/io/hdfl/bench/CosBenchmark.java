package io.hdfl.bench;

import io.hdfl.kernels.VectorKernels;
import io.hdfl.kernels.VectorKernelsProvider;
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
 * {@code cos} over a 1M-element array of N(0,1)·3 values (the encoder's second cost, applied to the
 * projection output). {@code cosVariant} picks the Panama variant: {@code default} leaves {@code
 * -Dhdfl.kernels.cos} as the JVM has it (the per-platform choice), {@code polynomial} and {@code
 * intrinsic} ({@code VectorOperators.COS}) set it before the kernels are created. The scalar kernels
 * have no variants; the harness runs {@code cosScalar} with {@code default} only. Work per op: {@code
 * len} elements.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class CosBenchmark {
  /** The value of {@link #cosVariant} that keeps the JVM's own cos choice. */
  static final String DEFAULT_VARIANT = "default";

  @Param("1048576")
  public int len;

  @Param({"default", "polynomial", "intrinsic"})
  public String cosVariant;

  private VectorKernels scalar;
  private VectorKernels vector;
  private float[] src;
  private float[] dst;

  @Setup(Level.Trial)
  public void setUp() {
    if (!DEFAULT_VARIANT.equals(cosVariant)) {
      // VectorKernelsProvider.panama() reads the property on every call and builds new kernels.
      System.setProperty(VectorKernelsProvider.COS_PROPERTY, cosVariant);
    }
    scalar = KernelsUnderTest.scalar();
    vector = KernelsUnderTest.vector();
    String expected = switch (cosVariant) {
      case DEFAULT_VARIANT -> "cos=";
      case "polynomial" -> "cos=polynomial";
      case "intrinsic" -> "cos=VectorOperators.COS";
      default -> throw new IllegalArgumentException("cosVariant must be default, polynomial or intrinsic");
    };
    if (!vector.describe().contains(expected)) {
      throw new IllegalStateException("asked for cos variant " + cosVariant + " but got " + vector.describe());
    }
    System.out.println("cos kernels under test: " + vector.describe());
    src = SyntheticInputs.gaussian(len, 3.0, SyntheticInputs.SEED + 3);
    dst = new float[len];
    scalar.cos(src, 0, dst, 0, len);
    ResultCheck.cos("setup check, " + scalar.describe(), src, dst, len);
    Arrays.fill(dst, Float.NaN);
    vector.cos(src, 0, dst, 0, len);
    ResultCheck.cos("setup check, " + vector.describe(), src, dst, len);
    Arrays.fill(dst, Float.NaN);
  }

  /** Checks the output of the last measured op. */
  @TearDown(Level.Trial)
  public void checkMeasuredOutput() {
    ResultCheck.cos("measured output (cosVariant=" + cosVariant + ")", src, dst, len);
  }

  @Benchmark
  public void cosScalar() {
    scalar.cos(src, 0, dst, 0, len);
  }

  @Benchmark
  public void cosVector() {
    vector.cos(src, 0, dst, 0, len);
  }
}
