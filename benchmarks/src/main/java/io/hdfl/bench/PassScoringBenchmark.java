package io.hdfl.bench;

import io.hdfl.kernels.VectorKernels;
import java.util.Arrays;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The scoring of one retraining pass in a Fashion-MNIST ring peer: its {@link #SAMPLES} int8 samples
 * scored {@code block} at a time ({@code dotScoresAt}) against 10 prototypes of dimension 2000. {@code
 * block} 0, the default, is the block {@code PrototypeTrainer} uses on this machine ({@code
 * VectorKernels.codeScoringBlock}: four with 512-bit kernels, one on AVX2); {@code -p block=1,2,4}
 * compares the tiles. Each op is the pass of the next of {@code peers}
 * peers, whose codes are arrays of their own: with 1 they stay in cache, with 100 (120 MB, the ring of
 * the README's table) each pass finds its codes where 99 other passes left them. {@code order}
 * {@code shuffled} visits the samples in a fresh permutation per peer, as a pass does; {@code
 * sequential} in storage order. Work per op: {@code 2·SAMPLES·classes·dim} FLOP. Measures memory as
 * much as the kernel: compare it with {@link CodeSimilarityBenchmark}, whose 1000 queries stay in cache.
 * Forked with the launcher's collector and transparent huge pages.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector", "-XX:+UseParallelGC",
    "-XX:+UseTransparentHugePages"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class PassScoringBenchmark {
  /** Samples of a peer: Fashion-MNIST's 60000 over 100 peers. */
  static final int SAMPLES = 600;

  @Param({"1", "100"})
  public int peers;

  @Param({"shuffled", "sequential"})
  public String order;

  @Param({"2000"})
  public int dim;

  @Param({"10"})
  public int classes;

  /** Samples scored at a time; 0: the trainer's block on this machine. Must divide {@link #SAMPLES}. */
  @Param({"0"})
  public int block;

  private VectorKernels scalar;
  private VectorKernels vector;
  private byte[][] codes;
  /** Per peer, the code offsets of its samples in the order a pass visits them. */
  private int[][] offsets;
  private float[] protos;
  private float[] scores;
  /** The block in use: {@link #block}, or the trainer's. */
  private int tile;
  private int[] blockOffsets;
  private int next;
  /** The peer of the last op. */
  private int last;

  @Setup(Level.Trial)
  public void setUp() {
    if (!order.equals("shuffled") && !order.equals("sequential")) {
      throw new IllegalArgumentException("order must be shuffled or sequential, got " + order);
    }
    scalar = KernelsUnderTest.scalar();
    vector = KernelsUnderTest.vector();
    tile = block == 0 ? vector.codeScoringBlock() : block;
    if (tile <= 0 || SAMPLES % tile != 0) {
      throw new IllegalArgumentException("block must divide " + SAMPLES + ", got " + block);
    }
    blockOffsets = new int[tile];
    codes = new byte[peers][];
    offsets = new int[peers][];
    for (int p = 0; p < peers; p++) {
      codes[p] = SyntheticInputs.hypervectorCodes(SAMPLES, dim, SyntheticInputs.SEED + 6 + p);
      offsets[p] = visitOrder(new SplittableRandom((SyntheticInputs.SEED ^ 0x0DE5) + p)); // not a codes seed
    }
    protos = SyntheticInputs.gaussian(classes * dim, 30.0, SyntheticInputs.SEED + 5);
    scores = new float[tile * classes];
    pass(scalar, 0);
    check("setup check, " + scalar.describe(), 0);
    pass(vector, 0);
    check("setup check, " + vector.describe(), 0);
    Arrays.fill(scores, Float.NaN); // a score the measured ops leave unwritten fails the teardown check
  }

  private int[] visitOrder(SplittableRandom rng) {
    int[] o = new int[SAMPLES];
    for (int i = 0; i < SAMPLES; i++) {
      o[i] = i;
    }
    if (order.equals("shuffled")) {
      for (int i = SAMPLES - 1; i > 0; i--) {
        int j = rng.nextInt(i + 1);
        int t = o[i];
        o[i] = o[j];
        o[j] = t;
      }
    }
    for (int i = 0; i < SAMPLES; i++) {
      o[i] *= dim;
    }
    return o;
  }

  /** One pass over peer {@code p}'s samples; leaves the scores of its last block. */
  private void pass(VectorKernels k, int p) {
    byte[] c = codes[p];
    int[] o = offsets[p];
    for (int i = 0; i < SAMPLES; i += tile) {
      System.arraycopy(o, i, blockOffsets, 0, tile);
      k.dotScoresAt(c, blockOffsets, tile, protos, classes, dim, scores);
    }
    last = p;
  }

  /** Checks the last block's scores of peer {@code p}'s pass against double precision. */
  private void check(String what, int p) {
    float[] queries = new float[tile * dim];
    for (int q = 0; q < tile; q++) {
      int from = offsets[p][SAMPLES - tile + q];
      for (int i = 0; i < dim; i++) {
        queries[q * dim + i] = codes[p][from + i];
      }
    }
    ResultCheck.scores(what, queries, tile, protos, classes, dim, scores);
  }

  /** Checks the scores of the last measured op. */
  @TearDown(Level.Trial)
  public void checkMeasuredOutput() {
    check("measured output", last);
  }

  @Benchmark
  public void passScoringScalar() {
    pass(scalar, next);
    next = next + 1 == peers ? 0 : next + 1;
  }

  @Benchmark
  public void passScoringVector() {
    pass(vector, next);
    next = next + 1 == peers ? 0 : next + 1;
  }
}
