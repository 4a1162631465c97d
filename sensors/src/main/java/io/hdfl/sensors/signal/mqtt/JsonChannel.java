package io.hdfl.sensors.signal.mqtt;

import com.fasterxml.jackson.core.JsonPointer;
import io.hdfl.sensors.signal.Channel;
import java.util.Objects;

/**
 * Where one channel's value sits in a JSON payload, and how it is scaled: value =
 * {@code raw × scale + offset}, with {@code raw} a JSON number, a boolean (1 or 0) or a string holding a
 * decimal number.
 *
 * @param channel the channel (name and unit) the value becomes
 * @param pointer an RFC 6901 JSON pointer, e.g. {@code /spindle/load} or {@code /axes/0/current}
 *     ({@code ""} is the whole payload, for topics whose payload is a bare number)
 * @param scale factor applied to the raw value, finite and not 0
 * @param offset added after scaling, finite
 */
public record JsonChannel(Channel channel, String pointer, double scale, double offset) {

  public JsonChannel {
    Objects.requireNonNull(channel, "channel");
    Objects.requireNonNull(pointer, "pointer");
    compile(pointer);
    if (!Double.isFinite(scale) || scale == 0) {
      throw new IllegalArgumentException("scale of channel " + channel.name() + " must be finite and not 0, got " + scale);
    }
    if (!Double.isFinite(offset)) {
      throw new IllegalArgumentException("offset of channel " + channel.name() + " must be finite, got " + offset);
    }
  }

  /** An unscaled mapping: channel {@code name[unit]} from {@code pointer}. */
  public static JsonChannel of(String name, String unit, String pointer) {
    return new JsonChannel(new Channel(name, unit), pointer, 1, 0);
  }

  /** This mapping with {@code raw × scale + offset}. */
  public JsonChannel scaled(double newScale, double newOffset) {
    return new JsonChannel(channel, pointer, newScale, newOffset);
  }

  static JsonPointer compile(String pointer) {
    if (pointer.length() > 1024) {
      throw new IllegalArgumentException("JSON pointer longer than 1024 characters");
    }
    try {
      return JsonPointer.compile(pointer);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("bad JSON pointer " + ThrottledLog.printable(pointer, 80)
          + " (RFC 6901: empty, or '/'-separated names like /spindle/load): " + e.getMessage(), e);
    }
  }
}
