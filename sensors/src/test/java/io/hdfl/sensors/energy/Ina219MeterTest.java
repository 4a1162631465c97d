package io.hdfl.sensors.energy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.pi4j.Pi4J;
import com.pi4j.context.Context;
import com.pi4j.io.i2c.I2C;
import com.pi4j.plugin.mock.provider.i2c.MockI2C;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * INA219 register behaviour against Pi4J's mock I2C provider. MockI2C keeps a FIFO of bytes per
 * register: a write appends, a read consumes. So the test reads back what the meter wrote, and
 * pre-loads the bytes each sample will read (bus voltage, then power/current/shunt).
 */
class Ina219MeterTest {

  Context pi4j;
  I2C device;
  final FakeSysfs.Clock clock = new FakeSysfs.Clock();

  @BeforeEach
  void setUp() {
    pi4j = Pi4J.newAutoContext();
    device = pi4j.create(I2C.newConfigBuilder(pi4j).id("test-ina219").bus(1).device(0x40).build());
  }

  @AfterEach
  void tearDown() {
    pi4j.shutdown();
  }

  private static int word(I2C dev, int register) {
    byte[] b = new byte[2];
    assertEquals(2, dev.readRegister(register, b, 0, 2), "register " + register + " holds a word");
    return (b[0] & 0xFF) << 8 | (b[1] & 0xFF);
  }

  private static void preload(I2C dev, int register, int value) {
    dev.writeRegister(register, new byte[] {(byte) (value >>> 8), (byte) value}, 0, 2);
  }

  private static int busRegister(double volts, boolean overflow) {
    return (int) Math.round(volts / 0.004) << 3 | (overflow ? 1 : 0);
  }

  @Test
  void theMockPlatformProvidesTheI2C() {
    assertInstanceOf(MockI2C.class, device);
    assertEquals("mock-i2c", device.provider().id());
  }

  @Test
  void calibrationAndConfigurationAreWrittenPerTheDatasheet() throws Exception {
    Ina219Config cfg = Ina219Config.builder(1).shuntOhms(0.1).maxExpectedAmps(3.2).build();
    // Current_LSB = 3.2 / 2^15; Cal = trunc(0.04096 / (Current_LSB × 0.1)) = trunc(4194.304) = 4194
    assertEquals(4194, cfg.calibration());
    assertEquals(0.04096 / (4194 * 0.1), cfg.currentLsbAmps(), 1e-18);
    assertEquals(20 * 0.04096 / (4194 * 0.1), cfg.powerLsbWatts(), 1e-17);
    assertEquals(0x399F, cfg.configuration()); // 32 V, PGA /8 (320 mV), 12-bit, continuous: the chip's reset value
    try (Ina219Meter m = Ina219Meter.on(device, cfg, clock)) {
      assertEquals("ina219:i2c-1/0x40", m.name());
      byte[] raw = new byte[2];
      assertEquals(2, device.readRegister(Ina219Meter.REG_CALIBRATION, raw, 0, 2));
      assertArrayEquals(new byte[] {0x10, 0x62}, raw); // 4194, big-endian
      assertEquals(-1, device.readRegister(Ina219Meter.REG_CALIBRATION, raw, 0, 2)); // written exactly once
      assertEquals(0x399F, word(device, Ina219Meter.REG_CONFIGURATION));
    }
  }

  @Test
  void registerValuesForOtherSettings() {
    // Adafruit's 32 V / 2 A setting: a rounded Current_LSB of 100 µA gives Cal = 4096
    Ina219Config adafruit = Ina219Config.builder(1).maxExpectedAmps(2).currentLsbAmps(1e-4).build();
    assertEquals(4096, adafruit.calibration());
    assertEquals(1e-4, adafruit.currentLsbAmps(), 1e-16);
    assertEquals(2e-3, adafruit.powerLsbWatts(), 1e-15);
    assertEquals(320, adafruit.pgaMillivolts());
    // 1 A × 0.1 Ω = 100 mV → PGA /4 (160 mV): PG = 10
    assertEquals(0x319F, Ina219Config.builder(1).maxExpectedAmps(1).build().configuration());
    // 16 V range, 0.4 A × 0.1 Ω = 40 mV → PGA /1: BRNG = 0, PG = 00
    Ina219Config small = Ina219Config.builder(3).address(0x45).busRangeVolts(16).maxExpectedAmps(0.4).build();
    assertEquals(0x019F, small.configuration());
    assertEquals(40, small.pgaMillivolts());
    // 128-sample averaging: BADC = SADC = 1111
    assertEquals(0x3FFF, Ina219Config.builder(1).adcSamples(128).build().configuration());
    assertEquals(0x3CCF, Ina219Config.builder(1).adcSamples(2).build().configuration());
    // bit 0 of the calibration register is unused: 0.04096 / (1e-4 × 0.0814) = 5031.9 → 5031 → written as 5030
    Ina219Config odd = Ina219Config.builder(1).shuntOhms(0.0814).maxExpectedAmps(3).currentLsbAmps(1e-4).build();
    assertEquals(5030, odd.calibration());
    assertEquals(0.04096 / (5030 * 0.0814), odd.currentLsbAmps(), 1e-18);
  }

  @Test
  void powerRegisterConversionAndTrapezoidIntegration() throws Exception {
    Ina219Config cfg = Ina219Config.builder(1).build();
    double powerLsb = 20 * 0.04096 / (4194 * 0.1);
    try (Ina219Meter m = Ina219Meter.on(device, cfg, clock)) {
      int[] power = {256, 512, 512, 0};
      double[] at = {0, 1, 3, 3.5};
      for (int p : power) {
        preload(device, Ina219Meter.REG_BUS_VOLTAGE, busRegister(12.0, false));
        preload(device, Ina219Meter.REG_POWER, p);
      }
      double expected = 0;
      EnergyReading first = null;
      EnergyReading last = null;
      for (int i = 0; i < power.length; i++) {
        clock.nanos = Math.round(at[i] * 1e9);
        last = m.read();
        if (i == 0) {
          first = last;
        } else {
          expected += (power[i - 1] + power[i]) * powerLsb / 2 * (at[i] - at[i - 1]);
        }
        assertEquals(expected, last.joules(), 1e-12, "after sample " + i);
      }
      // closed form: 256·LSB→512·LSB over 1 s, 512·LSB for 2 s, 512·LSB→0 over 0.5 s
      assertEquals(powerLsb * (384 + 1024 + 128), RoundEnergy.between(first, last).joules(), 1e-12);
      assertEquals("MEASURED ina219:i2c-1/0x40", last.provenance().label());
    }
  }

  @Test
  void busVoltageTimesCurrentConversion() throws Exception {
    Ina219Config cfg = Ina219Config.builder(1).source(Ina219Config.Source.BUS_TIMES_CURRENT).build();
    double currentLsb = 0.04096 / (4194 * 0.1);
    try (Ina219Meter m = Ina219Meter.on(device, cfg, clock)) {
      preload(device, Ina219Meter.REG_BUS_VOLTAGE, busRegister(12.0, false));
      preload(device, Ina219Meter.REG_CURRENT, 1024);
      assertEquals(12.0 * 1024 * currentLsb, m.watts(), 1e-12);
      preload(device, Ina219Meter.REG_BUS_VOLTAGE, busRegister(5.004, false));
      preload(device, Ina219Meter.REG_CURRENT, 0xFC00); // −1024: current register is signed
      assertEquals(-5.004 * 1024 * currentLsb, m.watts(), 1e-12);
    }
  }

  @Test
  void overflowFallsBackToTheShuntVoltage() throws Exception {
    try (Ina219Meter m = Ina219Meter.on(device, Ina219Config.builder(1).maxExpectedAmps(1).build(), clock)) {
      preload(device, Ina219Meter.REG_BUS_VOLTAGE, busRegister(12.0, true));
      preload(device, Ina219Meter.REG_SHUNT_VOLTAGE, 15000); // 150 mV over 0.1 Ω = 1.5 A
      assertEquals(12.0 * 1.5, m.watts(), 1e-12);
    }
  }

  @Test
  void openThroughTheContextAndAShortReadIsAClearError() throws Exception {
    Ina219Config cfg = Ina219Config.builder(2).address(0x41).build();
    try (Ina219Meter m = Ina219Meter.open(pi4j, cfg)) {
      I2C opened = pi4j.registry().get("hdfl-ina219-2-0x41", I2C.class);
      assertEquals(2, opened.bus());
      assertEquals(0x41, opened.device());
      assertEquals(cfg.calibration(), word(opened, Ina219Meter.REG_CALIBRATION));
      EnergyMeterException e = assertThrows(EnergyMeterException.class, m::read);
      assertEquals("ina219:i2c-2/0x41: short read of register 0x02 (-1 of 2 bytes)", e.getMessage());
    }
    try (Ina219Meter first = Ina219Meter.open(pi4j, Ina219Config.builder(4).build())) {
      MeterUnavailableException twice = assertThrows(MeterUnavailableException.class,
          () -> Ina219Meter.open(pi4j, Ina219Config.builder(4).build()));
      assertTrue(twice.reason().startsWith("INA219 at i2c-4/0x40: cannot open the I2C device"), twice.reason());
      assertEquals("ina219:i2c-4/0x40", first.name());
    }
  }

  /** Closed, the meter frees the I2C id in its context, so the chip can be opened again (a restarted meter). */
  @Test
  void aMeterOpenedThroughTheContextCanBeOpenedAgainOnceClosed() throws Exception {
    Ina219Config cfg = Ina219Config.builder(3).build();
    Ina219Meter.open(pi4j, cfg).close();
    assertTrue(!pi4j.registry().exists("hdfl-ina219-3-0x40"), "the id is free");
    try (Ina219Meter again = Ina219Meter.open(pi4j, cfg)) {
      assertEquals("ina219:i2c-3/0x40", again.name());
    }
  }

  @Test
  void aMeterInItsOwnContextProgramsTheChipAndShutsTheContextDown() throws Exception {
    Ina219Config cfg = Ina219Config.builder(5).address(0x44).build();
    Ina219Meter m = Ina219Meter.openInOwnContext(cfg);
    assertEquals("ina219:i2c-5/0x44", m.name());
    m.close();
    try (Ina219Meter again = Ina219Meter.openInOwnContext(cfg)) { // a new context: nothing left taken
      assertTrue(again.provenance().isMeasured());
    }
  }

  @Test
  void badSettingsAreRejectedWithOneLine() {
    IllegalArgumentException range = assertThrows(IllegalArgumentException.class,
        () -> Ina219Config.builder(1).shuntOhms(0.1).maxExpectedAmps(5).build());
    assertEquals("INA219 at i2c-1/0x40: max current × shunt = 5 A × 0.1 Ω = 0.5 V exceeds the INA219's 320 mV shunt range",
        range.getMessage());
    assertThrows(IllegalArgumentException.class, () -> Ina219Config.builder(1).address(0x3F).build());
    assertThrows(IllegalArgumentException.class, () -> Ina219Config.builder(1).shuntOhms(0).build());
    assertThrows(IllegalArgumentException.class, () -> Ina219Config.builder(1).adcSamples(3).build());
    assertThrows(IllegalArgumentException.class, () -> Ina219Config.builder(1).busRangeVolts(24).build());
    IllegalArgumentException lsb = assertThrows(IllegalArgumentException.class,
        () -> Ina219Config.builder(1).maxExpectedAmps(3.2).currentLsbAmps(5e-5).build());
    assertTrue(lsb.getMessage().contains("below max expected current / 2^15"), lsb.getMessage());
    IllegalArgumentException cal = assertThrows(IllegalArgumentException.class,
        () -> Ina219Config.builder(1).shuntOhms(0.001).maxExpectedAmps(0.01).build());
    assertTrue(cal.getMessage().contains("does not fit the 16-bit register"), cal.getMessage());
  }
}
