package io.hdfl.sensors.signal.pi4j;

import com.pi4j.context.Context;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A whole hardware signal source described in a device's properties file: the sampling rate, the
 * ADCs and digital inputs, and the label switch, under one prefix (e.g. {@code signal.}):
 * <pre>
 *   signal.rate               samples per second (required)
 *   signal.overrun            skip | fail (default skip)
 *   signal.max-lateness       fraction of the period a sample may start late, (0, 0.5) (default 0.25)
 *   signal.ads1115.N.*        an ADS1115, N = 0, 1, ... (keys: {@link Ads1115Config#fromProperties})
 *   signal.mcp3008.N.*        an MCP3008 (keys: {@link Mcp3008Config#fromProperties})
 *   signal.gpio.channels      digital inputs ({@link DigitalInputsConfig#fromProperties})
 *   signal.label.*            a label switch ({@link LabelSwitchConfig#fromProperties})
 * </pre>
 * Channels come in this order: the ADS1115s by N, the MCP3008s by N, then the digital inputs. Parsing
 * checks everything without touching hardware; {@link #open(Context)} then opens it.
 */
public final class HardwareSignalConfig {

  private static final Pattern INDEXED = Pattern.compile("(ads1115|mcp3008)\\.(\\d{1,3})\\..*");

  private final double rateHz;
  private final OverrunPolicy overrunPolicy;
  private final double maxLateness;
  private final List<Ads1115Config> ads1115;
  private final List<Mcp3008Config> mcp3008;
  private final DigitalInputsConfig gpio;
  private final LabelSwitchConfig label;

  private HardwareSignalConfig(double rateHz, OverrunPolicy overrunPolicy, double maxLateness,
      List<Ads1115Config> ads1115, List<Mcp3008Config> mcp3008, DigitalInputsConfig gpio, LabelSwitchConfig label) {
    this.rateHz = rateHz;
    this.overrunPolicy = overrunPolicy;
    this.maxLateness = maxLateness;
    this.ads1115 = List.copyOf(ads1115);
    this.mcp3008 = List.copyOf(mcp3008);
    this.gpio = gpio;
    this.label = label;
  }

  /**
   * Reads the keys under {@code prefix}.
   *
   * @throws IllegalArgumentException one line naming the key: unknown keys, missing or bad values,
   *     no device at all
   */
  public static HardwareSignalConfig fromProperties(Properties properties, String prefix) {
    Objects.requireNonNull(properties, "properties");
    Objects.requireNonNull(prefix, "prefix");
    TreeMap<Integer, String> ads = new TreeMap<>();
    TreeMap<Integer, String> mcp = new TreeMap<>();
    Set<String> unknown = new TreeSet<>();
    for (String key : properties.stringPropertyNames()) {
      if (!key.startsWith(prefix)) {
        continue;
      }
      String k = key.substring(prefix.length());
      Matcher m = INDEXED.matcher(k);
      if (m.matches()) {
        int n = Integer.parseInt(m.group(2));
        (m.group(1).equals("ads1115") ? ads : mcp).put(n, prefix + m.group(1) + "." + m.group(2) + ".");
      } else if (!Set.of("rate", "overrun", "max-lateness").contains(k) && !k.startsWith("gpio.")
          && !k.startsWith("label.")) {
        unknown.add(key);
      }
    }
    if (!unknown.isEmpty()) {
      throw new IllegalArgumentException("unknown key(s) " + unknown + " (known under " + prefix + ": rate, overrun, "
          + "max-lateness, ads1115.N.*, mcp3008.N.*, gpio.channels, label.*)");
    }
    ConfigKeys k = new ConfigKeys(properties, prefix);
    double rate = k.number("rate", Double.NaN);
    if (!(rate > 0 && rate <= PolledSignalSource.MAX_RATE_HZ)) {
      throw k.bad("rate", Double.isNaN(rate) && !k.has("rate") ? "is required (samples per second)"
          : "must be > 0 and ≤ 20000 samples per second, got " + k.value("rate"));
    }
    OverrunPolicy policy = k.parsed("overrun", v -> switch (v.toLowerCase(Locale.ROOT)) {
      case "skip" -> OverrunPolicy.SKIP;
      case "fail" -> OverrunPolicy.FAIL;
      default -> throw new IllegalArgumentException("must be skip or fail, got '" + v + "'");
    }, OverrunPolicy.SKIP);
    double lateness = k.number("max-lateness", 0.25);
    if (!(lateness > 0 && lateness < 0.5)) {
      throw k.bad("max-lateness", "must be in (0, 0.5) of the period, got " + k.value("max-lateness"));
    }
    List<Ads1115Config> adsConfigs = new ArrayList<>();
    for (String p : ads.values()) {
      adsConfigs.add(Ads1115Config.fromProperties(properties, p));
    }
    List<Mcp3008Config> mcpConfigs = new ArrayList<>();
    for (String p : mcp.values()) {
      mcpConfigs.add(Mcp3008Config.fromProperties(properties, p));
    }
    DigitalInputsConfig gpio = ConfigKeys.present(properties, prefix + "gpio.")
        ? DigitalInputsConfig.fromProperties(properties, prefix + "gpio.") : null;
    LabelSwitchConfig label = ConfigKeys.present(properties, prefix + "label.")
        ? LabelSwitchConfig.fromProperties(properties, prefix + "label.") : null;
    if (gpio != null && label != null) {
      for (GpioPin pin : label.pins()) {
        for (DigitalChannel c : gpio.channels()) {
          if (c.pin().bcm() == pin.bcm()) {
            throw new IllegalArgumentException(prefix + "label.pins: " + pin + " is also the digital input '"
                + c.channel().name() + "' (the label would leak into the features)");
          }
        }
      }
    }
    if (adsConfigs.isEmpty() && mcpConfigs.isEmpty() && gpio == null) {
      throw new IllegalArgumentException(prefix + "*: no device configured (ads1115.N.*, mcp3008.N.* or gpio.channels)");
    }
    return new HardwareSignalConfig(rate, policy, lateness, adsConfigs, mcpConfigs, gpio, label);
  }

  public double rateHz() {
    return rateHz;
  }

  public OverrunPolicy overrunPolicy() {
    return overrunPolicy;
  }

  public double maxLateness() {
    return maxLateness;
  }

  public List<Ads1115Config> ads1115() {
    return ads1115;
  }

  public List<Mcp3008Config> mcp3008() {
    return mcp3008;
  }

  /** The digital inputs, or null. */
  public DigitalInputsConfig gpio() {
    return gpio;
  }

  /** The label switch, or null. */
  public LabelSwitchConfig label() {
    return label;
  }

  /**
   * Opens every device through {@code pi4j} and returns the source, which owns them and the context:
   * closing it closes the devices and shuts the context down. When opening or checking fails,
   * everything opened so far is closed and the context shut down before the exception propagates.
   *
   * @throws IOException one line naming the device that cannot be opened
   * @throws IllegalArgumentException if the devices cannot keep up with the rate
   */
  public PolledSignalSource open(Context pi4j) throws IOException {
    return open(pi4j, MonotonicClock.SYSTEM);
  }

  PolledSignalSource open(Context pi4j, MonotonicClock clock) throws IOException {
    Objects.requireNonNull(pi4j, "pi4j");
    PolledSignalSource.Builder b = PolledSignalSource.builder(rateHz).overrunPolicy(overrunPolicy)
        .maxLateness(maxLateness).shutdownOnClose(pi4j).clock(clock);
    List<InputDevice> opened = new ArrayList<>();
    LabelSwitch labels = null;
    try {
      for (Ads1115Config c : ads1115) {
        opened.add(Ads1115.open(pi4j, c, clock));
      }
      for (Mcp3008Config c : mcp3008) {
        opened.add(Mcp3008.open(pi4j, c));
      }
      if (gpio != null) {
        opened.add(DigitalInputs.open(pi4j, gpio));
      }
      if (label != null) {
        labels = LabelSwitch.open(pi4j, label);
      }
    } catch (IOException | RuntimeException e) {
      PolledSignalSource.closeAll(opened, labels, pi4j);
      throw e;
    }
    opened.forEach(b::device);
    if (labels != null) {
      b.labels(labels);
    }
    return b.build();
  }
}
