package io.hdfl.sensors.signal.mqtt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ThrottledLogTest {

  @Test
  void burstThenOneLinePerMinute() {
    long[] now = {0};
    ThrottledLog log = new ThrottledLog("test", () -> now[0]);
    for (int i = 0; i < ThrottledLog.BURST; i++) {
      assertTrue(log.warn("problem " + i));
    }
    assertFalse(log.warn("suppressed"));
    now[0] += ThrottledLog.QUIET_NANOS - 1;
    assertFalse(log.warn("still suppressed"));
    now[0] += 1;
    assertTrue(log.warn("a minute later"));
    assertFalse(log.warn("suppressed again"));
  }

  @Test
  void printableCutsAndNeutralizesControlCharacters() {
    assertEquals("'a?b?c'", ThrottledLog.printable("a\nb\u001bc", 10));
    assertEquals("'abc...'", ThrottledLog.printable("abcdef", 3));
    assertEquals("null", ThrottledLog.printable(null, 3));
  }
}
