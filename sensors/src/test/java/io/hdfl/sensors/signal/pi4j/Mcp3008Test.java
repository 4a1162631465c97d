package io.hdfl.sensors.signal.pi4j;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.pi4j.Pi4J;
import com.pi4j.context.Context;
import com.pi4j.io.spi.Spi;
import com.pi4j.io.spi.SpiBus;
import com.pi4j.io.spi.SpiChipSelect;
import com.pi4j.io.spi.SpiMode;
import com.pi4j.plugin.mock.provider.spi.MockSpi;
import io.hdfl.sensors.signal.Channel;
import java.io.IOException;
import java.util.Properties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * MCP3008 frames, exactly ({@link Mcp3008Frame} is pure), and the Pi4J call path on the mock SPI.
 * {@link MockSpi} keeps one byte FIFO: {@code transfer} first takes as many bytes as it sends from
 * the FIFO as the reply (zeros when empty), then appends the bytes sent. So a test pre-loads the
 * replies with {@code write} and afterwards reads the requests back with {@code readEntireMockBuffer}.
 */
class Mcp3008Test {

  Context pi4j;

  @BeforeEach
  void setUp() {
    pi4j = Pi4J.newAutoContext();
  }

  @AfterEach
  void tearDown() {
    pi4j.shutdown();
  }

  private static byte[] bytes(int... b) {
    byte[] out = new byte[b.length];
    for (int i = 0; i < b.length; i++) {
      out[i] = (byte) b[i];
    }
    return out;
  }

  /** The reply of a chip whose DOUT idles high before the null bit (bits 7..3 of byte 1 undefined). */
  private static byte[] reply(int code) {
    return bytes(0xFF, 0xF8 | code >> 8, code & 0xFF);
  }

  @Test
  void requestFramesCarryStartBitModeAndChannel() {
    assertArrayEquals(bytes(0x01, 0x80, 0x00), Mcp3008Frame.request(Mcp3008Input.CH0));
    assertArrayEquals(bytes(0x01, 0x90, 0x00), Mcp3008Frame.request(Mcp3008Input.CH1));
    assertArrayEquals(bytes(0x01, 0xF0, 0x00), Mcp3008Frame.request(Mcp3008Input.CH7));
    assertArrayEquals(bytes(0x01, 0x00, 0x00), Mcp3008Frame.request(Mcp3008Input.CH0_CH1));
    assertArrayEquals(bytes(0x01, 0x10, 0x00), Mcp3008Frame.request(Mcp3008Input.CH1_CH0));
    assertArrayEquals(bytes(0x01, 0x70, 0x00), Mcp3008Frame.request(Mcp3008Input.CH7_CH6));
    for (Mcp3008Input in : Mcp3008Input.values()) {
      byte[] f = Mcp3008Frame.request(in);
      assertEquals(Mcp3008Frame.LENGTH, f.length);
      assertEquals(1, f[0], "start bit alone in the first byte");
      assertEquals(in.singleEnded() ? 0x80 : 0, f[1] & 0x80, in + " SGL/DIFF");
      assertEquals(in.selectBits(), (f[1] & 0x70) >> 4, in + " D2..D0");
      assertEquals(0, f[1] & 0x0F);
      assertEquals(0, f[2]);
    }
    assertEquals(Mcp3008Input.CH3_CH2, Mcp3008Input.parse("ch3_ch2"));
    assertEquals(3, Mcp3008Input.CH3_CH2.selectBits());
  }

  @Test
  void repliesDecodeToTenBitsAfterTheNullBit() throws IOException {
    assertEquals(0, Mcp3008Frame.decode(bytes(0, 0, 0), "t"));
    assertEquals(1023, Mcp3008Frame.decode(bytes(0, 0x03, 0xFF), "t"));
    assertEquals(512, Mcp3008Frame.decode(bytes(0, 0x02, 0x00), "t"));
    assertEquals(0x123, Mcp3008Frame.decode(bytes(0xFF, 0xF9, 0x23), "t"), "undefined bits before the null bit ignored");
    for (int code = 0; code <= 1023; code++) {
      assertEquals(code, Mcp3008Frame.decode(reply(code), "t"));
    }
    IOException none = assertThrows(IOException.class, () -> Mcp3008Frame.decode(bytes(0xFF, 0xFF, 0xFF), "dev"));
    assertEquals("dev: MCP3008 reply FF FF FF has its null bit set: no MCP3008 answering (check MISO, chip select and "
        + "power)", none.getMessage());
    assertEquals("dev: MCP3008 reply has 2 bytes, expected 3",
        assertThrows(IOException.class, () -> Mcp3008Frame.decode(bytes(0, 0), "dev")).getMessage());
  }

  @Test
  void conversionsThroughTheMockSpiSendTheFramesAndScaleByVref() throws Exception {
    Mcp3008Config cfg = Mcp3008Config.builder(0, 1).baud(1_000_000).vrefVolts(3.3)
        .channel("vibration[g], CH0, 2, -3.3")
        .channel("load[V]", Mcp3008Input.CH5, 1, 0)
        .channel("bridge[mV], CH6-CH7, 1000")
        .build();
    try (Mcp3008 adc = Mcp3008.open(pi4j, cfg)) {
      Spi spi = pi4j.registry().get("hdfl-mcp3008-0-1", Spi.class);
      MockSpi mock = assertInstanceOf(MockSpi.class, spi);
      assertEquals(SpiBus.BUS_0, spi.config().bus());
      assertEquals(SpiChipSelect.CS_1, spi.config().chipSelect());
      assertEquals(1_000_000, spi.config().baud());
      assertEquals(SpiMode.MODE_0, spi.config().mode());
      assertEquals("mcp3008:spi0.1", adc.name());
      assertEquals(new Channel("vibration", "g"), adc.channels().get(0));

      spi.write(reply(512));
      spi.write(reply(1023));
      spi.write(reply(31));
      float[] v = new float[3];
      adc.read(v, 0);
      assertEquals(512 * 3.3 / 1024 * 2 - 3.3, v[0], 1e-6);   // 1.65 V → 0 g
      assertEquals(1023 * 3.3 / 1024, v[1], 1e-6);
      assertEquals(31 * 3.3 / 1024 * 1000, v[2], 1e-3);
      assertArrayEquals(bytes(0x01, 0x80, 0x00, 0x01, 0xD0, 0x00, 0x01, 0x60, 0x00), mock.readEntireMockBuffer(),
          "the requests sent, in channel order");
      assertEquals(3, adc.conversions());
      assertEquals(1, adc.clippedConversions()); // 1023: at VREF
      assertEquals(3 * 24_000, adc.minReadNanos()); // 24 clocks at 1 MHz per channel

      spi.write(reply(100));
      assertEquals(100 * 3.3 / 1024, adc.volts(0), 1e-12);
      mock.readEntireMockBuffer();
      // nothing answering: MISO floats high
      spi.write(bytes(0xFF, 0xFF, 0xFF));
      IOException e = assertThrows(IOException.class, () -> adc.read(new float[3], 0));
      assertTrue(e.getMessage().startsWith("mcp3008:spi0.1: MCP3008 reply FF FF FF has its null bit set"),
          e.getMessage());
    }
    assertFalse(pi4j.registry().exists("hdfl-mcp3008-0-1"), "close releases the SPI device");
    try (Mcp3008 again = Mcp3008.open(pi4j, cfg)) {
      assertEquals(cfg, again.config());
      IOException twice = assertThrows(IOException.class, () -> Mcp3008.open(pi4j, cfg));
      assertTrue(twice.getMessage().startsWith("MCP3008 at spi0.1: cannot open ("), twice.getMessage());
    }
  }

  @Test
  void aHandleYouOpenedIsClosedAndReadingAfterCloseFails() throws Exception {
    Spi spi = pi4j.create(Spi.newConfigBuilder(pi4j).id("own-spi").bus(SpiBus.BUS_1).chipSelect(SpiChipSelect.CS_0)
        .baud(500_000).build());
    Mcp3008 adc = Mcp3008.on(spi, Mcp3008Config.builder(1, 0).baud(500_000).vrefVolts(5).channel("a[V], CH2").build());
    spi.write(reply(1000));
    assertEquals(1000, adc.code(0));
    adc.close();
    adc.close();
    assertThrows(IllegalStateException.class, () -> adc.code(0));
  }

  @Test
  void badSettingsAreRejectedWithOneLine() {
    assertEquals("MCP3008 at spi0.0: SPI clock must be 10000..3600000 Hz (3.6 MHz at VDD 5 V, 1.35 MHz at 2.7 V; "
        + "below 10 kHz the sample droops), got 5000000", assertThrows(IllegalArgumentException.class,
            () -> Mcp3008Config.builder(0, 0).baud(5_000_000).channel("a, CH0").build()).getMessage());
    assertEquals("MCP3008 at spi0.3: chip select must be 0..2 (CE0 = pin 24, CE1 = pin 26), got 3",
        assertThrows(IllegalArgumentException.class,
            () -> Mcp3008Config.builder(0, 3).channel("a, CH0").build()).getMessage());
    assertEquals("MCP3008 at spi0.0: SPI mode must be 0 or 3 (the MCP3008 supports modes 0,0 and 1,1), got 1",
        assertThrows(IllegalArgumentException.class,
            () -> Mcp3008Config.builder(0, 0).mode(1).channel("a, CH0").build()).getMessage());
    assertEquals("MCP3008 at spi0.0: reference voltage must be 0.25..5.5 V (VREF ≤ VDD), got 0.0",
        assertThrows(IllegalArgumentException.class,
            () -> Mcp3008Config.builder(0, 0).vrefVolts(0).channel("a, CH0").build()).getMessage());
    assertThrows(IllegalArgumentException.class,
        () -> Mcp3008Config.builder(0, 0).vrefVolts(Double.NaN).channel("a, CH0").build());
    assertEquals("MCP3008 at spi7.0: SPI bus must be 0..6 (0 on a Raspberry Pi's header), got 7",
        assertThrows(IllegalArgumentException.class, () -> Mcp3008Config.builder(7, 0).channel("a, CH0").build())
            .getMessage());
    assertEquals("MCP3008 at spi0.0: input CH0 is used by both 'a' and 'b'", assertThrows(IllegalArgumentException.class,
        () -> Mcp3008Config.builder(0, 0).channel("a, CH0").channel("b, ch0").build()).getMessage());
    assertEquals("MCP3008 at spi0.0: no channels configured",
        assertThrows(IllegalArgumentException.class, () -> Mcp3008Config.builder(0, 0).build()).getMessage());
    assertTrue(assertThrows(IllegalArgumentException.class, () -> Mcp3008Input.parse("CH1-CH2")).getMessage()
        .endsWith("got 'CH1-CH2' (pairs are neighbours only: CH0/CH1, CH2/CH3, CH4/CH5, CH6/CH7)"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> Mcp3008Input.parse("CH8")).getMessage()
        .startsWith("MCP3008 input must be one of CH0, CH1, CH2, CH3, CH4, CH5, CH6, CH7, CH0-CH1, CH1-CH0,"));
  }

  @Test
  void configurationFromProperties() {
    Properties p = new Properties();
    p.setProperty("mcp3008.0.cs", "1");
    p.setProperty("mcp3008.0.baud", "2000000");
    p.setProperty("mcp3008.0.vref", "3.3");
    p.setProperty("mcp3008.0.channels", "vibration[g], CH0, 2, -3.3; flow[l/min], CH1, 30");
    Mcp3008Config cfg = Mcp3008Config.fromProperties(p, "mcp3008.0.");
    assertEquals(0, cfg.bus());
    assertEquals(1, cfg.chipSelect());
    assertEquals(2_000_000, cfg.baud());
    assertEquals(3.3 / 1024, cfg.voltsPerCode(), 1e-15);
    assertEquals("MCP3008 spi0.1, 2000000 Hz, mode 0, VREF 3.3 V, channels [vibration[g]=CH0, flow[l/min]=CH1]",
        cfg.toString());
    p.remove("mcp3008.0.vref");
    assertEquals("mcp3008.0.vref: is required (the volts on the VREF pin, e.g. 3.3)",
        assertThrows(IllegalArgumentException.class, () -> Mcp3008Config.fromProperties(p, "mcp3008.0.")).getMessage());
    p.setProperty("mcp3008.0.vref", "3.3");
    p.setProperty("mcp3008.0.baud", "4000000");
    assertTrue(assertThrows(IllegalArgumentException.class, () -> Mcp3008Config.fromProperties(p, "mcp3008.0."))
        .getMessage().startsWith("mcp3008.0: MCP3008 at spi0.1: SPI clock must be"));
  }
}
