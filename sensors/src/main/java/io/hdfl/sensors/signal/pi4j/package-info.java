/**
 * Hardware signal sources through Pi4J (DESIGN §7): ADCs and digital inputs read at a fixed rate
 * into a {@link io.hdfl.sensors.signal.SignalSource}.
 *
 * <ul>
 *   <li>{@link io.hdfl.sensors.signal.pi4j.InputDevice}: a device read once per sample —
 *       {@link io.hdfl.sensors.signal.pi4j.Ads1115} (TI 16-bit I2C ADC, single-shot conversions at
 *       register level), {@link io.hdfl.sensors.signal.pi4j.Mcp3008} (Microchip 10-bit SPI ADC, frames
 *       in {@link io.hdfl.sensors.signal.pi4j.Mcp3008Frame}) and
 *       {@link io.hdfl.sensors.signal.pi4j.DigitalInputs} (GPIO states or edge counts);
 *   <li>{@link io.hdfl.sensors.signal.pi4j.AnalogChannel}: a named ADC channel with a linear map from
 *       volts to its unit;
 *   <li>{@link io.hdfl.sensors.signal.pi4j.PolledSignalSource}: the sampler — a fixed-rate schedule on
 *       the monotonic clock, epoch-anchored timestamps, overruns and missed ticks counted or failed
 *       ({@link io.hdfl.sensors.signal.pi4j.OverrunPolicy}), never silent drift;
 *   <li>{@link io.hdfl.sensors.signal.pi4j.LabelSwitch}: labels samples from GPIO pins that are not
 *       channels;
 *   <li>{@link io.hdfl.sensors.signal.pi4j.HardwareSignalConfig}: all of it from a device's properties
 *       file, with one-line errors naming the key.
 * </ul>
 *
 * <p>Only {@code pi4j-core} is a dependency. On a device the deployment adds the I/O plugins
 * ({@code pi4j-plugin-linuxfs} for I2C and SPI, {@code pi4j-plugin-gpiod} for GPIO); tests run on
 * {@code pi4j-plugin-mock} (test scope). Every device releases its Pi4J I/O on close; a
 * {@code PolledSignalSource} closes its devices and, if asked, shuts the Pi4J context down.
 */
package io.hdfl.sensors.signal.pi4j;
