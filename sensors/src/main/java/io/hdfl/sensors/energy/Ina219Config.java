package io.hdfl.sensors.energy;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Locale;
import java.util.Objects;

/**
 * How an INA219 is wired and programmed, with the register values derived from it per the TI
 * INA219 datasheet (SBOS448, §8.5 "Programming"):
 * <pre>
 *   Current_LSB = max expected current / 2^15        (or a larger, rounder value you choose)
 *   Cal         = trunc(0.04096 / (Current_LSB × R_shunt))   bit 0 is unused and cleared
 *   Power_LSB   = 20 × Current_LSB
 * </pre>
 * Because Cal is truncated, the chip's current register is exactly
 * {@code shunt voltage × Cal / 4096 / 10 µV}, so the LSB used for conversions here is the one
 * implied by the written Cal, {@code 0.04096 / (Cal × R_shunt)} A (within 0.05 % of the chosen
 * one for typical values); {@link #currentLsbAmps()} returns it.
 *
 * <p>Configuration register: bus range 16 or 32 V (BRNG), the smallest PGA shunt range (40, 80,
 * 160, 320 mV) that holds max current × R_shunt, the same ADC mode for bus and shunt (12-bit, or
 * 2–128 averaged 12-bit samples), continuous shunt and bus conversion.
 */
public final class Ina219Config {

  /** Which registers a power sample is computed from. */
  public enum Source {
    /** The chip's power register (0x03), current × bus voltage computed on chip. */
    POWER_REGISTER,
    /** Bus voltage register (0x02) × current register (0x04), computed here. */
    BUS_TIMES_CURRENT
  }

  private final int bus;
  private final int address;
  private final double shuntOhms;
  private final double maxExpectedAmps;
  private final int busRangeVolts;
  private final int adcSamples;
  private final Source source;
  private final int pgaMillivolts;
  private final int calibration;
  private final double currentLsbAmps;
  private final int configuration;

  private Ina219Config(Builder b) {
    this.bus = b.bus;
    this.address = b.address;
    this.shuntOhms = b.shuntOhms;
    this.maxExpectedAmps = b.maxExpectedAmps;
    this.busRangeVolts = b.busRangeVolts;
    this.adcSamples = b.adcSamples;
    this.source = b.source;
    String where = "INA219 at i2c-" + bus + "/" + hex(address);
    if (bus < 0) {
      throw new IllegalArgumentException(where + ": bus must be ≥ 0");
    }
    if (address < 0x40 || address > 0x4F) {
      throw new IllegalArgumentException(where + ": an INA219 answers at 0x40..0x4F (A0/A1 pins)");
    }
    if (!(shuntOhms > 0) || !Double.isFinite(shuntOhms)) {
      throw new IllegalArgumentException(where + ": shunt resistance must be > 0 Ω, got " + shuntOhms);
    }
    if (!(maxExpectedAmps > 0) || !Double.isFinite(maxExpectedAmps)) {
      throw new IllegalArgumentException(where + ": max expected current must be > 0 A, got " + maxExpectedAmps);
    }
    if (busRangeVolts != 16 && busRangeVolts != 32) {
      throw new IllegalArgumentException(where + ": bus voltage range is 16 or 32 V, got " + busRangeVolts);
    }
    if (adcSamples < 1 || adcSamples > 128 || Integer.bitCount(adcSamples) != 1) {
      throw new IllegalArgumentException(where + ": ADC samples must be 1, 2, 4, ..., 128, got " + adcSamples);
    }
    double shuntVolts = maxExpectedAmps * shuntOhms;
    int pga = 0;
    for (int mv : new int[] {40, 80, 160, 320}) {
      if (shuntVolts <= mv / 1000.0 + 1e-12) {
        pga = mv;
        break;
      }
    }
    if (pga == 0) {
      throw new IllegalArgumentException(where + ": max current × shunt = " + num(maxExpectedAmps) + " A × "
          + num(shuntOhms) + " Ω = " + num(shuntVolts) + " V exceeds the INA219's 320 mV shunt range");
    }
    this.pgaMillivolts = pga;
    double minLsb = maxExpectedAmps / 32768.0;
    double lsb = Double.isNaN(b.currentLsbAmps) ? minLsb : b.currentLsbAmps;
    if (!(lsb > 0) || lsb < minLsb * (1 - 1e-12)) {
      throw new IllegalArgumentException(where + ": current LSB " + num(lsb) + " A is below max expected current / 2^15 = "
          + num(minLsb) + " A (the current register would overflow)");
    }
    long cal = (long) Math.floor(0.04096 / (lsb * shuntOhms) * (1 + 1e-12)) & ~1L;
    if (cal < 2 || cal > 0xFFFE) {
      throw new IllegalArgumentException(where + ": calibration 0.04096 / (current LSB " + num(lsb) + " A × "
          + num(shuntOhms) + " Ω) = " + cal + " does not fit the 16-bit register; use a larger shunt or max current");
    }
    this.calibration = (int) cal;
    this.currentLsbAmps = 0.04096 / (cal * shuntOhms);
    int pg = Integer.numberOfTrailingZeros(pga / 40);
    int adc = adcSamples == 1 ? 0b0011 : 0b1000 | Integer.numberOfTrailingZeros(adcSamples);
    this.configuration = (busRangeVolts == 32 ? 1 << 13 : 0) | pg << 11 | adc << 7 | adc << 3 | 0b111;
  }

  /** A configuration for an INA219 on I2C bus {@code bus} (e.g. 1 for a Raspberry Pi's GPIO header). */
  public static Builder builder(int bus) {
    return new Builder(bus);
  }

  public int bus() {
    return bus;
  }

  public int address() {
    return address;
  }

  public double shuntOhms() {
    return shuntOhms;
  }

  public double maxExpectedAmps() {
    return maxExpectedAmps;
  }

  public int busRangeVolts() {
    return busRangeVolts;
  }

  public int adcSamples() {
    return adcSamples;
  }

  public Source source() {
    return source;
  }

  /** The PGA shunt-voltage range chosen, in mV (40, 80, 160 or 320). */
  public int pgaMillivolts() {
    return pgaMillivolts;
  }

  /** The value written to the calibration register (0x05). */
  public int calibration() {
    return calibration;
  }

  /** Amperes per current-register count implied by {@link #calibration()}. */
  public double currentLsbAmps() {
    return currentLsbAmps;
  }

  /** Watts per power-register count: 20 × {@link #currentLsbAmps()}. */
  public double powerLsbWatts() {
    return 20 * currentLsbAmps;
  }

  /** The value written to the configuration register (0x00). */
  public int configuration() {
    return configuration;
  }

  @Override
  public String toString() {
    return String.format(Locale.ROOT, "INA219 i2c-%d/%s, shunt %s Ω, max %s A, %d V bus range, PGA %d mV, "
            + "%d sample(s), cal %d (0x%04X), config 0x%04X, current LSB %s A, power LSB %s W, %s",
        bus, hex(address), num(shuntOhms), num(maxExpectedAmps), busRangeVolts, pgaMillivolts, adcSamples, calibration,
        calibration, configuration, num(currentLsbAmps), num(powerLsbWatts()), source);
  }

  /** Four significant digits, no trailing zeros: 5, 0.1, 9.766E-5. */
  static String num(double x) {
    return new BigDecimal(x).round(new MathContext(4)).stripTrailingZeros().toString();
  }

  static String hex(int address) {
    return String.format(Locale.ROOT, "0x%02x", address);
  }

  /** Builder; defaults: address 0x40, 0.1 Ω shunt, 3.2 A max (320 mV), 32 V range, 1 sample, power register. */
  public static final class Builder {
    private final int bus;
    private int address = 0x40;
    private double shuntOhms = 0.1;
    private double maxExpectedAmps = 3.2;
    private double currentLsbAmps = Double.NaN;
    private int busRangeVolts = 32;
    private int adcSamples = 1;
    private Source source = Source.POWER_REGISTER;

    private Builder(int bus) {
      this.bus = bus;
    }

    /** 7-bit I2C address, 0x40..0x4F (default 0x40). */
    public Builder address(int address) {
      this.address = address;
      return this;
    }

    /** Shunt resistance in ohms (default 0.1, the common breakout boards' R100). */
    public Builder shuntOhms(double ohms) {
      this.shuntOhms = ohms;
      return this;
    }

    /** The largest current expected, in amperes (default 3.2). */
    public Builder maxExpectedAmps(double amps) {
      this.maxExpectedAmps = amps;
      return this;
    }

    /**
     * A current LSB rounded up from max/2^15 to a convenient value, as the datasheet suggests
     * (default: max/2^15 exactly).
     */
    public Builder currentLsbAmps(double amps) {
      this.currentLsbAmps = amps;
      return this;
    }

    /** Bus voltage range, 16 or 32 V (default 32). */
    public Builder busRangeVolts(int volts) {
      this.busRangeVolts = volts;
      return this;
    }

    /** ADC samples averaged per conversion: 1 (single 12-bit, 532 µs) up to 128 (68 ms). */
    public Builder adcSamples(int samples) {
      this.adcSamples = samples;
      return this;
    }

    /** Which registers a power sample comes from (default the power register). */
    public Builder source(Source source) {
      this.source = Objects.requireNonNull(source, "source");
      return this;
    }

    /** @throws IllegalArgumentException naming the first bad setting */
    public Ina219Config build() {
      return new Ina219Config(this);
    }
  }
}
