package io.hdfl.sensors.signal.pi4j;

import io.hdfl.sensors.signal.Channel;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * One analog channel of an ADC: the signal's name and unit, the ADC input it is wired to, and the
 * linear map from the measured volts to the unit, {@code value = volts × scale + offset}. For example
 * a current transformer giving 0.1 V per ampere on AIN0 is
 * {@code new AnalogChannel<>(new Channel("spindle_current", "A"), Ads1115Input.AIN0, 10, 0)}; a
 * 4–20 mA loop over a 165 Ω resistor for 0–10 bar is 0.66–3.3 V, so scale 10 / 2.64 and offset
 * −2.5 bar.
 *
 * @param channel the name and unit of the values produced
 * @param input the ADC input ({@link Ads1115Input}, {@link Mcp3008Input})
 * @param scale units per volt; finite and non-zero
 * @param offset units at 0 V; finite
 * @param <I> the ADC's input type
 */
public record AnalogChannel<I>(Channel channel, I input, double scale, double offset) {

  public AnalogChannel {
    Objects.requireNonNull(channel, "channel");
    Objects.requireNonNull(input, "input");
    if (!Double.isFinite(scale) || scale == 0) {
      throw new IllegalArgumentException("channel '" + channel.label() + "': scale must be finite and non-zero, got "
          + scale);
    }
    if (!Double.isFinite(offset)) {
      throw new IllegalArgumentException("channel '" + channel.label() + "': offset must be finite, got " + offset);
    }
  }

  /** A channel reporting volts as measured (scale 1, offset 0). */
  public static <I> AnalogChannel<I> volts(String name, I input) {
    return new AnalogChannel<>(new Channel(name, "V"), input, 1, 0);
  }

  /** The value in the channel's unit for a measured voltage. */
  public double toUnit(double volts) {
    return volts * scale + offset;
  }

  /**
   * Parses the text form used in configuration files: {@code name[unit], INPUT[, scale[, offset]]},
   * e.g. {@code spindle_current[A], AIN0, 10} or {@code pressure[bar], CH3, 3.788, -2.5} (scale
   * defaults to 1, offset to 0). Names containing commas need the builder API.
   *
   * @param inputs parses the input field, throwing {@link IllegalArgumentException} for a bad one
   * @throws IllegalArgumentException one line naming the spec and the problem
   */
  public static <I> AnalogChannel<I> parse(String spec, Function<String, I> inputs) {
    Objects.requireNonNull(spec, "spec");
    String[] f = spec.split(",", -1);
    if (f.length < 2 || f.length > 4) {
      throw new IllegalArgumentException("analog channel '" + spec.strip() + "': expected 'name[unit], input[, scale[, "
          + "offset]]' (2 to 4 comma-separated fields), got " + f.length + " field(s)");
    }
    try {
      Channel channel = Channel.parseLabel(f[0]);
      I input = inputs.apply(f[1].strip());
      double scale = f.length > 2 ? number(f[2], "scale") : 1;
      double offset = f.length > 3 ? number(f[3], "offset") : 0;
      return new AnalogChannel<>(channel, input, scale, offset);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("analog channel '" + spec.strip() + "': " + e.getMessage(), e);
    }
  }

  /**
   * Checks a device's channel list: not empty, each input used once, channel names valid and distinct.
   *
   * @throws IllegalArgumentException one line starting with {@code where}
   */
  static <I> void checkList(String where, List<AnalogChannel<I>> channels) {
    if (channels.isEmpty()) {
      throw new IllegalArgumentException(where + ": no channels configured");
    }
    Map<I, String> used = new HashMap<>();
    List<Channel> names = new ArrayList<>();
    for (AnalogChannel<I> c : channels) {
      String other = used.putIfAbsent(c.input(), c.channel().name());
      if (other != null) {
        throw new IllegalArgumentException(where + ": input " + c.input() + " is used by both '" + other + "' and '"
            + c.channel().name() + "'");
      }
      names.add(c.channel());
    }
    try {
      Channel.checkList(names);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
    }
  }

  private static double number(String field, String what) {
    try {
      return Double.parseDouble(field.strip());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(what + " must be a number, got '" + field.strip() + "'");
    }
  }
}
