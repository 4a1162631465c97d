package io.hdfl.fuzz;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.management.ManagementFactory;

/**
 * What every fuzz target checks besides "the documented exception or a valid result": a rejection
 * explains itself in one line, and a decoder allocates in proportion to what it was given, never to
 * what the bytes claim.
 */
public final class Contract {
  private static final com.sun.management.ThreadMXBean THREADS = threads();

  private Contract() {}

  /** A rejection's message: present, not blank, one line (it goes to a log or a terminal as is). */
  public static void oneLine(Throwable e) {
    String m = e.getMessage();
    assertNotNull(m, () -> e.getClass().getName() + " without a message");
    assertFalse(m.isBlank(), () -> e.getClass().getName() + " with a blank message");
    assertFalse(m.contains("\n") || m.contains("\r"), () -> "message of more than one line: " + m);
  }

  /** {@link #oneLine} and the message starts with {@code prefix} (the file it is about). */
  public static void oneLineAbout(Throwable e, String prefix) {
    oneLine(e);
    assertTrue(e.getMessage().startsWith(prefix), () -> "message does not name " + prefix + ": " + e.getMessage());
  }

  /** Bytes this thread allocated so far, or -1 if the JVM cannot tell. */
  public static long allocatedBytes() {
    return THREADS == null ? -1 : THREADS.getThreadAllocatedBytes(Thread.currentThread().getId());
  }

  /** A fuzz target's body: deterministic, so it may run twice. */
  @FunctionalInterface
  public interface Body {
    void run() throws Exception;
  }

  /**
   * Runs {@code body} and fails if it allocated more than {@code budget} bytes on this thread: e.g.
   * a decoder that trusts a declared size before checking it against the input. The first run of a
   * path also pays for loading (and, when fuzzing, instrumenting) classes, so an over-budget run is
   * repeated once and only the repetition counts.
   */
  public static void allocatesAtMost(long budget, String what, Body body) throws Exception {
    long before = allocatedBytes();
    body.run();
    if (before < 0 || allocatedBytes() - before <= budget) {
      return;
    }
    before = allocatedBytes();
    body.run();
    long used = allocatedBytes() - before;
    if (used > budget) {
      fail(what + " allocated " + used + " bytes, more than its budget of " + budget);
    }
  }

  private static com.sun.management.ThreadMXBean threads() {
    if (ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean hotspot
        && hotspot.isThreadAllocatedMemorySupported() && hotspot.isThreadAllocatedMemoryEnabled()) {
      return hotspot;
    }
    return null;
  }
}
