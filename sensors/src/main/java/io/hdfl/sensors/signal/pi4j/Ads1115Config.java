package io.hdfl.sensors.signal.pi4j;

import io.hdfl.sensors.signal.Channel;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;

/**
 * How an ADS1115 is wired and programmed, and the config-register words derived from it (TI
 * SBAS444, §8.6 "Register Map"). Each channel's conversion writes, to the config register 0x01:
 * <pre>
 *   bit  15     OS        1: start a single conversion
 *   bits 14:12  MUX       the channel's input ({@link Ads1115Input})
 *   bits 11:9   PGA       full-scale range ({@link Ads1115Gain})
 *   bit  8      MODE      1: single-shot (power down after the conversion)
 *   bits 7:5    DR        data rate ({@link Ads1115DataRate})
 *   bits 4:0    COMP_*    00011: comparator disabled, ALERT/RDY high impedance
 * </pre>
 * e.g. AIN0 at ±4.096 V and 128 SPS is {@code 0xC383}; the chip's reset value is {@code 0x8583}
 * (AIN0-AIN1, ±2.048 V, 128 SPS).
 *
 * <p>Timing of a conversion: nominally {@code 1 / rate}; the internal oscillator may be 10 % slow,
 * and the chip wakes from power-down first, so the longest expected conversion is
 * {@code 1.1 / rate + }{@value #WAKE_MARGIN_NANOS}{@code  ns}. With {@link Wait#POLL} the driver
 * polls the OS bit from the nominal time on, every {@link #pollIntervalNanos()}, and gives up after
 * {@link #timeoutNanos()} (twice the longest conversion + 2 ms); with {@link Wait#TIMED} it sleeps
 * the longest conversion and reads the result without polling (one I2C transaction less per
 * conversion).
 */
public final class Ads1115Config {

  /** How the driver waits for the end of a single-shot conversion. */
  public enum Wait {
    /** Poll the config register's OS bit (1 = idle) from the nominal conversion time on. */
    POLL,
    /** Sleep the longest expected conversion time, then read the result. */
    TIMED;

    static Wait parse(String text) {
      return switch (text.strip().toLowerCase(Locale.ROOT)) {
        case "poll" -> POLL;
        case "timed" -> TIMED;
        default -> throw new IllegalArgumentException("ADS1115 wait must be poll or timed, got '" + text.strip() + "'");
      };
    }
  }

  /** Allowance for the wake-up from power-down before a single-shot conversion starts, in ns. */
  public static final long WAKE_MARGIN_NANOS = 100_000;
  /** Shortest interval between two polls of the OS bit, in ns. */
  public static final long MIN_POLL_INTERVAL_NANOS = 25_000;

  static final int OS = 1 << 15;
  static final int MODE_SINGLE_SHOT = 1 << 8;
  static final int COMPARATOR_DISABLED = 0b00011;

  private final int bus;
  private final int address;
  private final Ads1115Gain gain;
  private final Ads1115DataRate dataRate;
  private final Wait wait;
  private final List<AnalogChannel<Ads1115Input>> channels;

  private Ads1115Config(Builder b) {
    String where = "ADS1115 at i2c-" + b.bus + "/" + hex(b.address);
    if (b.bus < 0) {
      throw new IllegalArgumentException(where + ": I2C bus must be ≥ 0 (1 on a Raspberry Pi's header), got " + b.bus);
    }
    if (b.address < 0x48 || b.address > 0x4B) {
      throw new IllegalArgumentException(where + ": an ADS1115 answers at 0x48 (ADDR to GND), 0x49 (VDD), "
          + "0x4a (SDA) or 0x4b (SCL)");
    }
    AnalogChannel.checkList(where, b.channels);
    this.bus = b.bus;
    this.address = b.address;
    this.gain = b.gain;
    this.dataRate = b.dataRate;
    this.wait = b.wait;
    this.channels = List.copyOf(b.channels);
  }

  /** A configuration for an ADS1115 on I2C bus {@code bus} (1 on a Raspberry Pi's GPIO header). */
  public static Builder builder(int bus) {
    return new Builder(bus);
  }

  /**
   * Reads an ADS1115 from the keys under {@code prefix} (e.g. {@code ads1115.0.}):
   * <pre>
   *   bus       I2C bus number (required)
   *   address   0x48..0x4b (default 0x48)
   *   gain      full-scale volts: 6.144, 4.096, 2.048, 1.024, 0.512, 0.256 (default 4.096)
   *   rate      8, 16, 32, 64, 128, 250, 475, 860 SPS (default 860)
   *   wait      poll | timed (default poll)
   *   channels  name[unit], input[, scale[, offset]]; ... e.g. spindle_current[A], AIN0, 10; temp[degC], AIN1, 100, -50
   * </pre>
   *
   * @throws IllegalArgumentException one line naming the key: unknown keys, missing or bad values
   */
  public static Ads1115Config fromProperties(Properties properties, String prefix) {
    ConfigKeys k = new ConfigKeys(properties, prefix, Set.of("bus", "address", "gain", "rate", "wait", "channels"));
    Builder b = builder(k.requiredInteger("bus"))
        .address(k.integer("address", 0x48))
        .gain(k.parsed("gain", Ads1115Gain::parse, Ads1115Gain.FSR_4_096))
        .dataRate(k.parsed("rate", Ads1115DataRate::parse, Ads1115DataRate.SPS_860))
        .waitFor(k.parsed("wait", Wait::parse, Wait.POLL));
    k.list("channels", s -> AnalogChannel.parse(s, Ads1115Input::parse)).forEach(b::channel);
    try {
      return b.build();
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(k.block() + ": " + e.getMessage(), e);
    }
  }

  public int bus() {
    return bus;
  }

  public int address() {
    return address;
  }

  public Ads1115Gain gain() {
    return gain;
  }

  public Ads1115DataRate dataRate() {
    return dataRate;
  }

  public Wait waitFor() {
    return wait;
  }

  /** The channels in conversion order. */
  public List<AnalogChannel<Ads1115Input>> channels() {
    return channels;
  }

  /** The word written to the config register to start a conversion of {@code input}. */
  public int configWord(Ads1115Input input) {
    return OS | input.muxBits() << 12 | gain.pgaBits() << 9 | MODE_SINGLE_SHOT | dataRate.drBits() << 5
        | COMPARATOR_DISABLED;
  }

  /** The nominal conversion time, ⌈10⁹ / rate⌉ ns. */
  public long conversionNanos() {
    return dataRate.conversionNanos();
  }

  /** The longest expected conversion: nominal × 1.1 (oscillator tolerance) + the wake-up margin. */
  public long maxConversionNanos() {
    return (conversionNanos() * 11 + 9) / 10 + WAKE_MARGIN_NANOS;
  }

  /** Interval between polls of the OS bit: nominal / 16, at least {@value #MIN_POLL_INTERVAL_NANOS} ns. */
  public long pollIntervalNanos() {
    return Math.max(conversionNanos() / 16, MIN_POLL_INTERVAL_NANOS);
  }

  /** How long after the start a conversion that has not finished is an error: 2 × longest + 2 ms. */
  public long timeoutNanos() {
    return 2 * maxConversionNanos() + 2_000_000;
  }

  /** The device's name in logs and errors: {@code ads1115:i2c-<bus>/<address>}. */
  public String deviceName() {
    return "ads1115:i2c-" + bus + "/" + hex(address);
  }

  @Override
  public String toString() {
    return String.format(Locale.ROOT, "ADS1115 i2c-%d/%s, %s, %s, %s, channels %s", bus, hex(address), gain, dataRate,
        wait.name().toLowerCase(Locale.ROOT), channels.stream().map(c -> c.channel().label() + "=" + c.input()).toList());
  }

  static String hex(int address) {
    return String.format(Locale.ROOT, "0x%02x", address);
  }

  /** Builder; defaults: address 0x48, ±4.096 V, 860 SPS, poll the OS bit. */
  public static final class Builder {
    private final int bus;
    private int address = 0x48;
    private Ads1115Gain gain = Ads1115Gain.FSR_4_096;
    private Ads1115DataRate dataRate = Ads1115DataRate.SPS_860;
    private Wait wait = Wait.POLL;
    private final List<AnalogChannel<Ads1115Input>> channels = new ArrayList<>();

    private Builder(int bus) {
      this.bus = bus;
    }

    /** 7-bit I2C address, 0x48..0x4b by the ADDR pin (default 0x48, ADDR to GND). */
    public Builder address(int address) {
      this.address = address;
      return this;
    }

    /** The full-scale range (default ±4.096 V, which covers a 3.3 V supply). */
    public Builder gain(Ads1115Gain gain) {
      this.gain = Objects.requireNonNull(gain, "gain");
      return this;
    }

    /** The data rate (default 860 SPS, the fastest: shortest conversions, most noise). */
    public Builder dataRate(Ads1115DataRate rate) {
      this.dataRate = Objects.requireNonNull(rate, "rate");
      return this;
    }

    /** How to wait for each conversion (default {@link Wait#POLL}). */
    public Builder waitFor(Wait wait) {
      this.wait = Objects.requireNonNull(wait, "wait");
      return this;
    }

    /** Adds a channel; channels are converted in the order added. */
    public Builder channel(AnalogChannel<Ads1115Input> channel) {
      channels.add(Objects.requireNonNull(channel, "channel"));
      return this;
    }

    /** Adds {@code name[unit]} on {@code input}, value = volts × scale + offset. */
    public Builder channel(String label, Ads1115Input input, double scale, double offset) {
      return channel(new AnalogChannel<>(Channel.parseLabel(label), input, scale, offset));
    }

    /** Adds a channel in the text form {@code name[unit], input[, scale[, offset]]}. */
    public Builder channel(String spec) {
      return channel(AnalogChannel.parse(spec, Ads1115Input::parse));
    }

    /** @throws IllegalArgumentException naming the device and the first bad setting */
    public Ads1115Config build() {
      return new Ads1115Config(this);
    }
  }
}
