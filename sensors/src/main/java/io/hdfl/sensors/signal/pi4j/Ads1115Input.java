package io.hdfl.sensors.signal.pi4j;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * What an ADS1115 converts: one of its four inputs against GND (single-ended) or one of the four
 * differential pairs its multiplexer offers, with the MUX[2:0] bits of the config register (TI
 * SBAS444, config register bits 14:12). Single-ended readings are positive (0 to +full scale, 15
 * bits); differential ones are signed (16 bits).
 */
public enum Ads1115Input {
  /** AINP = AIN0, AINN = AIN1 (MUX 000, the reset default). */
  AIN0_AIN1(0b000, "AIN0-AIN1"),
  /** AINP = AIN0, AINN = AIN3 (MUX 001). */
  AIN0_AIN3(0b001, "AIN0-AIN3"),
  /** AINP = AIN1, AINN = AIN3 (MUX 010). */
  AIN1_AIN3(0b010, "AIN1-AIN3"),
  /** AINP = AIN2, AINN = AIN3 (MUX 011). */
  AIN2_AIN3(0b011, "AIN2-AIN3"),
  /** AIN0 against GND (MUX 100). */
  AIN0(0b100, "AIN0"),
  /** AIN1 against GND (MUX 101). */
  AIN1(0b101, "AIN1"),
  /** AIN2 against GND (MUX 110). */
  AIN2(0b110, "AIN2"),
  /** AIN3 against GND (MUX 111). */
  AIN3(0b111, "AIN3");

  private final int mux;
  private final String label;

  Ads1115Input(int mux, String label) {
    this.mux = mux;
    this.label = label;
  }

  /** The MUX[2:0] field. */
  public int muxBits() {
    return mux;
  }

  /** Whether this input is measured against GND. */
  public boolean singleEnded() {
    return mux >= 0b100;
  }

  /**
   * {@code AIN0} … {@code AIN3} or a pair {@code AIN0-AIN1}, {@code AIN0-AIN3}, {@code AIN1-AIN3},
   * {@code AIN2-AIN3} (case and spaces ignored; {@code _} may replace {@code -}).
   *
   * @throws IllegalArgumentException naming the inputs the ADS1115 has
   */
  public static Ads1115Input parse(String text) {
    String t = text.strip().toUpperCase(Locale.ROOT).replace(" ", "").replace('_', '-');
    for (Ads1115Input i : values()) {
      if (i.label.equals(t)) {
        return i;
      }
    }
    throw new IllegalArgumentException("ADS1115 input must be one of "
        + Arrays.stream(values()).map(Ads1115Input::toString).collect(Collectors.joining(", ")) + ", got '"
        + text.strip() + "'" + (t.matches("AIN[0-3]-AIN[0-3]")
            ? " (the multiplexer offers only these pairs: swap the wires, or negate the scale)" : ""));
  }

  @Override
  public String toString() {
    return label;
  }
}
