package io.hdfl.kernels;

import java.lang.management.ManagementFactory;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Chooses the kernels once per JVM. Panama is chosen when {@code jdk.incubator.vector} is in the
 * boot layer, the C2 compiler is on, and the preferred vector is at least 128 bits; otherwise the
 * scalar reference is used and one log line says why. {@code -Dhdfl.kernels=scalar|panama} forces
 * a choice (forcing panama when it cannot run is an error, not a silent fallback). {@code
 * -Dhdfl.kernels.cos=polynomial|intrinsic} overrides the per-platform cos choice.
 */
public final class VectorKernelsProvider {
  /** System property that forces the implementation. */
  public static final String PROPERTY = "hdfl.kernels";
  /** System property that forces the cos variant of the Panama kernels. */
  public static final String COS_PROPERTY = "hdfl.kernels.cos";
  /** System property: {@code off} skips {@link KernelPriming} for the chosen Panama kernels. */
  public static final String PRIMING_PROPERTY = "hdfl.kernels.priming";
  static final String VECTOR_MODULE = "jdk.incubator.vector";

  private static final System.Logger LOG = System.getLogger("io.hdfl.kernels");

  /** Whether {@link #primeInBackground} has started the priming of this JVM. */
  private static final AtomicBoolean PRIMED = new AtomicBoolean();

  private VectorKernelsProvider() {}

  private static final class Holder {
    static final Selection SELECTION = select(System.getProperty(PROPERTY, ""), System.getProperty(COS_PROPERTY, ""));

    static {
      LOG.log(System.Logger.Level.INFO, "hdfl kernels: " + SELECTION.kernels().describe() + " — " + SELECTION.reason());
    }
  }

  /** The kernels chosen for this JVM. */
  public static VectorKernels get() {
    return Holder.SELECTION.kernels();
  }

  /**
   * Starts {@link KernelPriming} of the chosen kernels on a daemon thread, once per JVM, when they are
   * the Panama ones and {@code -Dhdfl.kernels.priming=off} is not set: for commands that will retrain
   * and score int8 encodings (a simulation, a learning device peer), not for every start (it costs a
   * device's start about 0.4 s of CPU for kernels an aggregator never calls).
   */
  public static void primeInBackground() {
    VectorKernels k = get();
    if (k instanceof PanamaVectorKernels && !"off".equals(System.getProperty(PRIMING_PROPERTY))
        && PRIMED.compareAndSet(false, true)) {
      KernelPriming.start(k);
    }
  }

  /** Why {@link #get()} chose what it chose. */
  public static String reason() {
    return Holder.SELECTION.reason();
  }

  /** The scalar reference kernels. */
  public static VectorKernels scalar() {
    return ScalarVectorKernels.INSTANCE;
  }

  /** Panama kernels if this JVM can run them well, whatever {@link #PROPERTY} says. */
  public static Optional<VectorKernels> panama() {
    return panamaUnavailableReason() == null ? Optional.of(newPanama(System.getProperty(COS_PROPERTY, ""))) : Optional.empty();
  }

  /** The outcome of a choice. */
  public record Selection(VectorKernels kernels, String reason) {}

  /** The choice for the given forced value ({@code ""} = automatic). */
  static Selection select(String forced, String cosChoice) {
    String f = forced.trim().toLowerCase(Locale.ROOT);
    switch (f) {
      case "scalar":
        return new Selection(ScalarVectorKernels.INSTANCE, "forced by -D" + PROPERTY + "=scalar");
      case "panama": {
        String why = panamaUnavailableReason();
        if (why != null) {
          throw new IllegalStateException("-D" + PROPERTY + "=panama but Panama kernels cannot run: " + why);
        }
        return new Selection(newPanama(cosChoice), "forced by -D" + PROPERTY + "=panama");
      }
      case "":
      case "auto": {
        String why = panamaUnavailableReason();
        if (why != null) {
          return new Selection(ScalarVectorKernels.INSTANCE, "scalar fallback: " + why);
        }
        return new Selection(newPanama(cosChoice), "vector module present, C2 on, "
            + panamaBits() + "-bit vectors");
      }
      default:
        throw new IllegalArgumentException("-D" + PROPERTY + " must be scalar, panama or auto, not '" + forced + "'");
    }
  }

  /** Null when Panama kernels can run well here, otherwise the reason they cannot. */
  static String panamaUnavailableReason() {
    if (ModuleLayer.boot().findModule(VECTOR_MODULE).isEmpty()) {
      return VECTOR_MODULE + " is not present (run java with --add-modules " + VECTOR_MODULE + ")";
    }
    String c2 = c2Problem();
    if (c2 != null) {
      return c2;
    }
    int bits;
    try {
      bits = panamaBits();
    } catch (LinkageError | RuntimeException e) {
      return "the Vector API failed to initialise: " + e;
    }
    if (bits < 128) {
      return "preferred vector is only " + bits + " bits (need >= 128)";
    }
    return null;
  }

  private static int panamaBits() {
    return PanamaVectorKernels.preferredBits();
  }

  private static VectorKernels newPanama(String cosChoice) {
    return new PanamaVectorKernels(usePolynomialCos(cosChoice, System.getProperty("os.arch", "")));
  }

  /**
   * Per-platform cos choice. On x86-64 HotSpot intrinsifies {@code VectorOperators.COS} with SVML,
   * elsewhere it may fall back to scalar code per lane, so the portable polynomial is used there.
   * The default on x86-64 follows the measurement in benchmarks/README.md.
   */
  static boolean usePolynomialCos(String cosChoice, String arch) {
    String c = cosChoice.trim().toLowerCase(Locale.ROOT);
    switch (c) {
      case "polynomial":
      case "poly":
        return true;
      case "intrinsic":
        return false;
      case "":
        return !(arch.equals("amd64") || arch.equals("x86_64")) || X86_PREFERS_POLYNOMIAL;
      default:
        throw new IllegalArgumentException("-D" + COS_PROPERTY + " must be polynomial or intrinsic, not '" + cosChoice + "'");
    }
  }

  /** Measured on the development machine (see benchmarks/README.md). */
  static final boolean X86_PREFERS_POLYNOMIAL = true;

  /** Null when the optimizing JIT is available, else why not. */
  private static String c2Problem() {
    String info = System.getProperty("java.vm.info", "");
    if (info.contains("interpreted mode")) {
      return "the JVM runs interpreted (-Xint)";
    }
    try {
      var bean = ManagementFactory.getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class);
      if (bean == null) {
        return null;
      }
      if ("false".equals(bean.getVMOption("UseCompiler").getValue())) {
        return "the JIT compiler is disabled";
      }
      if ("true".equals(bean.getVMOption("TieredCompilation").getValue())
          && Integer.parseInt(bean.getVMOption("TieredStopAtLevel").getValue()) < 4) {
        return "C2 is off (TieredStopAtLevel < 4)";
      }
    } catch (RuntimeException | LinkageError e) {
      // Not HotSpot, or the management module is absent: trust the VM info string checked above.
    }
    return null;
  }
}
