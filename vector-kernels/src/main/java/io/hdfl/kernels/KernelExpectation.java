package io.hdfl.kernels;

import java.util.Locale;
import java.util.Optional;

/**
 * What a run expects {@link VectorKernelsProvider} to have chosen, so that a silent fallback (the
 * scalar loops instead of Panama, or narrower vectors than the device has) fails a check instead of
 * passing slowly. {@code provider} is {@code "scalar"}, {@code "panama"} or blank (any); {@code bits}
 * is the float vector width in bits (128 on a NEON device, 256 with AVX2, 512 with AVX-512) or 0
 * (any).
 *
 * <p>Set with {@code -Dhdfl.kernels.expect} / {@code HDFL_KERNELS_EXPECT} and {@code
 * -Dhdfl.kernels.expectBits} / {@code HDFL_KERNELS_EXPECT_BITS}; a blank property falls back to its
 * environment variable.
 */
public record KernelExpectation(String provider, int bits) {
  /** System property naming the expected provider. */
  public static final String PROPERTY = "hdfl.kernels.expect";
  /** System property giving the expected vector width in bits. */
  public static final String BITS_PROPERTY = "hdfl.kernels.expectBits";
  /** Environment variable used when {@link #PROPERTY} is blank. */
  public static final String ENV = "HDFL_KERNELS_EXPECT";
  /** Environment variable used when {@link #BITS_PROPERTY} is blank. */
  public static final String BITS_ENV = "HDFL_KERNELS_EXPECT_BITS";
  /** The widest vector the Vector API can have (an SVE maximum); anything above is a typo. */
  static final int MAX_BITS = 2048;

  /** Checks the fields; use {@link #parse} for text from the command line or the environment. */
  public KernelExpectation {
    if (!provider.isEmpty() && !provider.equals("scalar") && !provider.equals("panama")) {
      throw new IllegalArgumentException(PROPERTY + " must be scalar or panama, not '" + provider + "'");
    }
    if (bits != 0 && (bits < Float.SIZE || bits > MAX_BITS || bits % Float.SIZE != 0)) {
      throw new IllegalArgumentException(BITS_PROPERTY + " must be a vector width in bits (a multiple of 32 up to "
          + MAX_BITS + ", e.g. 128, 256 or 512), not " + bits);
    }
  }

  /** Parses the two settings as given by a user; blank means "any". */
  public static KernelExpectation parse(String provider, String bits) {
    String p = provider == null ? "" : provider.trim().toLowerCase(Locale.ROOT);
    String b = bits == null ? "" : bits.trim();
    int n = 0;
    if (!b.isEmpty()) {
      try {
        n = Integer.parseInt(b);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(BITS_PROPERTY + " must be a vector width in bits (e.g. 128, 256 or 512), not '"
            + b + "'");
      }
      if (n == 0) {
        throw new IllegalArgumentException(BITS_PROPERTY + " must be a vector width in bits (e.g. 128, 256 or 512), not 0");
      }
    }
    return new KernelExpectation(p, n);
  }

  /** The expectation this JVM was started with (system properties, else environment variables). */
  public static KernelExpectation fromEnvironment() {
    return parse(setting(PROPERTY, ENV), setting(BITS_PROPERTY, BITS_ENV));
  }

  private static String setting(String property, String env) {
    String v = System.getProperty(property, "");
    if (v.isBlank()) {
      String e = System.getenv(env);
      v = e == null ? "" : e;
    }
    return v;
  }

  /** True when nothing is expected. */
  public boolean isAny() {
    return provider.isEmpty() && bits == 0;
  }

  /** Empty when kernels named {@code name} working on {@code vectorBits}-bit vectors are what is expected, else why not. */
  public Optional<String> mismatch(String name, int vectorBits) {
    boolean providerOk = provider.isEmpty() || provider.equals(name);
    boolean bitsOk = bits == 0 || bits == vectorBits;
    if (providerOk && bitsOk) {
      return Optional.empty();
    }
    return Optional.of("expected " + this + " kernels, the provider chose " + name + " with " + vectorBits + "-bit vectors");
  }

  /** {@link #mismatch(String, int)} for the given kernels. */
  public Optional<String> mismatch(VectorKernels kernels) {
    return mismatch(kernels.name(), kernels.vectorBits());
  }

  @Override
  public String toString() {
    String p = provider.isEmpty() ? "any" : provider;
    return bits == 0 ? p : p + " " + bits + "-bit";
  }
}
