package io.hdfl.sensors.signal.pi4j;

import io.hdfl.sensors.signal.Channel;
import java.io.IOException;
import java.util.List;

/**
 * A device whose channels are read on demand, one value per channel per call: an ADC
 * ({@link Ads1115}, {@link Mcp3008}) or a set of digital inputs ({@link DigitalInputs}). A
 * {@link PolledSignalSource} reads one or more devices at a fixed rate and turns each cycle into a
 * {@link io.hdfl.sensors.signal.Sample}.
 *
 * <p>A device owns the Pi4J I/O it opened and releases it in {@link #close()} (not the Pi4J
 * {@code Context}, which may be shared). Not thread-safe: one sampler reads it.
 */
public interface InputDevice extends AutoCloseable {

  /** A short name for logs and errors, e.g. {@code ads1115:i2c-1/0x48}. */
  String name();

  /** The channels, in the order {@link #read} writes their values; never empty. */
  List<Channel> channels();

  /**
   * Reads every channel once and writes the values, in channel order and in each channel's unit,
   * to {@code dst[offset ..]}.
   *
   * @throws IOException if the device fails or answers implausibly; the message names the device
   * @throws InterruptedException if interrupted while waiting for a conversion
   * @throws IllegalStateException if the device is closed
   */
  void read(float[] dst, int offset) throws IOException, InterruptedException;

  /**
   * The shortest time one {@link #read} can take, by the device's own timing (conversion times;
   * bus transfers not counted), so a sampler can reject a rate the device cannot keep up with.
   */
  default long minReadNanos() {
    return 0;
  }

  /** Releases the I/O handles; idempotent. */
  @Override
  void close();
}
