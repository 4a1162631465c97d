package io.hdfl.sensors.signal.pi4j;

import io.hdfl.sensors.signal.Channel;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;

/** The digital input channels of a {@link DigitalInputs}: distinct names on distinct pins. */
public final class DigitalInputsConfig {

  private final List<DigitalChannel> channels;

  private DigitalInputsConfig(List<DigitalChannel> channels) {
    if (channels.isEmpty()) {
      throw new IllegalArgumentException("digital inputs: no channels configured");
    }
    Map<Integer, String> pins = new HashMap<>();
    List<Channel> names = new ArrayList<>();
    for (DigitalChannel c : channels) {
      String other = pins.putIfAbsent(c.pin().bcm(), c.channel().name());
      if (other != null) {
        throw new IllegalArgumentException("digital inputs: " + c.pin() + " is used by both '" + other + "' and '"
            + c.channel().name() + "'");
      }
      names.add(c.channel());
    }
    try {
      Channel.checkList(names);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("digital inputs: " + e.getMessage(), e);
    }
    this.channels = List.copyOf(channels);
  }

  /** A builder. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Reads the key {@code channels} under {@code prefix} (e.g. {@code gpio.}): {@code ;}-separated
   * {@link DigitalChannel#parse specs}, e.g. {@code door_open, 17, up, active-low; parts, 27, edges}.
   *
   * @throws IllegalArgumentException one line naming the key
   */
  public static DigitalInputsConfig fromProperties(Properties properties, String prefix) {
    ConfigKeys k = new ConfigKeys(properties, prefix, Set.of("channels"));
    Builder b = builder();
    k.list("channels", DigitalChannel::parse).forEach(b::channel);
    try {
      return b.build();
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(k.block() + ": " + e.getMessage(), e);
    }
  }

  public List<DigitalChannel> channels() {
    return channels;
  }

  /** {@code gpio:17,27}: the pins in channel order. */
  public String deviceName() {
    StringBuilder s = new StringBuilder("gpio:");
    for (int i = 0; i < channels.size(); i++) {
      s.append(i == 0 ? "" : ",").append(channels.get(i).pin().bcm());
    }
    return s.toString();
  }

  @Override
  public String toString() {
    return "digital inputs " + channels;
  }

  /** Builder of a {@link DigitalInputsConfig}. */
  public static final class Builder {
    private final List<DigitalChannel> channels = new ArrayList<>();

    private Builder() {}

    /** Adds a channel; values come in the order added. */
    public Builder channel(DigitalChannel channel) {
      channels.add(Objects.requireNonNull(channel, "channel"));
      return this;
    }

    /** Adds a channel in the text form of {@link DigitalChannel#parse}. */
    public Builder channel(String spec) {
      return channel(DigitalChannel.parse(spec));
    }

    /** @throws IllegalArgumentException naming the first problem */
    public DigitalInputsConfig build() {
      return new DigitalInputsConfig(channels);
    }
  }
}
