package io.hdfl.transport;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.management.ObjectName;

/**
 * Keeps the embedded broker's code (Moquette and its Netty) with HotSpot's C1 compiler, out of C2.
 *
 * <p>The broker shares the device's cores with the peers it serves. C2 compiles Netty's deep channel
 * pipelines slowly: in a Fashion-MNIST ring over the embedded broker (K=100, R=30, 2-core VM) C2
 * compiled for 11.3 s during a 12 s federation, 5.3 s of it on Netty and Moquette alone, while the
 * peers waited for a core. Kept to C1 (which then compiles them fully
 * optimized, without profiling), the run took 9.7-10.8 s instead of 11.1-12.1 s (README, Federation).
 * A broker carrying a few messages a second never needed C2's last factor of speed there.
 *
 * <p>The directive is added through the JVM's {@code Compiler.directives_add} diagnostic command when
 * the first broker starts, so it holds however the JVM was launched. {@code -Dhdfl.broker.c2=true}
 * leaves C2 to compile the broker as usual. Where the command is unavailable (another JVM, no {@code
 * jdk.management}) the broker runs as it is, and {@link #outcome()} says why.
 */
final class BrokerCompilation {
  /** The HotSpot compiler directive (JEP 165): no C2 for Netty and Moquette. */
  static final String DIRECTIVES = "[{ match: [\"io/netty/*.*\", \"io/moquette/*.*\"], c2: { Exclude: true } }]";
  /** The system property that, when {@code true}, leaves the broker's code to C2 as usual. */
  static final String KEEP_C2_PROPERTY = "hdfl.broker.c2";

  private static final System.Logger LOG = System.getLogger("io.hdfl.transport");
  private static String outcome;

  private BrokerCompilation() {}

  /**
   * Adds {@link #DIRECTIVES} to the running JVM, once; later calls return the first one's outcome.
   *
   * @return what happened: "added", "kept C2 (...)" or "not added: reason"
   */
  static synchronized String keepOffC2() {
    if (outcome == null) {
      outcome = Boolean.getBoolean(KEEP_C2_PROPERTY) ? "kept C2 (-D" + KEEP_C2_PROPERTY + "=true)" : add();
      LOG.log(System.Logger.Level.DEBUG, "embedded broker compilation: " + outcome);
    }
    return outcome;
  }

  /** The first {@link #keepOffC2()}'s outcome, or null before it. */
  static synchronized String outcome() {
    return outcome;
  }

  private static String add() {
    Path file = null;
    try {
      // the diagnostic command reads the directives from a file
      file = Files.createTempFile("hdfl-broker-jit", ".json");
      Files.write(file, DIRECTIVES.getBytes(StandardCharsets.US_ASCII));
      String reply = diagnosticCommand("compilerDirectivesAdd", file.toString());
      return reply.contains("added") ? "added" : "not added: " + reply.strip();
    } catch (Exception | LinkageError e) {
      return "not added: " + e;
    } finally {
      if (file != null) {
        try {
          Files.deleteIfExists(file);
        } catch (java.io.IOException e) {
          // a leftover of 80 bytes in the temporary directory
        }
      }
    }
  }

  /** Runs the JVM's diagnostic command {@code operation} (as jcmd would) and returns its output. */
  static String diagnosticCommand(String operation, String... arguments) throws Exception {
    Object reply = ManagementFactory.getPlatformMBeanServer().invoke(
        new ObjectName("com.sun.management:type=DiagnosticCommand"), operation, new Object[] {arguments},
        new String[] {String[].class.getName()});
    return String.valueOf(reply);
  }
}
