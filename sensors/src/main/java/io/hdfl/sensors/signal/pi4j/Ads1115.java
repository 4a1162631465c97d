package io.hdfl.sensors.signal.pi4j;

import com.pi4j.context.Context;
import com.pi4j.io.i2c.I2C;
import io.hdfl.sensors.signal.Channel;
import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * A TI ADS1115 16-bit ADC on an I2C bus, through Pi4J, at register level (datasheet SBAS444).
 * Single-shot conversions, one channel after the other in configuration order: write the channel's
 * config word (OS = 1 starts it, see {@link Ads1115Config}) to register 0x01, wait for the end of
 * the conversion ({@link Ads1115Config.Wait}: poll the OS bit, or sleep the longest conversion
 * time), read the conversion register 0x00 (16-bit big-endian two's complement) and scale:
 * {@code volts = code × FSR / 32768}, then the channel's {@code volts × scale + offset}.
 *
 * <p>Checks: opening writes the first channel's config word without OS and reads it back, so a
 * missing chip, or another chip at the address (a TMP102 temperature sensor also answers at
 * 0x48–0x4B), fails at once with a clear error. While polling, the config register must read back
 * as written (except the OS bit). A code at the end of the range (0x7FFF or 0x8000) means the input
 * is at or beyond full scale: the reading clips; that is logged once and counted
 * ({@link #clippedConversions()}).
 *
 * <p>Pi4J: {@link #open(Context, Ads1115Config)} creates the I2C handle (id
 * {@code hdfl-ads1115-<bus>-<address>}) through the context's I2C provider; on a device the
 * deployment adds {@code pi4j-plugin-linuxfs} (tests use {@code pi4j-plugin-mock}). {@link #close()}
 * releases the handle, not the context.
 */
public final class Ads1115 implements InputDevice {

  /** Conversion register: the last result, 16-bit two's complement. */
  public static final int REG_CONVERSION = 0x00;
  /** Config register. */
  public static final int REG_CONFIG = 0x01;

  private static final System.Logger LOG = System.getLogger("io.hdfl.sensors.signal");

  private final I2C device;
  private final Context context;
  private final Ads1115Config config;
  private final MonotonicClock clock;
  private final String name;
  private final List<Channel> channels;
  private final int[] words;
  private long conversions;
  private long polls;
  private long clipped;
  private boolean clipLogged;
  private boolean closed;

  private Ads1115(I2C device, Context context, Ads1115Config config, MonotonicClock clock) {
    this.device = device;
    this.context = context;
    this.config = config;
    this.clock = clock;
    this.name = config.deviceName();
    this.channels = config.channels().stream().map(AnalogChannel::channel).toList();
    this.words = config.channels().stream().mapToInt(c -> config.configWord(c.input())).toArray();
  }

  /**
   * Opens the ADS1115 described by {@code config} through {@code pi4j}'s I2C provider and checks that
   * it answers. The device owns the I2C handle and releases it on {@link #close()}.
   *
   * @throws IOException one line naming the device: the I2C bus cannot be opened (no plugin, no
   *     {@code /dev/i2c-N}), or the chip does not answer as an ADS1115
   */
  public static Ads1115 open(Context pi4j, Ads1115Config config) throws IOException {
    return open(pi4j, config, MonotonicClock.SYSTEM);
  }

  static Ads1115 open(Context pi4j, Ads1115Config config, MonotonicClock clock) throws IOException {
    Objects.requireNonNull(pi4j, "pi4j");
    Objects.requireNonNull(config, "config");
    String id = "hdfl-ads1115-" + config.bus() + "-" + Ads1115Config.hex(config.address());
    I2C device = Pi4jIo.create("ADS1115 at i2c-" + config.bus() + "/" + Ads1115Config.hex(config.address()),
        "a Pi4J I2C plugin such as pi4j-plugin-linuxfs (and I2C enabled: raspi-config)",
        () -> pi4j.create(I2C.newConfigBuilder(pi4j).id(id).name(config.deviceName()).bus(config.bus())
            .device(config.address()).build()));
    return start(device, pi4j, config, clock);
  }

  /** Drives an ADS1115 on an I2C handle you opened; {@link #close()} closes it. */
  public static Ads1115 on(I2C device, Ads1115Config config) throws IOException {
    return start(Objects.requireNonNull(device, "device"), null, Objects.requireNonNull(config, "config"),
        MonotonicClock.SYSTEM);
  }

  static Ads1115 on(I2C device, Ads1115Config config, MonotonicClock clock) throws IOException {
    return start(device, null, config, clock);
  }

  private static Ads1115 start(I2C device, Context context, Ads1115Config config, MonotonicClock clock)
      throws IOException {
    Ads1115 adc = new Ads1115(device, context, config, Objects.requireNonNull(clock, "clock"));
    try {
      adc.probe();
    } catch (IOException | RuntimeException e) {
      adc.close();
      throw e;
    }
    return adc;
  }

  /** Writes the first channel's word without OS (no conversion starts) and expects to read it back. */
  private void probe() throws IOException {
    int word = words[0] & ~Ads1115Config.OS;
    writeWord(REG_CONFIG, word, "config");
    int back = readWord(REG_CONFIG, "config");
    if ((back & ~Ads1115Config.OS) != word) {
      throw new IOException(name + ": config register reads " + hex4(back) + " after writing " + hex4(word)
          + ": not an ADS1115, or another device at this address");
    }
  }

  public Ads1115Config config() {
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

  /** One nominal conversion per channel. */
  @Override
  public long minReadNanos() {
    return channels.size() * config.conversionNanos();
  }

  @Override
  public void read(float[] dst, int offset) throws IOException, InterruptedException {
    Objects.checkFromIndexSize(offset, channels.size(), dst.length);
    for (int i = 0; i < words.length; i++) {
      AnalogChannel<Ads1115Input> c = config.channels().get(i);
      dst[offset + i] = (float) c.toUnit(code(i) * config.gain().voltsPerCount());
    }
  }

  /** Converts channel {@code index} and returns the volts at the ADC input. */
  public double volts(int index) throws IOException, InterruptedException {
    return code(index) * config.gain().voltsPerCount();
  }

  /**
   * One single-shot conversion of channel {@code index} (in configuration order): the raw code,
   * −32768..32767.
   */
  public int code(int index) throws IOException, InterruptedException {
    if (closed) {
      throw new IllegalStateException(name + " is closed");
    }
    Objects.checkIndex(index, words.length);
    int word = words[index];
    Ads1115Input input = config.channels().get(index).input();
    writeWord(REG_CONFIG, word, "config");
    long start = clock.nanoTime();
    if (config.waitFor() == Ads1115Config.Wait.TIMED) {
      clock.sleepNanos(config.maxConversionNanos());
    } else {
      clock.sleepNanos(config.conversionNanos());
      while (true) {
        int status = readWord(REG_CONFIG, "config");
        polls++;
        if ((status & ~Ads1115Config.OS) != (word & ~Ads1115Config.OS)) {
          throw new IOException(name + ": config register reads " + hex4(status) + " while converting " + input
              + " (written " + hex4(word) + "): another I2C master or device is changing it");
        }
        if ((status & Ads1115Config.OS) != 0) {
          break;
        }
        long elapsed = clock.nanoTime() - start;
        if (elapsed >= config.timeoutNanos()) {
          throw new IOException(String.format(Locale.ROOT, "%s: conversion of %s not finished after %.2f ms (OS bit "
                  + "still 0; one conversion takes %.2f ms at %s): chip reset or bus stuck", name, input, elapsed / 1e6,
              config.conversionNanos() / 1e6, config.dataRate()));
        }
        clock.sleepNanos(Math.min(config.pollIntervalNanos(), config.timeoutNanos() - elapsed));
      }
    }
    int code = (short) readWord(REG_CONVERSION, "conversion");
    conversions++;
    if (code == Short.MAX_VALUE || code == Short.MIN_VALUE) {
      clipped++;
      if (!clipLogged) {
        clipLogged = true;
        LOG.log(System.Logger.Level.WARNING, "hdfl signal: " + name + " input " + input + " ('"
            + config.channels().get(index).channel().name() + "') is at full scale " + config.gain()
            + ": readings clip; " + (config.gain() == Ads1115Gain.FSR_6_144 ? "the input exceeds the widest range"
            : "choose a wider range") + " (logged once, counted in clippedConversions())");
      }
    }
    return code;
  }

  /** Conversions completed. */
  public long conversions() {
    return conversions;
  }

  /** Reads of the config register while waiting for conversions (0 with {@link Ads1115Config.Wait#TIMED}). */
  public long statusPolls() {
    return polls;
  }

  /** Conversions whose code was at the end of the range (0x7FFF or 0x8000): the input clipped. */
  public long clippedConversions() {
    return clipped;
  }

  @Override
  public void close() {
    if (!closed) {
      closed = true;
      Pi4jIo.release(context, device, name);
    }
  }

  @Override
  public String toString() {
    return name;
  }

  private void writeWord(int register, int value, String what) throws IOException {
    int n;
    try {
      n = device.writeRegister(register, new byte[] {(byte) (value >>> 8), (byte) value}, 0, 2);
    } catch (RuntimeException e) {
      throw new IOException(name + ": writing the " + what + " register failed: " + e.getMessage(), e);
    }
    if (n < 0) {
      throw new IOException(name + ": writing the " + what + " register failed (error " + n + ")");
    }
  }

  private int readWord(int register, String what) throws IOException {
    byte[] b = new byte[2];
    int n;
    try {
      n = device.readRegister(register, b, 0, 2);
    } catch (RuntimeException e) {
      throw new IOException(name + ": reading the " + what + " register failed: " + e.getMessage(), e);
    }
    if (n != 2) {
      throw new IOException(name + ": short read of the " + what + " register 0x0" + register + " (" + n
          + " of 2 bytes)");
    }
    return (b[0] & 0xFF) << 8 | (b[1] & 0xFF);
  }

  private static String hex4(int word) {
    return String.format(Locale.ROOT, "0x%04X", word);
  }
}
