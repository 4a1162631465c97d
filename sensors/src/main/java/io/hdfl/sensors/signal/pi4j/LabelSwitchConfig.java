package io.hdfl.sensors.signal.pi4j;

import com.pi4j.io.gpio.digital.PullResistance;
import io.hdfl.sensors.signal.Sample;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;

/**
 * A {@link LabelSwitch}: 1 to {@value #MAX_BITS} digital inputs read as a binary code (the first pin
 * is the most significant bit; an active pin is 1) and the label of each code. A single toggle switch
 * is one pin with labels {@code 0, 1}; a 4-position rotary switch with a binary-coded output is two
 * pins; {@code -1} ({@link Sample#NO_LABEL}) marks a code whose samples are not labelled (e.g. "setup,
 * don't learn").
 */
public final class LabelSwitchConfig {

  /** Most pins a label switch reads. */
  public static final int MAX_BITS = 4;

  private final List<GpioPin> pins;
  private final int[] labels;

  private LabelSwitchConfig(List<GpioPin> pins, int[] labels) {
    if (pins.isEmpty() || pins.size() > MAX_BITS) {
      throw new IllegalArgumentException("label switch: needs 1.." + MAX_BITS + " pins, got " + pins.size());
    }
    Set<Integer> seen = new HashSet<>();
    for (GpioPin p : pins) {
      if (!seen.add(p.bcm())) {
        throw new IllegalArgumentException("label switch: " + p + " is listed twice");
      }
    }
    int codes = 1 << pins.size();
    int[] l = labels == null ? java.util.stream.IntStream.range(0, codes).toArray() : labels.clone();
    if (l.length != codes) {
      throw new IllegalArgumentException("label switch: " + pins.size() + " pin(s) give " + codes
          + " codes, so it needs " + codes + " labels, got " + l.length + " " + Arrays.toString(l));
    }
    for (int i = 0; i < l.length; i++) {
      if (l[i] < Sample.NO_LABEL) {
        throw new IllegalArgumentException("label switch: the label of code " + i + " must be ≥ 0 or -1 (no label), got "
            + l[i]);
      }
    }
    this.pins = List.copyOf(pins);
    this.labels = l;
  }

  /** A builder. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Reads a label switch from the keys under {@code prefix} (e.g. {@code label.}):
   * <pre>
   *   pins        GPIO numbers, most significant first, comma-separated (required), e.g. 22, 23
   *   pull        up | down | off for every pin (default off)
   *   active-low  true | false for every pin (default false)
   *   debounce    µs for every pin (default 10000)
   *   labels      the label of each code 0, 1, ..., comma-separated, -1 for none (default: the code)
   * </pre>
   *
   * @throws IllegalArgumentException one line naming the key
   */
  public static LabelSwitchConfig fromProperties(Properties properties, String prefix) {
    ConfigKeys k = new ConfigKeys(properties, prefix, Set.of("pins", "pull", "active-low", "debounce", "labels"));
    PullResistance pull = k.parsed("pull", GpioPin::parsePull, PullResistance.OFF);
    boolean activeLow = k.flag("active-low", false);
    int debounce = k.integer("debounce", (int) GpioPin.DEFAULT_DEBOUNCE_MICROS);
    if (debounce < 0 || debounce > 1_000_000) {
      throw k.bad("debounce", "must be 0..1000000 µs, got " + debounce);
    }
    Builder b = builder();
    for (String p : k.required("pins").split(",", -1)) {
      try {
        b.pin(new GpioPin(GpioPin.parseNumber(p), pull, activeLow, debounce));
      } catch (IllegalArgumentException e) {
        throw k.bad("pins", e.getMessage());
      }
    }
    if (k.has("labels")) {
      String[] f = k.required("labels").split(",", -1);
      int[] labels = new int[f.length];
      for (int i = 0; i < f.length; i++) {
        try {
          labels[i] = Integer.parseInt(f[i].strip());
        } catch (NumberFormatException e) {
          throw k.bad("labels", "item " + (i + 1) + " must be a whole number, got '" + f[i].strip() + "'");
        }
      }
      b.labels(labels);
    }
    try {
      return b.build();
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(k.block() + ": " + e.getMessage(), e);
    }
  }

  /** The pins, most significant bit first. */
  public List<GpioPin> pins() {
    return pins;
  }

  /** The label of {@code code} (0 .. 2^pins − 1). */
  public int label(int code) {
    return labels[code];
  }

  /** The labels by code. */
  public int[] labels() {
    return labels.clone();
  }

  @Override
  public String toString() {
    return "label switch " + pins + " labels " + Arrays.toString(labels);
  }

  /** Builder of a {@link LabelSwitchConfig}. */
  public static final class Builder {
    private final List<GpioPin> pins = new ArrayList<>();
    private int[] labels;

    private Builder() {}

    /** Adds the next (less significant) bit. */
    public Builder pin(GpioPin pin) {
      pins.add(Objects.requireNonNull(pin, "pin"));
      return this;
    }

    /** The label of each code, {@code -1} for none (default: label = code). */
    public Builder labels(int... labelsByCode) {
      this.labels = labelsByCode.clone();
      return this;
    }

    /** @throws IllegalArgumentException naming the first problem */
    public LabelSwitchConfig build() {
      return new LabelSwitchConfig(pins, labels);
    }
  }
}
