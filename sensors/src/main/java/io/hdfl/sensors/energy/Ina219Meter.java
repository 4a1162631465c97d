package io.hdfl.sensors.energy;

import com.pi4j.context.Context;
import com.pi4j.io.i2c.I2C;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * An INA219 current/power monitor on an I2C bus, through Pi4J, at register level. Used only when
 * configured explicitly ({@link Ina219Config}: bus, address, shunt); {@link EnergyMeters#detect}
 * never probes I2C.
 *
 * <p>Registers (16-bit, big-endian): configuration 0x00, shunt voltage 0x01 (signed, 10 µV),
 * bus voltage 0x02 (bits 15..3, 4 mV; bit 0 OVF), power 0x03 (unsigned, Power_LSB), current 0x04
 * (signed, Current_LSB), calibration 0x05. Opening writes the calibration, then the configuration
 * (continuous conversion). Each sample reads the bus voltage register, then the power register
 * ({@link Ina219Config.Source#POWER_REGISTER}) or the current register
 * ({@link Ina219Config.Source#BUS_TIMES_CURRENT}, power = bus V × current). When the chip flags a
 * math overflow (OVF, current beyond the calibrated range) the sample is computed from the shunt
 * voltage register instead, bus V × shunt V / R, and that is logged once.
 *
 * <p>Integration: the trapezoid rule between reads, starting at 0 J on the first read (as
 * {@link HwmonPowerMeter}); wrap in {@link EnergyMeters#sampled} to sample at a fixed interval.
 * Figures are MEASURED, source {@code ina219:i2c-<bus>/<address>}.
 *
 * <p>Pi4J: pass a {@link Context} whose I2C provider talks to the hardware (on a device the
 * deployment adds {@code pi4j-plugin-linuxfs}); tests use {@code pi4j-plugin-mock}.
 */
public final class Ina219Meter implements EnergyMeter {

  public static final int REG_CONFIGURATION = 0x00;
  public static final int REG_SHUNT_VOLTAGE = 0x01;
  public static final int REG_BUS_VOLTAGE = 0x02;
  public static final int REG_POWER = 0x03;
  public static final int REG_CURRENT = 0x04;
  public static final int REG_CALIBRATION = 0x05;

  private static final System.Logger LOG = System.getLogger("io.hdfl.sensors.energy");

  private final I2C device;
  private final Ina219Config config;
  private final LongSupplier clock;
  private final PowerIntegrator integrator = new PowerIntegrator();
  private final String name;
  private final Provenance provenance;
  private boolean overflowLogged;
  private boolean closed;
  /** The context the handle was created in ({@link #open}), or null for a handle given by the caller. */
  private Context context;
  /** Whether {@link #close} shuts {@link #context} down too ({@link #openInOwnContext}). */
  private boolean ownsContext;

  private Ina219Meter(I2C device, Ina219Config config, LongSupplier clock) {
    this.device = device;
    this.config = config;
    this.clock = clock;
    this.name = "ina219:i2c-" + config.bus() + "/" + Ina219Config.hex(config.address());
    this.provenance = Provenance.measured(name, "INA219, " + Ina219Config.num(config.shuntOhms()) + " Ω shunt, "
        + (config.source() == Ina219Config.Source.POWER_REGISTER ? "power register" : "bus V x current")
        + ", trapezoid-integrated between reads");
  }

  /**
   * Opens the INA219 described by {@code config} through {@code pi4j}'s I2C provider and programs
   * it. The meter owns the I2C handle and closes it.
   */
  public static Ina219Meter open(Context pi4j, Ina219Config config) throws MeterUnavailableException {
    Objects.requireNonNull(pi4j, "pi4j");
    Objects.requireNonNull(config, "config");
    I2C device;
    String where = "INA219 at i2c-" + config.bus() + "/" + Ina219Config.hex(config.address());
    try {
      device = pi4j.create(I2C.newConfigBuilder(pi4j)
          .id("hdfl-ina219-" + config.bus() + "-" + Ina219Config.hex(config.address()))
          .name(where)
          .bus(config.bus())
          .device(config.address())
          .build());
    } catch (RuntimeException e) {
      throw new MeterUnavailableException(where + ": cannot open the I2C device (" + e.getMessage()
          + "); on a device the deployment must add a Pi4J I2C plugin such as pi4j-plugin-linuxfs", e);
    }
    Ina219Meter m = on(device, config, System::nanoTime);
    m.context = pi4j; // released through the context, which frees its id: the chip can be opened again
    return m;
  }

  /**
   * {@link #open} in a Pi4J context of its own ({@code Pi4J.newAutoContext()}: the I2C provider the
   * deployment ships, e.g. pi4j-plugin-linuxfs), which {@link #close} shuts down: for a device whose
   * config names an INA219 ({@code energy.meter = ina219}).
   */
  public static Ina219Meter openInOwnContext(Ina219Config config) throws MeterUnavailableException {
    Context pi4j = com.pi4j.Pi4J.newAutoContext();
    try {
      Ina219Meter m = open(pi4j, config);
      m.ownsContext = true;
      return m;
    } catch (MeterUnavailableException | RuntimeException e) {
      pi4j.shutdown();
      throw e;
    }
  }

  /** Programs and meters an INA219 on an I2C handle you opened; the meter closes it. */
  public static Ina219Meter on(I2C device, Ina219Config config) throws MeterUnavailableException {
    return on(device, config, System::nanoTime);
  }

  static Ina219Meter on(I2C device, Ina219Config config, LongSupplier clock) throws MeterUnavailableException {
    Ina219Meter m = new Ina219Meter(Objects.requireNonNull(device, "device"), Objects.requireNonNull(config, "config"),
        Objects.requireNonNull(clock, "clock"));
    try {
      m.writeWord(REG_CALIBRATION, config.calibration());
      m.writeWord(REG_CONFIGURATION, config.configuration());
    } catch (RuntimeException e) {
      device.close();
      throw new MeterUnavailableException(m.name + ": cannot program the chip (" + e.getMessage() + ")", e);
    }
    return m;
  }

  public Ina219Config config() {
    return config;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public Provenance provenance() {
    return provenance;
  }

  /** One instantaneous power sample in watts (not integrated). */
  public synchronized double watts() {
    int bus = readWord(REG_BUS_VOLTAGE);
    double busVolts = (bus >>> 3) * 0.004;
    if ((bus & 1) != 0) {
      if (!overflowLogged) {
        overflowLogged = true;
        LOG.log(System.Logger.Level.WARNING, "hdfl energy: " + name + " flags a math overflow (current above the"
            + " calibrated " + config.maxExpectedAmps() + " A); using bus V x shunt V / R (logged once)");
      }
      double shuntVolts = (short) readWord(REG_SHUNT_VOLTAGE) * 1e-5;
      return busVolts * shuntVolts / config.shuntOhms();
    }
    if (config.source() == Ina219Config.Source.POWER_REGISTER) {
      return readWord(REG_POWER) * config.powerLsbWatts();
    }
    return busVolts * (short) readWord(REG_CURRENT) * config.currentLsbAmps();
  }

  @Override
  public synchronized EnergyReading read() {
    if (closed) {
      throw new EnergyMeterException(name + ": meter is closed");
    }
    double w = watts();
    long now = clock.getAsLong();
    return new EnergyReading(integrator.add(w, now), now, provenance);
  }

  @Override
  public synchronized void close() {
    if (!closed) {
      closed = true;
      Context c = context;
      if (c != null && !c.isShutdown() && c.registry().exists(device.id())) {
        c.shutdown(device.id()); // closes it and frees the id (a plain close keeps the id taken)
      } else {
        device.close();
      }
      if (ownsContext && c != null && !c.isShutdown()) {
        c.shutdown();
      }
    }
  }

  private void writeWord(int register, int value) {
    byte[] b = {(byte) (value >>> 8), (byte) value};
    device.writeRegister(register, b, 0, 2);
  }

  private int readWord(int register) {
    byte[] b = new byte[2];
    int n;
    try {
      n = device.readRegister(register, b, 0, 2);
    } catch (RuntimeException e) {
      throw new EnergyMeterException(name + ": reading register 0x0" + register + " failed: " + e.getMessage(), e);
    }
    if (n != 2) {
      throw new EnergyMeterException(name + ": short read of register 0x0" + register + " (" + n + " of 2 bytes)");
    }
    return (b[0] & 0xFF) << 8 | (b[1] & 0xFF);
  }
}
