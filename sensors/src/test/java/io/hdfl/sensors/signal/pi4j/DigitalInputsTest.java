package io.hdfl.sensors.signal.pi4j;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.pi4j.Pi4J;
import com.pi4j.context.Context;
import com.pi4j.io.gpio.digital.DigitalInput;
import com.pi4j.io.gpio.digital.DigitalState;
import com.pi4j.io.gpio.digital.PullResistance;
import com.pi4j.plugin.mock.provider.gpio.digital.MockDigitalInput;
import io.hdfl.sensors.signal.Channel;
import io.hdfl.sensors.signal.Sample;
import java.io.IOException;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Digital inputs and the label switch on Pi4J's mock digital inputs: the test sets a pin's state
 * with {@code mockState} (which also fires the state-change events edges are counted from) and reads
 * it back through the device.
 */
class DigitalInputsTest {

  Context pi4j;

  @BeforeEach
  void setUp() {
    pi4j = Pi4J.newAutoContext();
  }

  @AfterEach
  void tearDown() {
    pi4j.shutdown();
  }

  private MockDigitalInput pin(String id) {
    return (MockDigitalInput) pi4j.registry().get(id, DigitalInput.class);
  }

  @Test
  void statesAreReadThroughPi4jWithActiveLowInverted() throws Exception {
    DigitalInputsConfig cfg = DigitalInputsConfig.builder()
        .channel("spindle_on, 17, down")
        .channel("door_open, GPIO22, up, active-low, debounce=2000")
        .build();
    try (DigitalInputs gpio = DigitalInputs.open(pi4j, cfg)) {
      assertEquals("gpio:17,22", gpio.name());
      assertEquals(List.of(Channel.of("spindle_on"), Channel.of("door_open")), gpio.channels());
      MockDigitalInput spindle = pin("hdfl-gpio-17");
      MockDigitalInput door = pin("hdfl-gpio-22");
      assertEquals(17, spindle.address());
      assertEquals(PullResistance.PULL_DOWN, spindle.pull());
      assertEquals(PullResistance.PULL_UP, door.pull());
      assertEquals(2000L, door.config().debounce());
      assertEquals(GpioPin.DEFAULT_DEBOUNCE_MICROS, spindle.config().debounce());

      float[] v = new float[2];
      gpio.read(v, 0);
      assertArrayEquals(new float[] {0, 1}, v); // both LOW: the active-low door reads open
      spindle.mockState(DigitalState.HIGH);
      door.mockState(DigitalState.HIGH);
      gpio.read(v, 0);
      assertArrayEquals(new float[] {1, 0}, v);
    }
    assertFalse(pi4j.registry().exists("hdfl-gpio-17"), "close releases the pins");
    assertFalse(pi4j.registry().exists("hdfl-gpio-22"));
  }

  @Test
  void edgeChannelsCountActiveEdgesPerRead() throws Exception {
    DigitalInputsConfig cfg = DigitalInputsConfig.builder()
        .channel(DigitalChannel.edges("parts[1]", GpioPin.of(27).withDebounceMicros(0)))
        .channel(DigitalChannel.edges("stops", GpioPin.of(5).withActiveLow(true)))
        .build();
    try (DigitalInputs gpio = DigitalInputs.open(pi4j, cfg)) {
      MockDigitalInput parts = pin("hdfl-gpio-27");
      MockDigitalInput stops = pin("hdfl-gpio-5");
      float[] v = new float[2];
      gpio.read(v, 0);
      assertArrayEquals(new float[] {0, 0}, v);
      for (int i = 0; i < 3; i++) {
        parts.mockState(DigitalState.HIGH);
        parts.mockState(DigitalState.LOW);
      }
      stops.mockState(DigitalState.HIGH);
      stops.mockState(DigitalState.LOW); // active low: HIGH → LOW is the active edge
      gpio.read(v, 0);
      assertArrayEquals(new float[] {3, 1}, v);
      gpio.read(v, 0);
      assertArrayEquals(new float[] {0, 0}, v, "counts restart after each read");
      parts.mockState(DigitalState.HIGH);
      gpio.read(v, 0);
      assertArrayEquals(new float[] {1, 0}, v);
    }
  }

  @Test
  void aPinThatCannotBeOpenedReleasesThoseAlreadyOpened() {
    pi4j.create(DigitalInput.newConfigBuilder(pi4j).id("hdfl-gpio-23").address(23).build()); // taken
    DigitalInputsConfig cfg = DigitalInputsConfig.builder().channel("a, 17").channel("b, 23").build();
    IOException e = assertThrows(IOException.class, () -> DigitalInputs.open(pi4j, cfg));
    assertTrue(e.getMessage().startsWith("digital input 'b' on GPIO23: cannot open ("), e.getMessage());
    assertTrue(e.getMessage().endsWith("on a device the deployment must add a Pi4J GPIO plugin such as "
        + "pi4j-plugin-gpiod or pi4j-plugin-linuxfs"), e.getMessage());
    assertFalse(pi4j.registry().exists("hdfl-gpio-17"));
  }

  @Test
  void labelSwitchReadsABinaryCodeAndMapsItToLabels() throws Exception {
    LabelSwitchConfig cfg = LabelSwitchConfig.builder()
        .pin(GpioPin.of(20).withPull(PullResistance.PULL_UP).withActiveLow(true))
        .pin(GpioPin.of(21).withPull(PullResistance.PULL_UP).withActiveLow(true))
        .labels(-1, 0, 1, 2)
        .build();
    try (LabelSwitch sw = LabelSwitch.open(pi4j, cfg)) {
      MockDigitalInput msb = pin("hdfl-label-20");
      MockDigitalInput lsb = pin("hdfl-label-21");
      msb.mockState(DigitalState.HIGH);
      lsb.mockState(DigitalState.HIGH); // both released (pull-up, active low): code 0
      assertEquals(0, sw.code());
      assertEquals(Sample.NO_LABEL, sw.label());
      lsb.mockState(DigitalState.LOW);
      assertEquals(1, sw.code());
      assertEquals(0, sw.label());
      msb.mockState(DigitalState.LOW);
      lsb.mockState(DigitalState.HIGH);
      assertEquals(2, sw.code());
      assertEquals(1, sw.label());
      lsb.mockState(DigitalState.LOW);
      assertEquals(2, sw.label());
    }
    assertFalse(pi4j.registry().exists("hdfl-label-20"));
    LabelSwitchConfig toggle = LabelSwitchConfig.builder().pin(GpioPin.of(16)).build();
    assertArrayEquals(new int[] {0, 1}, toggle.labels(), "default: label = code");
  }

  @Test
  void badSpecsAreRejectedWithOneLine() {
    assertEquals("digital inputs: GPIO17 is used by both 'a' and 'b'", assertThrows(IllegalArgumentException.class,
        () -> DigitalInputsConfig.builder().channel("a, 17").channel("b, GPIO17").build()).getMessage());
    assertEquals("digital inputs: channel name 'a' appears twice", assertThrows(IllegalArgumentException.class,
        () -> DigitalInputsConfig.builder().channel("a, 17").channel("a, 18").build()).getMessage());
    assertEquals("digital inputs: no channels configured",
        assertThrows(IllegalArgumentException.class, () -> DigitalInputsConfig.builder().build()).getMessage());
    assertEquals("digital channel 'a, 60': GPIO number must be 0..53 (BCM numbering; 2..27 on the header), got 60",
        assertThrows(IllegalArgumentException.class, () -> DigitalChannel.parse("a, 60")).getMessage());
    assertEquals("digital channel 'a, pin7': GPIO pin must be a BCM number such as 17 or GPIO17, got 'pin7'",
        assertThrows(IllegalArgumentException.class, () -> DigitalChannel.parse("a, pin7")).getMessage());
    assertEquals("digital channel 'a, 7, sideways': unknown option 'sideways' (options: up, down, off, active-low, "
        + "edges, debounce=<µs>)", assertThrows(IllegalArgumentException.class,
            () -> DigitalChannel.parse("a, 7, sideways")).getMessage());
    assertEquals("digital channel 'a, 7, debounce=2ms': debounce must be whole microseconds, got '2ms'",
        assertThrows(IllegalArgumentException.class, () -> DigitalChannel.parse("a, 7, debounce=2ms")).getMessage());
    assertEquals("digital channel 'a': expected 'name[unit], pin[, up|down|off][, active-low][, edges][, "
        + "debounce=<µs>]'", assertThrows(IllegalArgumentException.class, () -> DigitalChannel.parse("a"))
        .getMessage());
    assertEquals(new DigitalChannel(new Channel("parts", "1"), new GpioPin(27, PullResistance.OFF, false, 500),
        DigitalChannel.Kind.EDGES), DigitalChannel.parse("parts[1], 27, edges, debounce=500us"));
    assertEquals("label switch: 2 pin(s) give 4 codes, so it needs 4 labels, got 3 [0, 1, 2]",
        assertThrows(IllegalArgumentException.class, () -> LabelSwitchConfig.builder().pin(GpioPin.of(1))
            .pin(GpioPin.of(2)).labels(0, 1, 2).build()).getMessage());
    assertEquals("label switch: the label of code 1 must be ≥ 0 or -1 (no label), got -2",
        assertThrows(IllegalArgumentException.class, () -> LabelSwitchConfig.builder().pin(GpioPin.of(1))
            .labels(0, -2).build()).getMessage());
    assertEquals("label switch: GPIO1 is listed twice", assertThrows(IllegalArgumentException.class,
        () -> LabelSwitchConfig.builder().pin(GpioPin.of(1)).pin(GpioPin.of(1)).build()).getMessage());
    assertEquals("label switch: needs 1..4 pins, got 0",
        assertThrows(IllegalArgumentException.class, () -> LabelSwitchConfig.builder().build()).getMessage());
  }

  @Test
  void configurationFromProperties() {
    Properties p = new Properties();
    p.setProperty("gpio.channels", "door_open, 17, up, active-low; parts, 27, edges, debounce=1000");
    p.setProperty("label.pins", "20, 21");
    p.setProperty("label.pull", "up");
    p.setProperty("label.active-low", "true");
    p.setProperty("label.labels", "-1, 0, 1, 2");
    DigitalInputsConfig gpio = DigitalInputsConfig.fromProperties(p, "gpio.");
    assertEquals(2, gpio.channels().size());
    assertEquals(new GpioPin(17, PullResistance.PULL_UP, true, GpioPin.DEFAULT_DEBOUNCE_MICROS),
        gpio.channels().get(0).pin());
    LabelSwitchConfig label = LabelSwitchConfig.fromProperties(p, "label.");
    assertEquals(List.of(new GpioPin(20, PullResistance.PULL_UP, true, 10_000),
        new GpioPin(21, PullResistance.PULL_UP, true, 10_000)), label.pins());
    assertArrayEquals(new int[] {-1, 0, 1, 2}, label.labels());
    p.setProperty("label.active-low", "maybe");
    assertEquals("label.active-low: must be true or false, got 'maybe'",
        assertThrows(IllegalArgumentException.class, () -> LabelSwitchConfig.fromProperties(p, "label.")).getMessage());
    p.setProperty("label.active-low", "yes");
    p.setProperty("label.labels", "0, 1, two, 3");
    assertEquals("label.labels: item 3 must be a whole number, got 'two'",
        assertThrows(IllegalArgumentException.class, () -> LabelSwitchConfig.fromProperties(p, "label.")).getMessage());
    p.setProperty("label.labels", "0, 1");
    assertEquals("label: label switch: 2 pin(s) give 4 codes, so it needs 4 labels, got 2 [0, 1]",
        assertThrows(IllegalArgumentException.class, () -> LabelSwitchConfig.fromProperties(p, "label.")).getMessage());
    p.setProperty("gpio.channels", " ; ");
    assertEquals("gpio.channels: lists nothing",
        assertThrows(IllegalArgumentException.class, () -> DigitalInputsConfig.fromProperties(p, "gpio.")).getMessage());
  }
}
