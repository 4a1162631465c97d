package io.hdfl.bench;

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
 * Inference scoring of int8 codes ({@code dotScores(byte[] ...)}, the form hdfl keeps encodings in by
 * default): {@code queries} quantized cos-encoded hypervectors against {@code classes} prototypes of
 * dimension {@code dim}, one query or a batch of 1000 (a batch is scored four queries at a time).
 * Work per op: {@code 2·queries·classes·dim} FLOP, as {@link SimilarityBenchmark}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class CodeSimilarityBenchmark {
  @Param({"1", "1000"})
  public int queries;

  @Param({"2000", "10000"})
  public int dim;

  @Param({"10", "26"})
  public int classes;

  private VectorKernels scalar;
  private VectorKernels vector;
  private byte[] codes;
  /** The codes as floats, for the double-precision check. */
  private float[] asFloats;
  private float[] protos;
  private float[] scores;

  @Setup(Level.Trial)
  public void setUp() {
    scalar = KernelsUnderTest.scalar();
    vector = KernelsUnderTest.vector();
    codes = SyntheticInputs.hypervectorCodes(queries, dim, SyntheticInputs.SEED + 4);
    asFloats = new float[codes.length];
    for (int i = 0; i < codes.length; i++) {
      asFloats[i] = codes[i];
    }
    protos = SyntheticInputs.gaussian(classes * dim, 30.0, SyntheticInputs.SEED + 5);
    scores = new float[queries * classes];
    scalar.dotScores(codes, 0, queries, protos, classes, dim, scores);
    ResultCheck.scores("setup check, " + scalar.describe(), asFloats, queries, protos, classes, dim, scores);
    Arrays.fill(scores, Float.NaN);
    vector.dotScores(codes, 0, queries, protos, classes, dim, scores);
    ResultCheck.scores("setup check, " + vector.describe(), asFloats, queries, protos, classes, dim, scores);
    Arrays.fill(scores, Float.NaN);
  }

  /** Checks the scores of the last measured op. */
  @TearDown(Level.Trial)
  public void checkMeasuredOutput() {
    ResultCheck.scores("measured output", asFloats, queries, protos, classes, dim, scores);
  }

  @Benchmark
  public void codeSimilarityScalar() {
    scalar.dotScores(codes, 0, queries, protos, classes, dim, scores);
  }

  @Benchmark
  public void codeSimilarityVector() {
    vector.dotScores(codes, 0, queries, protos, classes, dim, scores);
  }
}
