package io.hdfl.privacy.noise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class NoiseDrawTest {
  @Test
  void rejectsInconsistentRecordsAndReportsSnapSensitivity() {
    NoiseDraw ok = new NoiseDraw("secure", 4, 4.0000001, 4.0000001, 0x1p-19, 10, 2);
    assertTrue(ok.added());
    assertEquals(0x1p-19 * 100, ok.snapSensitivity(10_000), 0);
    assertThrows(IllegalArgumentException.class, () -> ok.snapSensitivity(-1));
    assertFalse(new NoiseDraw("secure", 4, 4, 4, 1, 0, 0).added(), "an empty range adds nothing");
    assertThrows(IllegalArgumentException.class, () -> new NoiseDraw("x", 4, 3.9, 3.9, 0, 1, 0), "mechanism below request");
    assertThrows(IllegalArgumentException.class, () -> new NoiseDraw("x", -1, 0, 0, 0, 1, 0));
    assertThrows(IllegalArgumentException.class, () -> new NoiseDraw("x", 1, 1, 1, 0, 1, 2), "more rounded than drawn");
    assertThrows(IllegalArgumentException.class, () -> new NoiseDraw("x", 1, Double.NaN, 1, 0, 1, 0));
    assertThrows(NullPointerException.class, () -> new NoiseDraw(null, 1, 1, 1, 0, 1, 0));
  }
}
