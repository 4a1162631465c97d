package io.hdfl.sensors.signal.pi4j;

import io.hdfl.sensors.signal.Channel;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;

/**
 * How an MCP3008 is wired: SPI bus and chip select (a Raspberry Pi's SPI0 with CE0 is
 * {@code /dev/spidev0.0}), clock rate, SPI mode, the reference voltage on its VREF pin, and the
 * channels. A result code c (0..1023) is {@code c × VREF / 1024} volts (DS21295 equation 4-2), then
 * the channel's {@code volts × scale + offset}.
 */
public final class Mcp3008Config {

  /** Slowest SPI clock: below about 10 kHz the sampled charge leaks during the conversion (DS21295 §6.2). */
  public static final int MIN_BAUD = 10_000;
  /** Fastest SPI clock: 3.6 MHz at VDD = 5 V (1.35 MHz at 2.7 V). */
  public static final int MAX_BAUD = 3_600_000;

  private final int bus;
  private final int chipSelect;
  private final int baud;
  private final int mode;
  private final double vrefVolts;
  private final List<AnalogChannel<Mcp3008Input>> channels;

  private Mcp3008Config(Builder b) {
    String where = "MCP3008 at spi" + b.bus + "." + b.chipSelect;
    if (b.bus < 0 || b.bus > 6) {
      throw new IllegalArgumentException(where + ": SPI bus must be 0..6 (0 on a Raspberry Pi's header), got " + b.bus);
    }
    if (b.chipSelect < 0 || b.chipSelect > 2) {
      throw new IllegalArgumentException(where + ": chip select must be 0..2 (CE0 = pin 24, CE1 = pin 26), got "
          + b.chipSelect);
    }
    if (b.baud < MIN_BAUD || b.baud > MAX_BAUD) {
      throw new IllegalArgumentException(where + ": SPI clock must be " + MIN_BAUD + ".." + MAX_BAUD
          + " Hz (3.6 MHz at VDD 5 V, 1.35 MHz at 2.7 V; below 10 kHz the sample droops), got " + b.baud);
    }
    if (b.mode != 0 && b.mode != 3) {
      throw new IllegalArgumentException(where + ": SPI mode must be 0 or 3 (the MCP3008 supports modes 0,0 and "
          + "1,1), got " + b.mode);
    }
    if (!(b.vrefVolts >= 0.25 && b.vrefVolts <= 5.5)) {
      throw new IllegalArgumentException(where + ": reference voltage must be 0.25..5.5 V (VREF ≤ VDD), got "
          + b.vrefVolts);
    }
    AnalogChannel.checkList(where, b.channels);
    this.bus = b.bus;
    this.chipSelect = b.chipSelect;
    this.baud = b.baud;
    this.mode = b.mode;
    this.vrefVolts = b.vrefVolts;
    this.channels = List.copyOf(b.channels);
  }

  /** A configuration for an MCP3008 on SPI bus {@code bus}, chip select {@code chipSelect}. */
  public static Builder builder(int bus, int chipSelect) {
    return new Builder(bus, chipSelect);
  }

  /**
   * Reads an MCP3008 from the keys under {@code prefix} (e.g. {@code mcp3008.0.}):
   * <pre>
   *   bus       SPI bus (default 0)
   *   cs        chip select (default 0)
   *   baud      SPI clock in Hz (default 1350000)
   *   mode      SPI mode 0 or 3 (default 0)
   *   vref      volts on VREF (required: 3.3 when VREF is tied to the Pi's 3.3 V)
   *   channels  name[unit], input[, scale[, offset]]; ... e.g. vibration[g], CH0, 2, -3.3
   * </pre>
   *
   * @throws IllegalArgumentException one line naming the key
   */
  public static Mcp3008Config fromProperties(Properties properties, String prefix) {
    ConfigKeys k = new ConfigKeys(properties, prefix, Set.of("bus", "cs", "baud", "mode", "vref", "channels"));
    double vref = k.number("vref", Double.NaN);
    if (Double.isNaN(vref)) {
      throw k.bad("vref", "is required (the volts on the VREF pin, e.g. 3.3)");
    }
    Builder b = builder(k.integer("bus", 0), k.integer("cs", 0))
        .baud(k.integer("baud", 1_350_000))
        .mode(k.integer("mode", 0))
        .vrefVolts(vref);
    k.list("channels", s -> AnalogChannel.parse(s, Mcp3008Input::parse)).forEach(b::channel);
    try {
      return b.build();
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(k.block() + ": " + e.getMessage(), e);
    }
  }

  public int bus() {
    return bus;
  }

  public int chipSelect() {
    return chipSelect;
  }

  /** SPI clock in Hz. */
  public int baud() {
    return baud;
  }

  /** SPI mode, 0 or 3. */
  public int mode() {
    return mode;
  }

  public double vrefVolts() {
    return vrefVolts;
  }

  /** Volts per code: VREF / 1024. */
  public double voltsPerCode() {
    return vrefVolts / 1024;
  }

  /** The channels in conversion order. */
  public List<AnalogChannel<Mcp3008Input>> channels() {
    return channels;
  }

  /** Duration of one 24-clock exchange, ⌈24 × 10⁹ / baud⌉ ns. */
  public long transferNanos() {
    return (24_000_000_000L + baud - 1) / baud;
  }

  /** {@code mcp3008:spi<bus>.<cs>}. */
  public String deviceName() {
    return "mcp3008:spi" + bus + "." + chipSelect;
  }

  @Override
  public String toString() {
    return String.format(Locale.ROOT, "MCP3008 spi%d.%d, %d Hz, mode %d, VREF %s V, channels %s", bus, chipSelect, baud,
        mode, vrefVolts, channels.stream().map(c -> c.channel().label() + "=" + c.input()).toList());
  }

  /** Builder; defaults: 1.35 MHz, mode 0, VREF 3.3 V. */
  public static final class Builder {
    private final int bus;
    private final int chipSelect;
    private int baud = 1_350_000;
    private int mode;
    private double vrefVolts = 3.3;
    private final List<AnalogChannel<Mcp3008Input>> channels = new ArrayList<>();

    private Builder(int bus, int chipSelect) {
      this.bus = bus;
      this.chipSelect = chipSelect;
    }

    /** SPI clock in Hz, 10 kHz .. 3.6 MHz (default 1.35 MHz, safe down to VDD = 2.7 V). */
    public Builder baud(int hz) {
      this.baud = hz;
      return this;
    }

    /** SPI mode 0 or 3 (default 0). */
    public Builder mode(int mode) {
      this.mode = mode;
      return this;
    }

    /** The voltage on VREF (default 3.3 V, VREF tied to the Pi's 3.3 V rail). */
    public Builder vrefVolts(double volts) {
      this.vrefVolts = volts;
      return this;
    }

    /** Adds a channel; channels are converted in the order added. */
    public Builder channel(AnalogChannel<Mcp3008Input> channel) {
      channels.add(Objects.requireNonNull(channel, "channel"));
      return this;
    }

    /** Adds {@code name[unit]} on {@code input}, value = volts × scale + offset. */
    public Builder channel(String label, Mcp3008Input input, double scale, double offset) {
      return channel(new AnalogChannel<>(Channel.parseLabel(label), input, scale, offset));
    }

    /** Adds a channel in the text form {@code name[unit], input[, scale[, offset]]}. */
    public Builder channel(String spec) {
      return channel(AnalogChannel.parse(spec, Mcp3008Input::parse));
    }

    /** @throws IllegalArgumentException naming the device and the first bad setting */
    public Mcp3008Config build() {
      return new Mcp3008Config(this);
    }
  }
}
