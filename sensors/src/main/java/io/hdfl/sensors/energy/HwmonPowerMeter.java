package io.hdfl.sensors.energy;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * Power sensors of a hwmon driver integrated over time: {@code <sysfs>/class/hwmon/hwmonN/powerM_input}
 * in microwatts ({@code powerM_average} when a channel has no {@code _input}), e.g. the kernel's
 * {@code ina2xx} driver for an INA219/INA226 or the ACPI {@code power_meter}. Channels are chosen
 * as described in {@link HwmonChannels}.
 *
 * <p>Integration: the trapezoid rule between consecutive {@link #read()} calls, so a round read
 * only at its start and end is priced at the mean of the two instantaneous powers. For bursty
 * loads wrap the meter in {@link EnergyMeters#sampled} to sample at a fixed interval as well. The
 * count starts at 0 J on the first read. Figures are MEASURED, source {@code hwmon:<driver>/<channels>}.
 */
public final class HwmonPowerMeter implements EnergyMeter {

  private final Sysfs sysfs;
  private final LongSupplier clock;
  private final List<HwmonChip.Channel> channels;
  private final PowerIntegrator integrator = new PowerIntegrator();
  private final String name;
  private final Provenance provenance;

  private HwmonPowerMeter(Sysfs sysfs, LongSupplier clock, List<HwmonChip.Channel> channels) {
    this.sysfs = sysfs;
    this.clock = clock;
    this.channels = channels;
    this.name = HwmonChannels.meterName(channels);
    List<String> files = new ArrayList<>();
    for (HwmonChip.Channel c : channels) {
      files.add(c.chip().id() + "/" + c.file().getFileName());
    }
    this.provenance = Provenance.measured(name, "hwmon power " + String.join(", ", files)
        + ", trapezoid-integrated between reads");
  }

  /** The automatically chosen hwmon power channels under {@code sysfsRoot} (normally {@code /sys}). */
  public static HwmonPowerMeter open(Path sysfsRoot) throws MeterUnavailableException {
    return open(new Sysfs(sysfsRoot), System::nanoTime, null, List.of());
  }

  /**
   * Chosen channels of one chip.
   *
   * @param chip driver name ({@code ina226}) or hwmon id ({@code hwmon3})
   * @param channels labels or {@code powerN}; none = the automatic rule
   */
  public static HwmonPowerMeter open(Path sysfsRoot, String chip, String... channels) throws MeterUnavailableException {
    return open(new Sysfs(sysfsRoot), System::nanoTime, Objects.requireNonNull(chip, "chip"), List.of(channels));
  }

  static HwmonPowerMeter open(Sysfs sysfs, LongSupplier clock, String chip, List<String> wanted)
      throws MeterUnavailableException {
    return new HwmonPowerMeter(sysfs, clock, HwmonChannels.select(sysfs, "power", List.of("input", "average"), chip, wanted));
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public Provenance provenance() {
    return provenance;
  }

  @Override
  public synchronized EnergyReading read() {
    double watts = 0;
    for (HwmonChip.Channel c : channels) {
      try {
        watts += sysfs.readLong(c.file()) / 1e6;
      } catch (IOException e) {
        throw new EnergyMeterException(name + ": " + Sysfs.describe(c.file(), e), e);
      }
    }
    long now = clock.getAsLong();
    return new EnergyReading(integrator.add(watts, now), now, provenance);
  }
}
