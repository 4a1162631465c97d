package io.hdfl.sensors.signal.pi4j;

import io.hdfl.sensors.signal.Channel;
import java.util.Locale;
import java.util.Objects;

/**
 * One digital input as a channel of {@link DigitalInputs}: its name (and unit), its pin, and what
 * each sample reports: the pin's state, 0 or 1 (after {@link GpioPin#activeLow()}), or the number of
 * edges into the active state since the previous sample (a part counter's pulses per sample period;
 * counts per period stay in the same range for the whole run, unlike a running total).
 *
 * @param channel the channel's name and unit
 * @param pin the input pin
 * @param kind what a sample reports
 */
public record DigitalChannel(Channel channel, GpioPin pin, Kind kind) {

  /** What a sample of a digital channel reports. */
  public enum Kind {
    /** The state: 1 when active, else 0. */
    STATE,
    /** Edges into the active state since the previous sample (needs edge events from the Pi4J provider). */
    EDGES
  }

  public DigitalChannel {
    Objects.requireNonNull(channel, "channel");
    Objects.requireNonNull(pin, "pin");
    Objects.requireNonNull(kind, "kind");
  }

  /** The state of {@code pin} as channel {@code name}. */
  public static DigitalChannel state(String name, GpioPin pin) {
    return new DigitalChannel(Channel.parseLabel(name), pin, Kind.STATE);
  }

  /** Active edges per sample of {@code pin} as channel {@code name}. */
  public static DigitalChannel edges(String name, GpioPin pin) {
    return new DigitalChannel(Channel.parseLabel(name), pin, Kind.EDGES);
  }

  /**
   * Parses {@code name[unit], pin[, option ...]}, options being {@code up}, {@code down} or
   * {@code off} (pull resistor, default off), {@code active-low}, {@code edges} (count edges instead of
   * reporting the state) and {@code debounce=<µs>}; e.g. {@code door_open, 17, up, active-low} or
   * {@code parts, GPIO27, edges, debounce=1000}.
   *
   * @throws IllegalArgumentException one line naming the spec and the problem
   */
  public static DigitalChannel parse(String spec) {
    String[] f = spec.split(",", -1);
    if (f.length < 2) {
      throw new IllegalArgumentException("digital channel '" + spec.strip() + "': expected 'name[unit], pin[, up|down|"
          + "off][, active-low][, edges][, debounce=<µs>]'");
    }
    try {
      Channel channel = Channel.parseLabel(f[0]);
      GpioPin pin = GpioPin.of(GpioPin.parseNumber(f[1]));
      Kind kind = Kind.STATE;
      for (int i = 2; i < f.length; i++) {
        String o = f[i].strip().toLowerCase(Locale.ROOT);
        if (o.equals("edges")) {
          kind = Kind.EDGES;
        } else if (o.equals("active-low") || o.equals("active_low")) {
          pin = pin.withActiveLow(true);
        } else if (o.startsWith("debounce=")) {
          String v = o.substring("debounce=".length()).strip();
          try {
            pin = pin.withDebounceMicros(Long.parseLong(v.endsWith("us") ? v.substring(0, v.length() - 2).strip() : v));
          } catch (NumberFormatException e) {
            throw new IllegalArgumentException("debounce must be whole microseconds, got '" + v + "'");
          }
        } else {
          try {
            pin = pin.withPull(GpioPin.parsePull(o));
          } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown option '" + f[i].strip() + "' (options: up, down, off, "
                + "active-low, edges, debounce=<µs>)");
          }
        }
      }
      return new DigitalChannel(channel, pin, kind);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("digital channel '" + spec.strip() + "': " + e.getMessage(), e);
    }
  }
}
