package io.hdfl.sensors.signal.pi4j;

import com.pi4j.context.Context;
import com.pi4j.io.gpio.digital.DigitalInput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Labels samples from digital inputs: the pins of a {@link LabelSwitchConfig} are read as a binary
 * code at each sample, and the code's label is the sample's. The switch's state is not a channel, so
 * the label never leaks into the features.
 *
 * <p>Pi4J: {@link #open} creates one digital input per pin (id {@code hdfl-label-<bcm>});
 * {@link #close()} releases them (a {@link PolledSignalSource} closes its label switch).
 */
public final class LabelSwitch implements LabelProvider, AutoCloseable {

  private final Context context;
  private final LabelSwitchConfig config;
  private final DigitalInput[] inputs;
  private boolean closed;

  private LabelSwitch(Context context, LabelSwitchConfig config, DigitalInput[] inputs) {
    this.context = context;
    this.config = config;
    this.inputs = inputs;
  }

  /**
   * Opens the switch's pins through {@code pi4j}'s digital input provider; on a failure the pins
   * already opened are released.
   *
   * @throws IOException one line naming the pin that cannot be opened
   */
  public static LabelSwitch open(Context pi4j, LabelSwitchConfig config) throws IOException {
    Objects.requireNonNull(pi4j, "pi4j");
    Objects.requireNonNull(config, "config");
    List<DigitalInput> opened = new ArrayList<>();
    try {
      for (int i = 0; i < config.pins().size(); i++) {
        GpioPin p = config.pins().get(i);
        opened.add(p.open(pi4j, "hdfl-label-" + p.bcm(), "label switch bit " + (config.pins().size() - 1 - i)));
      }
    } catch (IOException | RuntimeException e) {
      for (DigitalInput in : opened) {
        Pi4jIo.release(pi4j, in, in.id());
      }
      throw e;
    }
    return new LabelSwitch(pi4j, config, opened.toArray(DigitalInput[]::new));
  }

  public LabelSwitchConfig config() {
    return config;
  }

  /** The code the pins read now, most significant pin first. */
  public int code() throws IOException {
    if (closed) {
      throw new IllegalStateException("label switch is closed");
    }
    int code = 0;
    for (int i = 0; i < inputs.length; i++) {
      boolean on = DigitalInputs.active(inputs[i], config.pins().get(i), "label switch");
      code = code << 1 | (on ? 1 : 0);
    }
    return code;
  }

  @Override
  public int label() throws IOException {
    return config.label(code());
  }

  @Override
  public void close() {
    if (!closed) {
      closed = true;
      for (int i = 0; i < inputs.length; i++) {
        Pi4jIo.release(context, inputs[i], "label switch " + config.pins().get(i));
      }
    }
  }

  @Override
  public String toString() {
    return config.toString();
  }
}
