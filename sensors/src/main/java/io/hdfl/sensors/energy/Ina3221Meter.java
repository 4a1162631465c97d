package io.hdfl.sensors.energy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * Jetson power rails from the INA3221 monitor through hwmon (driver {@code ina3221}): for channel
 * N = 1..3, {@code inN_input} is the bus voltage in mV, {@code currN_input} the current in mA and
 * {@code inN_label} the rail, e.g. {@code VDD_IN}, {@code VDD_CPU_GPU_CV}, {@code VDD_SOC} on an
 * Orin Nano. Power = V·I, integrated with the trapezoid rule between reads as in
 * {@link HwmonPowerMeter}; the count starts at 0 J on the first read.
 *
 * <p>Default rails: the total input rail ({@code VDD_IN}, or {@code POM_5V_IN} on the original
 * Nano) when a chip has it, since the other rails are parts of it; otherwise the sum of every
 * labelled rail (not {@code NC}) of every INA3221, which leaves out whatever those rails do not
 * cover, and the provenance says so. Or name the rails. Figures are MEASURED, source
 * {@code ina3221:<rails>}.
 */
public final class Ina3221Meter implements EnergyMeter {

  /** Labels of rails that carry the whole module's input. */
  static final Set<String> TOTAL_INPUT_RAILS = Set.of("VDD_IN", "POM_5V_IN");

  private record Rail(String label, Path volts, Path amps) {}

  private final Sysfs sysfs;
  private final LongSupplier clock;
  private final List<Rail> rails;
  private final PowerIntegrator integrator = new PowerIntegrator();
  private final String name;
  private final Provenance provenance;

  private Ina3221Meter(Sysfs sysfs, LongSupplier clock, List<Rail> rails, String coverage) {
    this.sysfs = sysfs;
    this.clock = clock;
    this.rails = rails;
    List<String> labels = new ArrayList<>();
    for (Rail r : rails) {
      labels.add(r.label());
    }
    this.name = "ina3221:" + String.join("+", labels);
    this.provenance = Provenance.measured(name, coverage + "; V·I trapezoid-integrated between reads");
  }

  /** The default rails under {@code sysfsRoot} (normally {@code /sys}). */
  public static Ina3221Meter open(Path sysfsRoot) throws MeterUnavailableException {
    return open(new Sysfs(sysfsRoot), System::nanoTime, Set.of());
  }

  /** The named rails (labels, e.g. {@code VDD_CPU_GPU_CV}), summed; empty = the default rails. */
  public static Ina3221Meter open(Path sysfsRoot, Set<String> rails) throws MeterUnavailableException {
    return open(new Sysfs(sysfsRoot), System::nanoTime, Objects.requireNonNull(rails, "rails"));
  }

  static Ina3221Meter open(Sysfs sysfs, LongSupplier clock, Set<String> wanted) throws MeterUnavailableException {
    Path dir = sysfs.classDir("hwmon");
    if (!Files.isDirectory(dir)) {
      throw new MeterUnavailableException(dir + " absent");
    }
    List<Rail> all = new ArrayList<>();
    List<String> notes = new ArrayList<>();
    try {
      for (HwmonChip chip : HwmonChip.list(sysfs)) {
        if (!chip.name().equals("ina3221")) {
          continue;
        }
        for (int n : chip.indices(sysfs, "curr", "input")) {
          Path volts = chip.attr("in" + n + "_input");
          Path amps = chip.attr("curr" + n + "_input");
          if (n > 3 || !Files.exists(volts)) {
            continue;
          }
          String label = chip.label(sysfs, "in", n);
          if (label == null) {
            label = chip.id() + "-ch" + n;
          }
          if (label.equalsIgnoreCase("NC")) {
            continue;
          }
          try {
            sysfs.readLong(volts);
            sysfs.readLong(amps);
          } catch (IOException e) {
            notes.add(label + " unreadable: " + Sysfs.describe(amps, e));
            continue;
          }
          all.add(new Rail(label, volts, amps));
        }
      }
    } catch (IOException e) {
      throw new MeterUnavailableException(Sysfs.describe(dir, e), e);
    }
    String unreadable = notes.isEmpty() ? "" : " (" + String.join("; ", notes) + ")";
    if (all.isEmpty()) {
      throw new MeterUnavailableException(dir + ": no readable ina3221 rail" + unreadable);
    }
    if (!wanted.isEmpty()) {
      List<Rail> chosen = new ArrayList<>();
      Set<String> missing = new LinkedHashSet<>(wanted);
      for (Rail r : all) {
        if (wanted.contains(r.label()) && missing.remove(r.label())) {
          chosen.add(r);
        }
      }
      if (!missing.isEmpty()) {
        throw new MeterUnavailableException("ina3221: no readable rail " + String.join(", ", missing)
            + "; available: " + labels(all) + unreadable);
      }
      return new Ina3221Meter(sysfs, clock, chosen, "INA3221 rails " + labels(chosen) + " as configured");
    }
    for (Rail r : all) {
      if (TOTAL_INPUT_RAILS.contains(r.label().toUpperCase(Locale.ROOT))) {
        return new Ina3221Meter(sysfs, clock, List.of(r), "INA3221 total input rail " + r.label());
      }
    }
    return new Ina3221Meter(sysfs, clock, all, "sum of INA3221 rails " + labels(all)
        + "; no total input rail, so parts the rails do not cover are missing");
  }

  private static String labels(List<Rail> rails) {
    List<String> out = new ArrayList<>();
    for (Rail r : rails) {
      out.add(r.label());
    }
    return String.join(", ", out);
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
    for (Rail r : rails) {
      Path current = r.volts();
      try {
        long millivolts = sysfs.readLong(r.volts());
        current = r.amps();
        long milliamps = sysfs.readLong(r.amps());
        watts += millivolts * (double) milliamps / 1e6;
      } catch (IOException e) {
        throw new EnergyMeterException(name + ": " + Sysfs.describe(current, e), e);
      }
    }
    long now = clock.getAsLong();
    return new EnergyReading(integrator.add(watts, now), now, provenance);
  }
}
