package io.hdfl.sensors.signal.pi4j;

import com.pi4j.context.Context;
import com.pi4j.io.gpio.digital.DigitalInput;
import com.pi4j.io.gpio.digital.PullResistance;
import java.io.IOException;
import java.util.Locale;
import java.util.Objects;

/**
 * One digital input pin and how it is read: its BCM GPIO number (GPIO17 is header pin 11), the
 * internal pull resistor, whether the signal is active low (a switch to GND with a pull-up reads
 * LOW when closed: active low makes "closed" read 1), and Pi4J's debounce time.
 *
 * @param bcm the BCM GPIO number, 0..53 (2..27 on the 40-pin header)
 * @param pull the internal pull resistor
 * @param activeLow whether LOW means active (1)
 * @param debounceMicros input debounce in µs, 0..1 000 000 (Pi4J's default is 10 000)
 */
public record GpioPin(int bcm, PullResistance pull, boolean activeLow, long debounceMicros) {

  /** Pi4J's default debounce, 10 ms. */
  public static final long DEFAULT_DEBOUNCE_MICROS = DigitalInput.DEFAULT_DEBOUNCE;

  public GpioPin {
    if (bcm < 0 || bcm > 53) {
      throw new IllegalArgumentException("GPIO number must be 0..53 (BCM numbering; 2..27 on the header), got " + bcm);
    }
    Objects.requireNonNull(pull, "pull");
    if (debounceMicros < 0 || debounceMicros > 1_000_000) {
      throw new IllegalArgumentException("GPIO " + bcm + ": debounce must be 0..1000000 µs, got " + debounceMicros);
    }
  }

  /** An active-high pin without pull resistor and with the default debounce. */
  public static GpioPin of(int bcm) {
    return new GpioPin(bcm, PullResistance.OFF, false, DEFAULT_DEBOUNCE_MICROS);
  }

  /** This pin with another pull resistor. */
  public GpioPin withPull(PullResistance p) {
    return new GpioPin(bcm, p, activeLow, debounceMicros);
  }

  /** This pin active low (or high). */
  public GpioPin withActiveLow(boolean low) {
    return new GpioPin(bcm, pull, low, debounceMicros);
  }

  /** This pin with another debounce time. */
  public GpioPin withDebounceMicros(long micros) {
    return new GpioPin(bcm, pull, activeLow, micros);
  }

  /** {@code GPIO17}. */
  @Override
  public String toString() {
    return "GPIO" + bcm;
  }

  /** {@code GPIO17}, {@code gpio17} or {@code 17}. */
  static int parseNumber(String text) {
    String t = text.strip().toUpperCase(Locale.ROOT);
    if (t.startsWith("GPIO")) {
      t = t.substring(4);
    }
    try {
      return Integer.parseInt(t);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("GPIO pin must be a BCM number such as 17 or GPIO17, got '" + text.strip()
          + "'");
    }
  }

  /** {@code up}, {@code down} or {@code off}. */
  static PullResistance parsePull(String text) {
    return switch (text.strip().toLowerCase(Locale.ROOT)) {
      case "up", "pull-up", "pull_up" -> PullResistance.PULL_UP;
      case "down", "pull-down", "pull_down" -> PullResistance.PULL_DOWN;
      case "off", "none" -> PullResistance.OFF;
      default -> throw new IllegalArgumentException("pull must be up, down or off, got '" + text.strip() + "'");
    };
  }

  /** Creates the Pi4J input for this pin. */
  DigitalInput open(Context pi4j, String id, String name) throws IOException {
    return Pi4jIo.create(name + " on " + this, "a Pi4J GPIO plugin such as pi4j-plugin-gpiod or pi4j-plugin-linuxfs",
        () -> pi4j.create(DigitalInput.newConfigBuilder(pi4j).id(id).name(name).address(bcm).pull(pull)
            .debounce(debounceMicros).build()));
  }
}
