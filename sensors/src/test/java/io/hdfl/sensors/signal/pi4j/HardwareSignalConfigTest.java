package io.hdfl.sensors.signal.pi4j;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.pi4j.Pi4J;
import com.pi4j.context.Context;
import com.pi4j.io.gpio.digital.DigitalInput;
import com.pi4j.io.gpio.digital.DigitalState;
import com.pi4j.io.i2c.I2C;
import com.pi4j.io.spi.Spi;
import com.pi4j.io.spi.SpiBus;
import com.pi4j.io.spi.SpiChipSelect;
import com.pi4j.plugin.mock.provider.gpio.digital.MockDigitalInput;
import io.hdfl.sensors.signal.Channel;
import io.hdfl.sensors.signal.Sample;
import java.io.IOException;
import java.io.StringReader;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** A whole hardware source from a properties file, end to end on Pi4J's mock platform. */
class HardwareSignalConfigTest {

  static final String FILE = """
      signal.rate = 100
      signal.ads1115.0.bus = 1
      signal.ads1115.0.channels = spindle_current[A], AIN0, 10; coolant_temp[degC], AIN1, 100, -50
      signal.mcp3008.0.vref = 3.3
      signal.mcp3008.0.channels = vibration[g], CH0, 2, -3.3
      signal.gpio.channels = door_open, 17, up, active-low; parts, 27, edges
      signal.label.pins = 20
      peer.id = not ours
      """;

  static Properties properties(String text) throws IOException {
    Properties p = new Properties();
    p.load(new StringReader(text));
    return p;
  }

  @Test
  void aPropertiesFileOpensEveryDeviceAndSamplesThemTogether() throws Exception {
    HardwareSignalConfig cfg = HardwareSignalConfig.fromProperties(properties(FILE), "signal.");
    assertEquals(100, cfg.rateHz());
    assertEquals(OverrunPolicy.SKIP, cfg.overrunPolicy());
    assertEquals(1, cfg.ads1115().size());
    assertEquals(1, cfg.mcp3008().size());
    Context pi4j = Pi4J.newAutoContext();
    FakeClock clock = new FakeClock();
    PolledSignalSource source = cfg.open(pi4j, clock);
    assertEquals(List.of(new Channel("spindle_current", "A"), new Channel("coolant_temp", "degC"),
        new Channel("vibration", "g"), Channel.of("door_open"), Channel.of("parts")), source.channels());

    I2C ads = pi4j.registry().get("hdfl-ads1115-1-0x48", I2C.class);
    Ads1115Test.preload(ads, Ads1115.REG_CONVERSION, 0x2000, 0x1000); // 1.024 V, 0.512 V at ±4.096 V
    Spi mcp = pi4j.registry().get("hdfl-mcp3008-0-0", Spi.class);
    mcp.write(new byte[] {0, 0x02, 0x00}); // 512: 1.65 V
    MockDigitalInput parts = (MockDigitalInput) pi4j.registry().get("hdfl-gpio-27", DigitalInput.class);
    parts.mockState(DigitalState.HIGH);
    parts.mockState(DigitalState.LOW);
    parts.mockState(DigitalState.HIGH);
    ((MockDigitalInput) pi4j.registry().get("hdfl-label-20", DigitalInput.class)).mockState(DigitalState.HIGH);

    Sample s = source.next();
    assertEquals(FakeClock.EPOCH, s.timestampNanos());
    assertArrayEquals(new float[] {10.24f, 1.2f, 0f, 1f, 2f}, s.values(), 1e-4f);
    assertEquals(1, s.label());
    // two conversions at 860 SPS, polled once each (the mock echoes the written word: OS = 1)
    assertEquals(List.of(1_162_791L, 1_162_791L), clock.sleeps);

    source.close();
    assertTrue(pi4j.isShutdown(), "the source owns the context");
  }

  @Test
  void aDeviceThatCannotBeOpenedClosesEverythingOpenedBefore() throws Exception {
    Context pi4j = Pi4J.newAutoContext();
    pi4j.create(Spi.newConfigBuilder(pi4j).id("hdfl-mcp3008-0-0").bus(SpiBus.BUS_0).chipSelect(SpiChipSelect.CS_0)
        .build());
    HardwareSignalConfig cfg = HardwareSignalConfig.fromProperties(properties(FILE), "signal.");
    IOException e = assertThrows(IOException.class, () -> cfg.open(pi4j, new FakeClock()));
    assertTrue(e.getMessage().startsWith("MCP3008 at spi0.0: cannot open ("), e.getMessage());
    assertTrue(pi4j.isShutdown());
    assertFalse(pi4j.registry().exists("hdfl-ads1115-1-0x48"));
  }

  @Test
  void badFilesGetOneLineNamingTheKey() throws Exception {
    assertEquals("unknown key(s) [signal.ads1115.x.bus, signal.rates] (known under signal.: rate, overrun, "
        + "max-lateness, ads1115.N.*, mcp3008.N.*, gpio.channels, label.*)", assertThrows(IllegalArgumentException.class,
            () -> HardwareSignalConfig.fromProperties(properties(FILE + "signal.rates=1\nsignal.ads1115.x.bus=1\n"),
                "signal.")).getMessage());
    assertEquals("signal.rate: is required (samples per second)", assertThrows(IllegalArgumentException.class,
        () -> HardwareSignalConfig.fromProperties(properties(FILE.replace("signal.rate = 100", "")), "signal."))
        .getMessage());
    assertEquals("signal.rate: must be > 0 and ≤ 20000 samples per second, got -5",
        assertThrows(IllegalArgumentException.class, () -> HardwareSignalConfig.fromProperties(
            properties(FILE.replace("signal.rate = 100", "signal.rate = -5")), "signal.")).getMessage());
    assertEquals("signal.overrun: must be skip or fail, got 'drift'", assertThrows(IllegalArgumentException.class,
        () -> HardwareSignalConfig.fromProperties(properties(FILE + "signal.overrun = drift\n"), "signal."))
        .getMessage());
    assertEquals("unknown key(s) [signal.gpio.colour] (known under signal.gpio.: [channels])", assertThrows(IllegalArgumentException.class,
            () -> HardwareSignalConfig.fromProperties(properties(FILE + "signal.gpio.colour = red\n"), "signal."))
            .getMessage());
    assertEquals("signal.label.pins: GPIO17 is also the digital input 'door_open' (the label would leak into the "
        + "features)", assertThrows(IllegalArgumentException.class, () -> HardwareSignalConfig.fromProperties(
            properties(FILE.replace("signal.label.pins = 20", "signal.label.pins = 17")), "signal.")).getMessage());
    assertEquals("signal.*: no device configured (ads1115.N.*, mcp3008.N.* or gpio.channels)",
        assertThrows(IllegalArgumentException.class, () -> HardwareSignalConfig.fromProperties(
            properties("signal.rate = 10\n"), "signal.")).getMessage());
    assertEquals("signal.mcp3008.0.vref: is required (the volts on the VREF pin, e.g. 3.3)",
        assertThrows(IllegalArgumentException.class, () -> HardwareSignalConfig.fromProperties(
            properties(FILE.replace("signal.mcp3008.0.vref = 3.3", "")), "signal.")).getMessage());
    HardwareSignalConfig gpioOnly = HardwareSignalConfig.fromProperties(
        properties("signal.rate = 10\nsignal.gpio.channels = a, 5\nsignal.overrun = FAIL\n"), "signal.");
    assertNull(gpioOnly.label());
    assertEquals(OverrunPolicy.FAIL, gpioOnly.overrunPolicy());
    assertTrue(gpioOnly.ads1115().isEmpty());
  }
}
