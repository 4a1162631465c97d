package io.hdfl.kernels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * No kernel boxes a vector, whatever C2 decides to inline: {@link BoxingProbe} runs in a JVM that
 * inlines no method of {@code io.hdfl.kernels} (the Vector API's own methods are inlined as always), so
 * that a vector passed to or returned by a helper of the kernels would be allocated there. In a normal
 * JVM, C2 leaves such a helper out of line where the call site's profile looks cold and the helper is
 * already compiled on its own; a retraining pass's scoring then boxed its accumulators at every
 * iteration, allocating gigabytes and taking four to six times as long, in some runs and not others
 * (README, How it works). Before the kernels stopped passing vectors around, this probe measured up to
 * 123 KB a call.
 *
 * <p>The entry points that allocate nothing of their own must allocate nothing here, so even one boxed
 * vector a call fails them. The others build small arrays of sums or, for the projection, a tile (up to
 * 440 bytes on 256-bit vectors, about 830 on 512-bit ones); they may allocate up to {@link
 * #MAX_BYTES_PER_CALL}, which catches accumulators boxed at every iteration (kilobytes at D=515) but
 * not a single boxed vector.
 *
 * <p>Runs the JVM of this test (with the vector width flags it was given) as a child process, on x86-64
 * only: the arm64 tests run their JVM under qemu, whose java this test could not start as it is.
 */
class NoVectorBoxingTest {
  /** Bytes a call may allocate where a kernel builds arrays of its own (see the class comment). */
  static final long MAX_BYTES_PER_CALL = 2048;
  /** The entry points that allocate nothing of their own, on every vector width. */
  static final Set<String> ALLOCATION_FREE = Set.of("dotScoresOfTwoAt(codes)", "dotScore(codes)", "axpy(codes)",
      "dotScore(float32)", "dot", "sumOfSquares", "axpy", "scale", "cos", "sign", "gaussianFactors+addGaussian");

  @Test
  void noEntryPointAllocatesVectorsWhenNothingOfTheKernelsIsInlined() throws IOException, InterruptedException {
    String arch = System.getProperty("os.arch");
    assumeTrue(arch.equals("amd64") || arch.equals("x86_64"), "child JVMs are started on x86-64 only, not on " + arch);
    assumeTrue(VectorKernelsProvider.panama().isPresent(), "no Panama kernels here");
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    List<String> cmd = new ArrayList<>(List.of(java.toString(), "--add-modules", "jdk.incubator.vector", "-Xbatch",
        "-XX:CompileCommand=quiet", "-XX:CompileCommand=dontinline,io.hdfl.kernels.*::*"));
    for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (arg.startsWith("-XX:MaxVectorSize=") || arg.startsWith("-XX:UseAVX=")) {
        cmd.add(arg); // the vector width this suite runs at (.ci/run also runs it on 256-bit vectors)
      }
    }
    cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), BoxingProbe.class.getName()));
    Path log = Files.createTempFile("boxing-probe", ".txt");
    try {
      Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
      boolean done = p.waitFor(180, TimeUnit.SECONDS);
      if (!done) {
        p.destroyForcibly();
      }
      String output = Files.readString(log, StandardCharsets.UTF_8);
      assertTrue(done && p.exitValue() == 0, "the probe failed:\n" + output);
      Map<String, Long> bytes = new LinkedHashMap<>();
      for (String line : output.split("\\R")) {
        int space = line.lastIndexOf(' ');
        if (line.startsWith("alloc ") && space > 6) {
          bytes.put(line.substring(6, space), Long.parseLong(line.substring(space + 1)));
        }
      }
      assertEquals(20, bytes.size(), "entry points measured:\n" + output);
      assertTrue(bytes.keySet().containsAll(ALLOCATION_FREE), "entry points measured:\n" + output);
      bytes.forEach((op, b) -> assertTrue(b <= (ALLOCATION_FREE.contains(op) ? 0 : MAX_BYTES_PER_CALL),
          op + " allocates " + b + " bytes a call (a vector boxed?):\n" + output));
    } finally {
      Files.deleteIfExists(log);
    }
  }
}
