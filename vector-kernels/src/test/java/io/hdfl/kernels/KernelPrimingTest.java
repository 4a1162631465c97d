package io.hdfl.kernels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class KernelPrimingTest {
  /** One call: the entry point and its argument types, and the D and S (or noise values) it was given. */
  private record Call(String method, int dim, int classes, int noiseValues) {}

  @Test
  void everyHopEntryPointIsCalledOftenOnOneLoopIterationOfDimensions() {
    VectorKernels panama = KernelPairs.panamaVariants().get(0);
    List<Call> calls = new ArrayList<>();
    VectorKernels recording = (VectorKernels) Proxy.newProxyInstance(VectorKernels.class.getClassLoader(),
        new Class<?>[] {VectorKernels.class}, (proxy, m, args) -> {
          Class<?>[] types = m.getParameterTypes();
          boolean codes = java.util.Arrays.asList(types).contains(byte[].class);
          String key = m.getName() + (codes ? "(codes)" : "")
              + (m.getName().equals("dotScoresAt") || m.getName().equals("dotScoresOfTwoAt") ? "[n=" + args[2] + "]" : "")
              + (m.getName().equals("dotScores") ? "[nq=" + args[2] + "]" : "");
          int dim = -1;
          int classes = -1;
          int noiseValues = -1;
          switch (m.getName()) {
            case "dotScoresAt", "dotScores", "dotScoresOfTwoAt" -> {
              classes = (int) args[4];
              dim = (int) args[5];
            }
            case "dotScore" -> {
              classes = (int) args[3];
              dim = (int) args[4];
            }
            case "axpy" -> dim = (int) args[5];
            case "gaussianFactors" -> noiseValues = (int) args[0];
            case "addGaussian" -> noiseValues = (int) args[2];
            default -> { }
          }
          if (noiseValues >= 0) {
            key += "[values=" + noiseValues + "]";
          }
          calls.add(new Call(key, dim, classes, noiseValues));
          try {
            return m.invoke(panama, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        });

    double checksum = KernelPriming.prime(recording, 0);

    assertTrue(Double.isFinite(checksum), "checksum " + checksum);
    Map<String, Integer> count = new TreeMap<>();
    Map<Integer, Integer> perClasses = new TreeMap<>();
    for (Call c : calls) {
      count.merge(c.method(), 1, Integer::sum);
      if (c.noiseValues() >= 0) {
        continue; // the noise kernels' loops run over a block's pairs: at most two blocks a call
      }
      // one iteration of the loop over the dimensions of the kernels that run: 16 for Order512Kernels
      int step = Order512Kernels.ACTIVE ? Order512Kernels.ORDER_LANES : PanamaCodeKernels.STEP;
      assertEquals(step, c.dim(), c + ": one iteration of the loop over the dimensions");
      if (c.classes() >= 0) {
        perClasses.merge(c.classes(), 1, Integer::sum);
      }
    }
    // every scoring call half the time with a one-class tail (11 = 8+2+1, 4+4+2+1, 4+4+1+1+1, and
    // 5+5+1 with 256-bit vectors) and half without one after the pair, quad and five-class tiles (14 =
    // 8+2+2+2, 4+4+4+2, and 5+5+4), so C2 sees both ways through the tiles, and every tile
    int scoring = 6 * KernelPriming.BURSTS * KernelPriming.CALLS;
    assertEquals(Map.of(KernelPriming.CLASSES, scoring / 2, KernelPriming.OTHER_CLASSES, scoring / 2), perClasses);
    int n = KernelPriming.BURSTS * KernelPriming.CALLS;
    // a retraining pass's pairs, blocks of four and last sample, its rescoring after a mistake, an
    // evaluation's tiles, one score, an update; noise drawn ahead and added, over one whole block and
    // over a block and a part whose pairs end in a scalar tail (17 pairs: two vectors of 8 and one)
    Map<String, Integer> expected = new TreeMap<>(Map.of("axpy(codes)", n, "dotScore(codes)", n,
        "dotScores(codes)[nq=5]", n, "dotScoresAt(codes)[n=1]", n, "dotScoresAt(codes)[n=2]", n,
        "dotScoresAt(codes)[n=4]", n, "dotScoresOfTwoAt(codes)[n=3]", n));
    expected.putAll(Map.of("gaussianFactors[values=128]", n / 2, "gaussianFactors[values=162]", n / 2,
        "addGaussian[values=128]", n / 2, "addGaussian[values=162]", n / 2));
    assertEquals(expected, count);
  }
}
