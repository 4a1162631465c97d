package io.hdfl.sensors.signal.pi4j;

import com.pi4j.context.Context;
import com.pi4j.io.spi.Spi;
import com.pi4j.io.spi.SpiBus;
import com.pi4j.io.spi.SpiChipSelect;
import com.pi4j.io.spi.SpiMode;
import io.hdfl.sensors.signal.Channel;
import java.io.IOException;
import java.util.List;
import java.util.Objects;

/**
 * A Microchip MCP3008 10-bit ADC on an SPI bus, through Pi4J. Each channel, in configuration order,
 * is one full-duplex 3-byte exchange ({@link Mcp3008Frame}: start bit, SGL/DIFF and select bits out;
 * null bit and 10-bit result in), scaled by {@code VREF / 1024} and the channel's
 * {@code volts × scale + offset}. A code of 1023 means the input is at or above VREF: the reading
 * clips; that is logged once and counted ({@link #clippedConversions()}).
 *
 * <p>Pi4J: {@link #open(Context, Mcp3008Config)} creates the SPI handle (id
 * {@code hdfl-mcp3008-<bus>-<cs>}) through the context's SPI provider; on a device the deployment
 * adds {@code pi4j-plugin-linuxfs} ({@code /dev/spidev<bus>.<cs>}; enable SPI with raspi-config).
 * The transfer's byte count is only checked for errors (negative): Pi4J's mock SPI returns 0.
 * {@link #close()} releases the handle, not the context.
 */
public final class Mcp3008 implements InputDevice {

  private static final System.Logger LOG = System.getLogger("io.hdfl.sensors.signal");

  private final Spi spi;
  private final Context context;
  private final Mcp3008Config config;
  private final String name;
  private final List<Channel> channels;
  private final byte[][] requests;
  private final byte[] reply = new byte[Mcp3008Frame.LENGTH];
  private long conversions;
  private long clipped;
  private boolean clipLogged;
  private boolean closed;

  private Mcp3008(Spi spi, Context context, Mcp3008Config config) {
    this.spi = spi;
    this.context = context;
    this.config = config;
    this.name = config.deviceName();
    this.channels = config.channels().stream().map(AnalogChannel::channel).toList();
    this.requests = config.channels().stream().map(c -> Mcp3008Frame.request(c.input())).toArray(byte[][]::new);
  }

  /**
   * Opens the MCP3008 described by {@code config} through {@code pi4j}'s SPI provider. The device owns
   * the SPI handle and releases it on {@link #close()}.
   *
   * @throws IOException one line naming the device when the SPI device cannot be opened
   */
  public static Mcp3008 open(Context pi4j, Mcp3008Config config) throws IOException {
    Objects.requireNonNull(pi4j, "pi4j");
    Objects.requireNonNull(config, "config");
    Spi spi = Pi4jIo.create("MCP3008 at spi" + config.bus() + "." + config.chipSelect(),
        "a Pi4J SPI plugin such as pi4j-plugin-linuxfs (and SPI enabled: raspi-config)",
        () -> pi4j.create(Spi.newConfigBuilder(pi4j)
            .id("hdfl-mcp3008-" + config.bus() + "-" + config.chipSelect())
            .name(config.deviceName())
            .bus(SpiBus.getByNumber(config.bus()))
            .chipSelect(SpiChipSelect.getByNumber(config.chipSelect()))
            .baud(config.baud())
            .mode(SpiMode.getByNumber(config.mode()))
            .build()));
    return new Mcp3008(spi, pi4j, config);
  }

  /** Drives an MCP3008 on an SPI handle you opened; {@link #close()} closes it. */
  public static Mcp3008 on(Spi spi, Mcp3008Config config) {
    return new Mcp3008(Objects.requireNonNull(spi, "spi"), null, Objects.requireNonNull(config, "config"));
  }

  public Mcp3008Config config() {
    return config;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public List<Channel> channels() {
    return channels;
  }

  /** One 24-clock exchange per channel. */
  @Override
  public long minReadNanos() {
    return channels.size() * config.transferNanos();
  }

  @Override
  public void read(float[] dst, int offset) throws IOException {
    Objects.checkFromIndexSize(offset, channels.size(), dst.length);
    for (int i = 0; i < requests.length; i++) {
      dst[offset + i] = (float) config.channels().get(i).toUnit(code(i) * config.voltsPerCode());
    }
  }

  /** Converts channel {@code index} and returns the volts at the ADC input. */
  public double volts(int index) throws IOException {
    return code(index) * config.voltsPerCode();
  }

  /** One conversion of channel {@code index} (in configuration order): the code, 0..1023. */
  public int code(int index) throws IOException {
    if (closed) {
      throw new IllegalStateException(name + " is closed");
    }
    Objects.checkIndex(index, requests.length);
    java.util.Arrays.fill(reply, (byte) 0);
    int n;
    try {
      n = spi.transfer(requests[index], 0, reply, 0, Mcp3008Frame.LENGTH);
    } catch (RuntimeException e) {
      throw new IOException(name + ": SPI transfer for " + config.channels().get(index).input() + " failed: "
          + e.getMessage(), e);
    }
    if (n < 0) {
      throw new IOException(name + ": SPI transfer for " + config.channels().get(index).input() + " failed (error "
          + n + ")");
    }
    int code = Mcp3008Frame.decode(reply, name);
    conversions++;
    if (code == Mcp3008Frame.MAX_CODE) {
      clipped++;
      if (!clipLogged) {
        clipLogged = true;
        LOG.log(System.Logger.Level.WARNING, "hdfl signal: " + name + " input " + config.channels().get(index).input()
            + " ('" + config.channels().get(index).channel().name() + "') is at VREF " + config.vrefVolts()
            + " V: readings clip (logged once, counted in clippedConversions())");
      }
    }
    return code;
  }

  /** Conversions completed. */
  public long conversions() {
    return conversions;
  }

  /** Conversions that returned 1023 (input at or above VREF). */
  public long clippedConversions() {
    return clipped;
  }

  @Override
  public void close() {
    if (!closed) {
      closed = true;
      Pi4jIo.release(context, spi, name);
    }
  }

  @Override
  public String toString() {
    return name;
  }
}
