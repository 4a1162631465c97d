package io.hdfl.fuzz;

/**
 * One committed seed input: {@code src/test/resources/<package of test>/<Test>Inputs/<method>/<name>},
 * where Jazzer's regression mode finds it.
 */
public record Seed(Class<?> test, String method, String name, byte[] bytes) {
  /** The resource path of the seed, relative to src/test/resources. */
  public String resource() {
    return test.getPackageName().replace('.', '/') + "/" + test.getSimpleName() + "Inputs/" + method + "/" + name;
  }
}
