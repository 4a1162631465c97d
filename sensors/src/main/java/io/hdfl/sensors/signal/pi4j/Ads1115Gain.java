package io.hdfl.sensors.signal.pi4j;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * The ADS1115's programmable gain amplifier, named by its full-scale range FSR (TI SBAS444, config
 * register bits 11:9, PGA[2:0]). A conversion code c (16-bit two's complement) is
 * {@code c × FSR / 32768} volts, so the LSB is 187.5 µV at ±6.144 V down to 7.8125 µV at ±0.256 V.
 *
 * <p>The range is not a permission to exceed the supply: no analog input may go beyond
 * VDD + 0.3 V or below GND − 0.3 V, so with VDD = 3.3 V the ±6.144 and ±4.096 V ranges only measure
 * up to about 3.3 V (they trade resolution for headroom).
 */
public enum Ads1115Gain {
  /** ±6.144 V (PGA 000, gain 2/3). */
  FSR_6_144(0b000, 6.144),
  /** ±4.096 V (PGA 001, gain 1). */
  FSR_4_096(0b001, 4.096),
  /** ±2.048 V (PGA 010, gain 2; the reset default). */
  FSR_2_048(0b010, 2.048),
  /** ±1.024 V (PGA 011, gain 4). */
  FSR_1_024(0b011, 1.024),
  /** ±0.512 V (PGA 100, gain 8). */
  FSR_0_512(0b100, 0.512),
  /** ±0.256 V (PGA 101, gain 16; 110 and 111 mean the same). */
  FSR_0_256(0b101, 0.256);

  private final int bits;
  private final double fullScaleVolts;

  Ads1115Gain(int bits, double fullScaleVolts) {
    this.bits = bits;
    this.fullScaleVolts = fullScaleVolts;
  }

  /** The PGA[2:0] field. */
  public int pgaBits() {
    return bits;
  }

  /** The full-scale range in volts (the magnitude of ±FSR). */
  public double fullScaleVolts() {
    return fullScaleVolts;
  }

  /** Volts per conversion count: FSR / 2¹⁵. */
  public double voltsPerCount() {
    return fullScaleVolts / 32768;
  }

  /**
   * The gain whose full-scale range is {@code volts} (6.144, 4.096, 2.048, 1.024, 0.512 or 0.256).
   *
   * @throws IllegalArgumentException listing the ranges
   */
  public static Ads1115Gain ofFullScale(double volts) {
    for (Ads1115Gain g : values()) {
      if (Math.abs(g.fullScaleVolts - Math.abs(volts)) < 1e-9) {
        return g;
      }
    }
    throw new IllegalArgumentException("ADS1115 full-scale range must be one of " + ranges() + " V, got " + volts);
  }

  /** {@link #ofFullScale} of a text such as {@code 4.096}, {@code ±4.096} or {@code 4.096 V}. */
  public static Ads1115Gain parse(String text) {
    String t = text.strip().replace("±", "").replace("+-", "");
    if (t.endsWith("V") || t.endsWith("v")) {
      t = t.substring(0, t.length() - 1).strip();
    }
    try {
      return ofFullScale(Double.parseDouble(t));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("ADS1115 full-scale range must be one of " + ranges() + " V, got '"
          + text.strip() + "'");
    }
  }

  private static String ranges() {
    return Arrays.stream(values()).map(g -> String.valueOf(g.fullScaleVolts)).collect(Collectors.joining(", "));
  }

  @Override
  public String toString() {
    return "±" + fullScaleVolts + " V";
  }
}
