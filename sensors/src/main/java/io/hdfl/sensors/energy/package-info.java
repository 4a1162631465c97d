/**
 * Energy per federated round (DESIGN §6): {@link io.hdfl.sensors.energy.EnergyMeter} and its
 * implementations, each reporting cumulative joules labelled MEASURED (naming the meter) or
 * ESTIMATED (naming the model and device profile).
 *
 * <ul>
 *   <li>{@link io.hdfl.sensors.energy.RaplMeter}: Linux powercap / RAPL package domains
 *       ({@code /sys/class/powercap/*}{@code /energy_uj}), wrap-around corrected;
 *   <li>{@link io.hdfl.sensors.energy.HwmonEnergyMeter}: hwmon {@code energy*_input} counters;
 *   <li>{@link io.hdfl.sensors.energy.Ina3221Meter}: Jetson INA3221 rails through hwmon, V·I
 *       integrated over time;
 *   <li>{@link io.hdfl.sensors.energy.HwmonPowerMeter}: hwmon {@code power*_input}, integrated
 *       over time;
 *   <li>{@link io.hdfl.sensors.energy.Ina219Meter}: an INA219 on an I2C bus through Pi4J,
 *       register level, integrated over time (only when configured explicitly);
 *   <li>{@link io.hdfl.sensors.energy.CpuTimeModelMeter}: the estimate used when nothing is
 *       measurable, process CPU seconds × active watts + idle watts × wall seconds, from a
 *       {@link io.hdfl.sensors.energy.DeviceProfile}.
 * </ul>
 *
 * <p>{@link io.hdfl.sensors.energy.EnergyMeters#detect} picks the best available meter in that
 * order (INA219 excepted) and says why in one line. A round's energy is
 * {@link io.hdfl.sensors.energy.RoundEnergy#between} two readings; radio energy is always an
 * estimate, {@link io.hdfl.sensors.energy.RadioEstimate}. Power meters integrate with the
 * trapezoid rule between consecutive reads; {@link io.hdfl.sensors.energy.EnergyMeters#sampled}
 * adds a background sampler at a fixed interval. Every sysfs path is resolved under a
 * configurable root (default {@code /sys}) so tests run against fake trees.
 */
package io.hdfl.sensors.energy;
