package io.hdfl.sensors.signal.pi4j;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * The ADS1115's data rate (TI SBAS444, config register bits 7:5, DR[2:0]): in single-shot mode one
 * conversion takes 1 / rate, within the ±10 % tolerance of the internal oscillator. Faster rates are
 * noisier (the digital filter averages less).
 */
public enum Ads1115DataRate {
  SPS_8(0b000, 8),
  SPS_16(0b001, 16),
  SPS_32(0b010, 32),
  SPS_64(0b011, 64),
  /** The reset default. */
  SPS_128(0b100, 128),
  SPS_250(0b101, 250),
  SPS_475(0b110, 475),
  SPS_860(0b111, 860);

  private final int bits;
  private final int samplesPerSecond;

  Ads1115DataRate(int bits, int samplesPerSecond) {
    this.bits = bits;
    this.samplesPerSecond = samplesPerSecond;
  }

  /** The DR[2:0] field. */
  public int drBits() {
    return bits;
  }

  /** Conversions per second. */
  public int samplesPerSecond() {
    return samplesPerSecond;
  }

  /** The nominal time of one conversion, ⌈10⁹ / rate⌉ ns. */
  public long conversionNanos() {
    return (1_000_000_000L + samplesPerSecond - 1) / samplesPerSecond;
  }

  /**
   * The rate of {@code sps} samples per second (8, 16, 32, 64, 128, 250, 475 or 860).
   *
   * @throws IllegalArgumentException listing the rates
   */
  public static Ads1115DataRate of(int sps) {
    for (Ads1115DataRate r : values()) {
      if (r.samplesPerSecond == sps) {
        return r;
      }
    }
    throw new IllegalArgumentException("ADS1115 data rate must be one of " + rates() + " SPS, got " + sps);
  }

  /** {@link #of} of a text such as {@code 860} or {@code 860 SPS}. */
  public static Ads1115DataRate parse(String text) {
    String t = text.strip();
    if (t.toUpperCase(java.util.Locale.ROOT).endsWith("SPS")) {
      t = t.substring(0, t.length() - 3).strip();
    }
    try {
      return of(Integer.parseInt(t));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("ADS1115 data rate must be one of " + rates() + " SPS, got '" + text.strip()
          + "'");
    }
  }

  private static String rates() {
    return Arrays.stream(values()).map(r -> String.valueOf(r.samplesPerSecond)).collect(Collectors.joining(", "));
  }

  @Override
  public String toString() {
    return samplesPerSecond + " SPS";
  }
}
