package io.hdfl.cli;

import io.hdfl.kernels.VectorKernelsProvider;
import picocli.CommandLine.IVersionProvider;

/** {@code hdfl --version}: the build, the JVM and the kernels it chose. */
final class VersionProvider implements IVersionProvider {
  @Override
  public String[] getVersion() {
    String v = HdflCommand.class.getPackage().getImplementationVersion();
    return new String[] {
      "hdfl " + (v == null ? "(development build)" : v),
      "JVM " + System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"),
      "kernels " + VectorKernelsProvider.get().describe()
    };
  }
}
