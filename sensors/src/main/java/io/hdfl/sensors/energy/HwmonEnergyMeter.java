package io.hdfl.sensors.energy;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * Energy counters of a hwmon driver: {@code <sysfs>/class/hwmon/hwmonN/energyM_input}, cumulative
 * microjoules (e.g. {@code amd_energy}'s {@code Esocket0}). Which channels are summed is decided as
 * described in {@link HwmonChannels}: a channel labelled as a total, or a chip's only channel.
 *
 * <p>Counting starts at {@link #open}. A counter that goes backwards is taken as a reset (driver
 * reload): nothing is added for that interval and counting continues from the new value; this is
 * logged once. Figures are MEASURED, source {@code hwmon:<driver>/<channels>}.
 */
public final class HwmonEnergyMeter implements EnergyMeter {

  private static final System.Logger LOG = System.getLogger("io.hdfl.sensors.energy");

  private final Sysfs sysfs;
  private final LongSupplier clock;
  private final List<HwmonChip.Channel> channels;
  private final long[] last;
  private final String name;
  private final Provenance provenance;
  private long totalUj;
  private boolean resetLogged;

  private HwmonEnergyMeter(Sysfs sysfs, LongSupplier clock, List<HwmonChip.Channel> channels) throws MeterUnavailableException {
    this.sysfs = sysfs;
    this.clock = clock;
    this.channels = channels;
    this.last = new long[channels.size()];
    for (int i = 0; i < last.length; i++) {
      try {
        last[i] = sysfs.readLong(channels.get(i).file());
      } catch (IOException e) {
        throw new MeterUnavailableException(Sysfs.describe(channels.get(i).file(), e), e);
      }
    }
    this.name = HwmonChannels.meterName(channels);
    List<String> files = new ArrayList<>();
    for (HwmonChip.Channel c : channels) {
      files.add(c.chip().id() + "/" + c.file().getFileName());
    }
    this.provenance = Provenance.measured(name, "hwmon energy counter " + String.join(", ", files));
  }

  /** The automatically chosen hwmon energy channels under {@code sysfsRoot} (normally {@code /sys}). */
  public static HwmonEnergyMeter open(Path sysfsRoot) throws MeterUnavailableException {
    return open(new Sysfs(sysfsRoot), System::nanoTime, null, List.of());
  }

  /**
   * Chosen channels of one chip.
   *
   * @param chip driver name ({@code amd_energy}) or hwmon id ({@code hwmon3})
   * @param channels labels ({@code Esocket0}) or {@code energyN}; none = the automatic rule
   */
  public static HwmonEnergyMeter open(Path sysfsRoot, String chip, String... channels) throws MeterUnavailableException {
    return open(new Sysfs(sysfsRoot), System::nanoTime, Objects.requireNonNull(chip, "chip"), List.of(channels));
  }

  static HwmonEnergyMeter open(Sysfs sysfs, LongSupplier clock, String chip, List<String> wanted)
      throws MeterUnavailableException {
    return new HwmonEnergyMeter(sysfs, clock, HwmonChannels.select(sysfs, "energy", List.of("input"), chip, wanted));
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
    for (int i = 0; i < last.length; i++) {
      Path f = channels.get(i).file();
      long raw;
      try {
        raw = sysfs.readLong(f);
      } catch (IOException e) {
        throw new EnergyMeterException(name + ": " + Sysfs.describe(f, e), e);
      }
      if (raw >= last[i]) {
        totalUj += raw - last[i];
      } else if (!resetLogged) {
        resetLogged = true;
        LOG.log(System.Logger.Level.WARNING, "hdfl energy: " + f + " went back from " + last[i] + " to " + raw
            + " µJ; taken as a counter reset, nothing added for that interval (logged once)");
      }
      last[i] = raw;
    }
    return new EnergyReading(totalUj / 1e6, clock.getAsLong(), provenance);
  }
}
