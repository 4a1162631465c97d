package io.hdfl.sensors.signal.pi4j;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.pi4j.Pi4J;
import com.pi4j.context.Context;
import com.pi4j.io.i2c.I2C;
import com.pi4j.plugin.mock.provider.i2c.MockI2C;
import io.hdfl.sensors.signal.Channel;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * ADS1115 register behaviour against Pi4J's mock I2C, whose {@link MockI2C} keeps a byte FIFO per
 * register (a write appends, a read consumes): the test reads back the config words the driver
 * wrote and pre-loads the conversion results (and, for polling, the status words) it reads.
 */
class Ads1115Test {

  Context pi4j;
  I2C device;
  final FakeClock clock = new FakeClock();

  @BeforeEach
  void setUp() {
    pi4j = Pi4J.newAutoContext();
    device = pi4j.create(I2C.newConfigBuilder(pi4j).id("test-ads1115").bus(1).device(0x48).build());
  }

  @AfterEach
  void tearDown() {
    pi4j.shutdown();
  }

  static int word(I2C dev, int register) {
    byte[] b = new byte[2];
    assertEquals(2, dev.readRegister(register, b, 0, 2), "register " + register + " holds a word");
    return (b[0] & 0xFF) << 8 | (b[1] & 0xFF);
  }

  static void preload(I2C dev, int register, int... values) {
    for (int v : values) {
      dev.writeRegister(register, new byte[] {(byte) (v >>> 8), (byte) v}, 0, 2);
    }
  }

  static boolean empty(I2C dev, int register) {
    return dev.readRegister(register, new byte[2], 0, 2) == -1;
  }

  private static Ads1115Config.Builder ain0() {
    return Ads1115Config.builder(1).channel("v0[V]", Ads1115Input.AIN0, 1, 0);
  }

  @Test
  void configWordsFollowTheDatasheetBitLayout() {
    // OS=1 | MUX | PGA | MODE=1 | DR | COMP_QUE=11
    assertEquals(0xC383, ain0().gain(Ads1115Gain.FSR_4_096).dataRate(Ads1115DataRate.SPS_128).build()
        .configWord(Ads1115Input.AIN0));
    // AIN0-AIN1, ±2.048 V, 128 SPS, single-shot, comparator off: the chip's reset value 0x8583
    assertEquals(0x8583, ain0().gain(Ads1115Gain.FSR_2_048).dataRate(Ads1115DataRate.SPS_128).build()
        .configWord(Ads1115Input.AIN0_AIN1));
    assertEquals(0xC3E3, ain0().build().configWord(Ads1115Input.AIN0)); // defaults: ±4.096 V, 860 SPS
    assertEquals(0xF103, ain0().gain(Ads1115Gain.FSR_6_144).dataRate(Ads1115DataRate.SPS_8).build()
        .configWord(Ads1115Input.AIN3));
    assertEquals(0xBBC3, ain0().gain(Ads1115Gain.FSR_0_256).dataRate(Ads1115DataRate.SPS_475).build()
        .configWord(Ads1115Input.AIN2_AIN3));
    Ads1115Config base = ain0().gain(Ads1115Gain.FSR_2_048).dataRate(Ads1115DataRate.SPS_128).build();
    int[] mux = {0b000, 0b001, 0b010, 0b011, 0b100, 0b101, 0b110, 0b111};
    Ads1115Input[] inputs = {Ads1115Input.AIN0_AIN1, Ads1115Input.AIN0_AIN3, Ads1115Input.AIN1_AIN3,
        Ads1115Input.AIN2_AIN3, Ads1115Input.AIN0, Ads1115Input.AIN1, Ads1115Input.AIN2, Ads1115Input.AIN3};
    for (int i = 0; i < inputs.length; i++) {
      assertEquals(0x8583 | mux[i] << 12, base.configWord(inputs[i]), inputs[i].toString());
      assertEquals(i >= 4, inputs[i].singleEnded());
    }
    int pga = 0;
    for (Ads1115Gain g : Ads1115Gain.values()) {
      assertEquals(0xC183 | pga++ << 9, ain0().gain(g).dataRate(Ads1115DataRate.SPS_128).build()
          .configWord(Ads1115Input.AIN0), g.toString());
    }
    int dr = 0;
    for (Ads1115DataRate r : Ads1115DataRate.values()) {
      assertEquals(0xC303 | dr++ << 5, ain0().dataRate(r).build().configWord(Ads1115Input.AIN0), r.toString());
    }
  }

  @Test
  void timingFollowsTheDataRate() {
    Ads1115Config fast = ain0().dataRate(Ads1115DataRate.SPS_860).build();
    assertEquals(1_162_791, fast.conversionNanos());           // ⌈10⁹ / 860⌉
    assertEquals(1_279_071 + 100_000, fast.maxConversionNanos()); // ⌈1.1 × nominal⌉ + wake-up
    assertEquals(72_674, fast.pollIntervalNanos());             // nominal / 16
    assertEquals(2 * 1_379_071 + 2_000_000, fast.timeoutNanos());
    Ads1115Config slow = ain0().dataRate(Ads1115DataRate.SPS_8).build();
    assertEquals(125_000_000, slow.conversionNanos());
    assertEquals(137_600_000, slow.maxConversionNanos());
    assertEquals(7_812_500, slow.pollIntervalNanos());
    assertEquals(25_000, Ads1115Config.MIN_POLL_INTERVAL_NANOS);
  }

  @Test
  void timedConversionsWriteEachChannelsWordWaitAndScale() throws Exception {
    Ads1115Config cfg = Ads1115Config.builder(1).gain(Ads1115Gain.FSR_4_096).dataRate(Ads1115DataRate.SPS_250)
        .waitFor(Ads1115Config.Wait.TIMED)
        .channel("spindle_current[A]", Ads1115Input.AIN0, 10, 0)
        .channel("pressure[bar], AIN1, 2, -1")
        .channel("bridge[mV]", Ads1115Input.AIN2_AIN3, 1000, 0)
        .build();
    try (Ads1115 adc = Ads1115.on(device, cfg, clock)) {
      assertTrue(empty(device, Ads1115.REG_CONFIG), "the probe's word was written and read back");
      assertEquals(List.of(new Channel("spindle_current", "A"), new Channel("pressure", "bar"),
          new Channel("bridge", "mV")), adc.channels());
      preload(device, Ads1115.REG_CONVERSION, 0x4000, 0x2000, 0xF000);
      float[] v = new float[4];
      adc.read(v, 1);
      double lsb = 4.096 / 32768;
      assertEquals(0x4000 * lsb * 10, v[1], 1e-6);          // 2.048 V × 10 A/V
      assertEquals(0x2000 * lsb * 2 - 1, v[2], 1e-6);       // 1.024 V × 2 − 1
      assertEquals(-0x1000 * lsb * 1000, v[3], 1e-3);       // 0xF000 = −4096: −0.512 V
      assertEquals(0, v[0]);
      // the words written, in channel order, each starting a conversion
      assertEquals(0xC3A3, word(device, Ads1115.REG_CONFIG));
      assertEquals(0xD3A3, word(device, Ads1115.REG_CONFIG));
      assertEquals(0xB3A3, word(device, Ads1115.REG_CONFIG));
      assertTrue(empty(device, Ads1115.REG_CONFIG));
      // each conversion waited the longest conversion time, without polling
      long wait = cfg.maxConversionNanos();
      assertEquals(List.of(wait, wait, wait), clock.sleeps);
      assertEquals(4_500_000, wait); // ⌈1.1 × 4 ms⌉ + 0.1 ms
      assertEquals(0, adc.statusPolls());
      assertEquals(3, adc.conversions());
      assertEquals(3 * 4_000_000, adc.minReadNanos());
    }
  }

  @Test
  void codesAreTwosComplementScaledByTheFullScaleOfEachGain() throws Exception {
    int[] codes = {0x0000, 0x0001, 0x4000, 0x7FFF, 0x8000, 0xFFFF, 0xC000};
    int[] signed = {0, 1, 16384, 32767, -32768, -1, -16384};
    for (Ads1115Gain g : Ads1115Gain.values()) {
      Ads1115Config cfg = Ads1115Config.builder(1).gain(g).waitFor(Ads1115Config.Wait.TIMED)
          .channel("d[V]", Ads1115Input.AIN0_AIN1, 1, 0).build();
      I2C dev = pi4j.create(I2C.newConfigBuilder(pi4j).id("gain-" + g.name()).bus(1).device(0x49).build());
      try (Ads1115 adc = Ads1115.on(dev, cfg, clock)) {
        preload(dev, Ads1115.REG_CONVERSION, codes);
        preload(dev, Ads1115.REG_CONVERSION, codes);
        for (int i = 0; i < codes.length; i++) {
          assertEquals(signed[i], adc.code(0), g + " code " + Integer.toHexString(codes[i]));
        }
        for (int i = 0; i < codes.length; i++) {
          assertEquals(signed[i] * g.fullScaleVolts() / 32768, adc.volts(0), 1e-12, g + " volts");
        }
        assertEquals(4, adc.clippedConversions()); // 0x7FFF and 0x8000, twice each
      }
    }
    assertEquals(187.5e-6, Ads1115Gain.FSR_6_144.voltsPerCount(), 1e-15);
    assertEquals(7.8125e-6, Ads1115Gain.FSR_0_256.voltsPerCount(), 1e-15);
  }

  @Test
  void pollingReadsTheOsBitUntilTheConversionIsDone() throws Exception {
    Ads1115Config cfg = ain0().dataRate(Ads1115DataRate.SPS_860).build();
    try (Ads1115 adc = Ads1115.on(device, cfg, clock)) {
      int w = cfg.configWord(Ads1115Input.AIN0);
      List<Integer> written = new ArrayList<>();
      clock.onSleep = n -> {
        if (clock.sleeps.size() == 1) { // after the write: take the word, then say busy, busy, done
          written.add(word(device, Ads1115.REG_CONFIG));
          preload(device, Ads1115.REG_CONFIG, w & 0x7FFF, w & 0x7FFF, w);
        }
      };
      preload(device, Ads1115.REG_CONVERSION, 0x1234);
      assertEquals(0x1234, adc.code(0));
      assertEquals(List.of(0xC3E3), written);
      assertEquals(3, adc.statusPolls());
      // first poll after the nominal conversion time, then every poll interval
      assertEquals(List.of(cfg.conversionNanos(), cfg.pollIntervalNanos(), cfg.pollIntervalNanos()), clock.sleeps);
      assertTrue(empty(device, Ads1115.REG_CONFIG));
      // without a pre-loaded status the mock returns the written word (OS = 1): done at the first poll
      clock.onSleep = n -> {};
      clock.sleeps.clear();
      preload(device, Ads1115.REG_CONVERSION, 0x0042);
      assertEquals(0x42, adc.code(0));
      assertEquals(List.of(cfg.conversionNanos()), clock.sleeps);
      assertEquals(4, adc.statusPolls());
    }
  }

  @Test
  void aConversionThatNeverEndsTimesOutWithAClearError() throws Exception {
    Ads1115Config cfg = ain0().dataRate(Ads1115DataRate.SPS_860).build();
    try (Ads1115 adc = Ads1115.on(device, cfg, clock)) {
      int busy = cfg.configWord(Ads1115Input.AIN0) & 0x7FFF;
      for (int i = 0; i < 100; i++) {
        preload(device, Ads1115.REG_CONFIG, busy);
      }
      long start = clock.now;
      IOException e = assertThrows(IOException.class, () -> adc.code(0));
      assertEquals("ads1115:i2c-1/0x48: conversion of AIN0 not finished after 4.76 ms (OS bit still 0; one conversion "
          + "takes 1.16 ms at 860 SPS): chip reset or bus stuck", e.getMessage());
      assertEquals(cfg.timeoutNanos(), clock.now - start, "gave up exactly at the timeout");
      // polls: at the nominal time, then every interval, the last one clipped to the timeout
      long polls = 1 + (cfg.timeoutNanos() - cfg.conversionNanos() + cfg.pollIntervalNanos() - 1)
          / cfg.pollIntervalNanos();
      assertEquals(polls, adc.statusPolls());
    }
  }

  @Test
  void aConfigRegisterThatChangesWhilePollingIsAnError() throws Exception {
    Ads1115Config cfg = ain0().build();
    try (Ads1115 adc = Ads1115.on(device, cfg, clock)) {
      clock.onSleep = n -> {
        word(device, Ads1115.REG_CONFIG);
        preload(device, Ads1115.REG_CONFIG, 0x0583);
      };
      IOException e = assertThrows(IOException.class, () -> adc.code(0));
      assertEquals("ads1115:i2c-1/0x48: config register reads 0x0583 while converting AIN0 (written 0xC3E3): another "
          + "I2C master or device is changing it", e.getMessage());
    }
  }

  @Test
  void openingChecksThatAnAds1115Answers() {
    preload(device, Ads1115.REG_CONFIG, 0x60A0); // e.g. a TMP102's configuration register
    IOException e = assertThrows(IOException.class, () -> Ads1115.on(device, ain0().build(), clock));
    assertEquals("ads1115:i2c-1/0x48: config register reads 0x60A0 after writing 0x43E3: not an ADS1115, or another "
        + "device at this address", e.getMessage());
    assertFalse(device.isOpen(), "the handle is closed when opening fails");
  }

  @Test
  void aShortReadIsAClearError() throws Exception {
    try (Ads1115 adc = Ads1115.on(device, ain0().waitFor(Ads1115Config.Wait.TIMED).build(), clock)) {
      IOException e = assertThrows(IOException.class, () -> adc.read(new float[1], 0));
      assertEquals("ads1115:i2c-1/0x48: short read of the conversion register 0x00 (-1 of 2 bytes)", e.getMessage());
    }
  }

  @Test
  void openThroughTheContextAndCloseReleasesTheBusAddress() throws Exception {
    Ads1115Config cfg = Ads1115Config.builder(3).address(0x4B).channel("x[V], AIN3").build();
    Ads1115 adc = Ads1115.open(pi4j, cfg, clock);
    I2C opened = pi4j.registry().get("hdfl-ads1115-3-0x4b", I2C.class);
    assertInstanceOf(MockI2C.class, opened);
    assertEquals(3, opened.bus());
    assertEquals(0x4B, opened.device());
    assertEquals("ads1115:i2c-3/0x4b", adc.name());
    IOException twice = assertThrows(IOException.class, () -> Ads1115.open(pi4j, cfg, clock));
    assertTrue(twice.getMessage().startsWith("ADS1115 at i2c-3/0x4b: cannot open ("), twice.getMessage());
    assertTrue(twice.getMessage().endsWith("on a device the deployment must add a Pi4J I2C plugin such as "
        + "pi4j-plugin-linuxfs (and I2C enabled: raspi-config)"), twice.getMessage());
    adc.close();
    adc.close(); // idempotent
    assertFalse(pi4j.registry().exists("hdfl-ads1115-3-0x4b"));
    assertFalse(opened.isOpen());
    assertThrows(IllegalStateException.class, () -> adc.read(new float[1], 0));
    try (Ads1115 again = Ads1115.open(pi4j, cfg, clock)) {
      assertTrue(pi4j.registry().exists("hdfl-ads1115-3-0x4b"));
      assertEquals("x", again.channels().get(0).name());
    }
  }

  @Test
  void badSettingsAreRejectedWithOneLine() {
    assertEquals("ADS1115 at i2c-1/0x40: an ADS1115 answers at 0x48 (ADDR to GND), 0x49 (VDD), 0x4a (SDA) or 0x4b "
        + "(SCL)", assertThrows(IllegalArgumentException.class, () -> ain0().address(0x40).build()).getMessage());
    assertThrows(IllegalArgumentException.class, () -> ain0().address(0x4C).build());
    assertEquals("ADS1115 at i2c--1/0x48: I2C bus must be ≥ 0 (1 on a Raspberry Pi's header), got -1",
        assertThrows(IllegalArgumentException.class,
            () -> Ads1115Config.builder(-1).channel("a, AIN0").build()).getMessage());
    assertEquals("ADS1115 at i2c-1/0x48: no channels configured",
        assertThrows(IllegalArgumentException.class, () -> Ads1115Config.builder(1).build()).getMessage());
    assertEquals("ADS1115 at i2c-1/0x48: input AIN0 is used by both 'v0' and 'again'",
        assertThrows(IllegalArgumentException.class, () -> ain0().channel("again, AIN0").build()).getMessage());
    assertEquals("ADS1115 at i2c-1/0x48: channel name 'v0' appears twice",
        assertThrows(IllegalArgumentException.class, () -> ain0().channel("v0[mV], AIN1").build()).getMessage());
    assertEquals("ADS1115 full-scale range must be one of 6.144, 4.096, 2.048, 1.024, 0.512, 0.256 V, got 5.0",
        assertThrows(IllegalArgumentException.class, () -> Ads1115Gain.ofFullScale(5)).getMessage());
    assertEquals(Ads1115Gain.FSR_0_512, Ads1115Gain.parse("±0.512 V"));
    assertEquals("ADS1115 data rate must be one of 8, 16, 32, 64, 128, 250, 475, 860 SPS, got 100",
        assertThrows(IllegalArgumentException.class, () -> Ads1115DataRate.of(100)).getMessage());
    assertEquals(Ads1115DataRate.SPS_475, Ads1115DataRate.parse("475 sps"));
    assertEquals("ADS1115 input must be one of AIN0-AIN1, AIN0-AIN3, AIN1-AIN3, AIN2-AIN3, AIN0, AIN1, AIN2, AIN3, "
        + "got 'AIN1-AIN2' (the multiplexer offers only these pairs: swap the wires, or negate the scale)",
        assertThrows(IllegalArgumentException.class, () -> Ads1115Input.parse("AIN1-AIN2")).getMessage());
    assertEquals(Ads1115Input.AIN0_AIN3, Ads1115Input.parse(" ain0_ain3 "));
    assertEquals("analog channel 'a[V], AIN0, 0': channel 'a[V]': scale must be finite and non-zero, got 0.0",
        assertThrows(IllegalArgumentException.class, () -> ain0().channel("a[V], AIN0, 0")).getMessage());
    assertEquals("analog channel 'a[V], AIN0, ten': scale must be a number, got 'ten'",
        assertThrows(IllegalArgumentException.class, () -> ain0().channel("a[V], AIN0, ten")).getMessage());
    assertEquals("analog channel 'a[V]': expected 'name[unit], input[, scale[, offset]]' (2 to 4 comma-separated "
        + "fields), got 1 field(s)", assertThrows(IllegalArgumentException.class, () -> ain0().channel("a[V]"))
        .getMessage());
    assertEquals("analog channel 'a[V, AIN0': channel 'a[V' is not name or name[unit]",
        assertThrows(IllegalArgumentException.class, () -> ain0().channel("a[V, AIN0")).getMessage());
  }

  @Test
  void configurationFromProperties() {
    Properties p = new Properties();
    p.setProperty("ads1115.0.bus", "1");
    p.setProperty("ads1115.0.address", "0x49");
    p.setProperty("ads1115.0.gain", "2.048");
    p.setProperty("ads1115.0.rate", "475");
    p.setProperty("ads1115.0.wait", "timed");
    p.setProperty("ads1115.0.channels", "spindle_current[A], AIN0, 10; coolant_temp[degC], AIN1, 100, -50 ;");
    p.setProperty("other.key", "ignored");
    Ads1115Config cfg = Ads1115Config.fromProperties(p, "ads1115.0.");
    assertEquals(0x49, cfg.address());
    assertEquals(Ads1115Gain.FSR_2_048, cfg.gain());
    assertEquals(Ads1115DataRate.SPS_475, cfg.dataRate());
    assertEquals(Ads1115Config.Wait.TIMED, cfg.waitFor());
    assertEquals(2, cfg.channels().size());
    assertEquals(new AnalogChannel<>(new Channel("coolant_temp", "degC"), Ads1115Input.AIN1, 100, -50),
        cfg.channels().get(1));
    assertEquals("ADS1115 i2c-1/0x49, ±2.048 V, 475 SPS, timed, channels [spindle_current[A]=AIN0, "
        + "coolant_temp[degC]=AIN1]", cfg.toString());

    p.setProperty("ads1115.0.gian", "2.048");
    assertEquals("unknown key(s) [ads1115.0.gian] (known under ads1115.0.: [address, bus, channels, gain, rate, wait])",
        assertThrows(IllegalArgumentException.class, () -> Ads1115Config.fromProperties(p, "ads1115.0.")).getMessage());
    p.remove("ads1115.0.gian");
    p.setProperty("ads1115.0.gain", "3.3");
    assertEquals("ads1115.0.gain: ADS1115 full-scale range must be one of 6.144, 4.096, 2.048, 1.024, 0.512, 0.256 V, "
        + "got 3.3", assertThrows(IllegalArgumentException.class, () -> Ads1115Config.fromProperties(p, "ads1115.0."))
        .getMessage());
    p.setProperty("ads1115.0.gain", "4.096");
    p.setProperty("ads1115.0.address", "0x50");
    assertEquals("ads1115.0: ADS1115 at i2c-1/0x50: an ADS1115 answers at 0x48 (ADDR to GND), 0x49 (VDD), 0x4a (SDA) "
        + "or 0x4b (SCL)", assertThrows(IllegalArgumentException.class,
            () -> Ads1115Config.fromProperties(p, "ads1115.0.")).getMessage());
    p.setProperty("ads1115.0.address", "seventy");
    assertEquals("ads1115.0.address: must be a whole number (decimal or 0x hex), got 'seventy'",
        assertThrows(IllegalArgumentException.class, () -> Ads1115Config.fromProperties(p, "ads1115.0.")).getMessage());
    p.setProperty("ads1115.0.address", "0x48");
    p.setProperty("ads1115.0.channels", "a[V], AIN0; b[V], AIN9");
    assertTrue(assertThrows(IllegalArgumentException.class, () -> Ads1115Config.fromProperties(p, "ads1115.0."))
        .getMessage().startsWith("ads1115.0.channels: item 2: analog channel 'b[V], AIN9': ADS1115 input must be one of"));
    p.remove("ads1115.0.bus");
    assertEquals("ads1115.0.bus: is required", assertThrows(IllegalArgumentException.class,
        () -> Ads1115Config.fromProperties(p, "ads1115.0.")).getMessage());
  }

  @Test
  void channelsConvertVoltsToTheirUnit() {
    AnalogChannel<Ads1115Input> loop = new AnalogChannel<>(new Channel("pressure", "bar"), Ads1115Input.AIN0,
        10 / 2.64, -2.5);
    assertEquals(0, loop.toUnit(0.66), 1e-12);   // 4 mA over 165 Ω
    assertEquals(10, loop.toUnit(3.3), 1e-12);   // 20 mA
    assertEquals(new Channel("a", "V"), AnalogChannel.volts("a", Ads1115Input.AIN1).channel());
    assertArrayEquals(new float[] {1.5f}, new float[] {(float) AnalogChannel.volts("a", Ads1115Input.AIN1)
        .toUnit(1.5)});
  }
}
