package io.hdfl.kernels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import jdk.incubator.vector.VectorSpecies;
import org.junit.jupiter.api.Test;

/**
 * The Panama kernels use one vector species per element type. C2 inlines the Vector API's methods
 * ({@code FloatVector.intoArray}, {@code fromArray}, {@code add} …) into every kernel with type profiles
 * that all callers share; a second species of one element type makes them bimorphic, and a kernel that
 * C2 compiles after both were seen gets its vectors boxed on the heap. With a half-width float species
 * in the noise kernels, primed on a thread of its own, encoding Fashion-MNIST took 25 s instead of
 * 1.5 s in about half of the runs: the projection GEMM had been compiled after the priming began.
 */
class PanamaSpeciesTest {
  @Test
  void eachElementTypeHasOneSpeciesAcrossThePanamaKernels() throws IllegalAccessException {
    Map<Class<?>, Set<String>> byElement = new HashMap<>();
    List<String> fields = new ArrayList<>();
    for (Class<?> c : List.of(PanamaVectorKernels.class, PanamaCodeKernels.class, Order512Kernels.class)) {
      for (Field f : c.getDeclaredFields()) {
        if (Modifier.isStatic(f.getModifiers()) && VectorSpecies.class.isAssignableFrom(f.getType())) {
          f.setAccessible(true);
          VectorSpecies<?> s = (VectorSpecies<?>) f.get(null);
          byElement.computeIfAbsent(s.elementType(), k -> new TreeSet<>()).add(s.toString());
          fields.add(c.getSimpleName() + "." + f.getName() + " = " + s);
        }
      }
    }
    assertFalse(byElement.isEmpty(), "no species field found: " + fields);
    assertEquals(Set.of(1), Set.copyOf(byElement.values().stream().map(Set::size).toList()),
        "species per element type " + byElement + " from " + fields);
    assertEquals(1, byElement.get(float.class).size(), "float species " + fields);
  }
}
