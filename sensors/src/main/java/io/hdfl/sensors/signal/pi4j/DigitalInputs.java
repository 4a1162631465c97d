package io.hdfl.sensors.signal.pi4j;

import com.pi4j.context.Context;
import com.pi4j.io.gpio.digital.DigitalInput;
import com.pi4j.io.gpio.digital.DigitalState;
import com.pi4j.io.gpio.digital.DigitalStateChangeListener;
import io.hdfl.sensors.signal.Channel;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Named digital inputs as channels (a door switch, a spindle-running signal, a part counter): each
 * read reports, per {@link DigitalChannel}, the pin's state 0/1 or the active edges counted since the
 * previous read. Edges are counted from Pi4J's state-change events, so {@code EDGES} channels need a
 * provider that delivers them (pi4j-plugin-gpiod does; debouncing is Pi4J's).
 *
 * <p>For labels (a switch telling which class is being produced) use a {@link LabelSwitch}: a
 * channel would feed the label into the features the classifier learns from.
 *
 * <p>Pi4J: {@link #open} creates one digital input per pin (id {@code hdfl-gpio-<bcm>}); on a device
 * the deployment adds {@code pi4j-plugin-gpiod} (or linuxfs). {@link #close()} releases them.
 */
public final class DigitalInputs implements InputDevice {

  private final Context context;
  private final DigitalInputsConfig config;
  private final String name;
  private final List<Channel> channels;
  private final DigitalInput[] inputs;
  private final AtomicLong[] edges;
  private final DigitalStateChangeListener[] listeners;
  private boolean closed;

  private DigitalInputs(Context context, DigitalInputsConfig config, DigitalInput[] inputs) {
    this.context = context;
    this.config = config;
    this.name = config.deviceName();
    this.channels = config.channels().stream().map(DigitalChannel::channel).toList();
    this.inputs = inputs;
    this.edges = new AtomicLong[inputs.length];
    this.listeners = new DigitalStateChangeListener[inputs.length];
    for (int i = 0; i < inputs.length; i++) {
      DigitalChannel c = config.channels().get(i);
      if (c.kind() == DigitalChannel.Kind.EDGES) {
        AtomicLong count = new AtomicLong();
        DigitalState active = c.pin().activeLow() ? DigitalState.LOW : DigitalState.HIGH;
        edges[i] = count;
        listeners[i] = event -> {
          if (event.state() == active) {
            count.incrementAndGet();
          }
        };
        inputs[i].addListener(listeners[i]);
      }
    }
  }

  /**
   * Opens every configured pin through {@code pi4j}'s digital input provider; on a failure the pins
   * already opened are released.
   *
   * @throws IOException one line naming the channel and pin that cannot be opened
   */
  public static DigitalInputs open(Context pi4j, DigitalInputsConfig config) throws IOException {
    Objects.requireNonNull(pi4j, "pi4j");
    Objects.requireNonNull(config, "config");
    List<DigitalInput> opened = new ArrayList<>();
    try {
      for (DigitalChannel c : config.channels()) {
        opened.add(c.pin().open(pi4j, "hdfl-gpio-" + c.pin().bcm(), "digital input '" + c.channel().name() + "'"));
      }
    } catch (IOException | RuntimeException e) {
      for (DigitalInput in : opened) {
        Pi4jIo.release(pi4j, in, in.id());
      }
      throw e;
    }
    return new DigitalInputs(pi4j, config, opened.toArray(DigitalInput[]::new));
  }

  public DigitalInputsConfig config() {
    return config;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public List<Channel> channels() {
    return channels;
  }

  @Override
  public void read(float[] dst, int offset) throws IOException {
    if (closed) {
      throw new IllegalStateException(name + " is closed");
    }
    Objects.checkFromIndexSize(offset, inputs.length, dst.length);
    for (int i = 0; i < inputs.length; i++) {
      dst[offset + i] = edges[i] != null ? edges[i].getAndSet(0) : state(i);
    }
  }

  private int state(int i) throws IOException {
    DigitalChannel c = config.channels().get(i);
    return active(inputs[i], c.pin(), "'" + c.channel().name() + "'") ? 1 : 0;
  }

  /** Whether {@code input} is in its active state; a state Pi4J does not know is an error. */
  static boolean active(DigitalInput input, GpioPin pin, String what) throws IOException {
    DigitalState s;
    try {
      s = input.state();
    } catch (RuntimeException e) {
      throw new IOException(what + " on " + pin + ": reading the state failed: " + e.getMessage(), e);
    }
    if (s == DigitalState.HIGH) {
      return !pin.activeLow();
    }
    if (s == DigitalState.LOW) {
      return pin.activeLow();
    }
    throw new IOException(what + " on " + pin + ": state unknown (" + s + ")");
  }

  @Override
  public void close() {
    if (!closed) {
      closed = true;
      for (int i = 0; i < inputs.length; i++) {
        if (listeners[i] != null) {
          try {
            inputs[i].removeListener(listeners[i]);
          } catch (RuntimeException ignored) {
            // released below anyway
          }
        }
        Pi4jIo.release(context, inputs[i], name + " " + config.channels().get(i).pin());
      }
    }
  }

  @Override
  public String toString() {
    return name;
  }
}
