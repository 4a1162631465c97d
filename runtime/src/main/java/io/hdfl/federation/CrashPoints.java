package io.hdfl.federation;

/**
 * A test hook that makes crash points deterministic: with {@code -Dhdfl.test.haltAt=<point>:<step>}
 * the JVM halts (exit 137, as after {@code kill -9}: no shutdown hooks, nothing flushed) when this
 * peer reaches the named point at that step (ring: the step this peer produces; star: the round).
 * The points are the rows of the crash-point table in README "Crash safety". Without the property
 * it is a null check.
 */
public final class CrashPoints {
  private static final String TARGET = System.getProperty("hdfl.test.haltAt");

  private CrashPoints() {}

  /** Halts the JVM if {@code point} at {@code step} is the configured crash point. */
  public static void reached(String point, long step) {
    if (TARGET != null && TARGET.equals(point + ":" + step)) {
      System.err.println("hdfl: test crash point " + TARGET + " reached: halting");
      System.err.flush();
      Runtime.getRuntime().halt(137);
    }
  }
}
