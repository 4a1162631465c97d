package io.hdfl.sensors.energy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;
import java.util.function.LongSupplier;

/**
 * Chooses the energy meter for this device.
 *
 * <p>{@link #detect} tries, in order, and takes the first that opens:
 * <ol>
 *   <li>RAPL package domains ({@link RaplMeter}) — a hardware counter, no integration error;
 *   <li>hwmon energy counters ({@link HwmonEnergyMeter});
 *   <li>INA3221 rails ({@link Ina3221Meter}) — the Jetson's board-level input rail;
 *   <li>hwmon power sensors ({@link HwmonPowerMeter}) — integrated from instantaneous power;
 *   <li>the CPU-time model ({@link CpuTimeModelMeter}) for the given profile — always available,
 *       ESTIMATED.
 * </ol>
 * Counters come before integrated power because they miss nothing between reads. An INA219 is
 * never probed (an I2C write to an unknown device is not harmless); open it with
 * {@link Ina219Meter#open}. The result carries one line saying which meter was chosen and why the
 * ones before it were not, for the caller to say where it says things.
 */
public final class EnergyMeters {
  /** The default sysfs root. */
  public static final Path SYSFS = Path.of("/sys");

  private EnergyMeters() {}

  /** {@link #detect(Path, DeviceProfile)} on {@code /sys}. */
  public static DetectedMeter detect(DeviceProfile profile) {
    return detect(SYSFS, profile);
  }

  /** How often {@link #forRuns} reads a measuring meter in the background. */
  public static final Duration RUN_SAMPLING = Duration.ofMillis(200);

  /**
   * {@link #detect(DeviceProfile)} for a run that reports energy per round: a measuring meter is also
   * read in the background every {@link #RUN_SAMPLING} ({@link #sampledIfMeasured}).
   */
  public static DetectedMeter forRuns(DeviceProfile profile) {
    return sampledIfMeasured(detect(profile), RUN_SAMPLING);
  }

  /**
   * An INA219 a device's config names, for a run: opened in a Pi4J context of its own ({@link
   * Ina219Meter#openInOwnContext}), read once at once — a chip that is absent or wired otherwise is
   * told now, not mid-run — and then read in the background every {@link #RUN_SAMPLING}.
   *
   * @throws MeterUnavailableException if it cannot be opened or its first reading fails (the reason)
   */
  public static DetectedMeter ina219ForRuns(Ina219Config config) throws MeterUnavailableException {
    Ina219Meter m = Ina219Meter.openInOwnContext(config);
    try {
      m.read();
    } catch (RuntimeException e) {
      m.close();
      throw new MeterUnavailableException("the first reading failed: " + e.getMessage(), e);
    }
    return sampledIfMeasured(new DetectedMeter(m, "energy: " + m.provenance().label()), RUN_SAMPLING);
  }

  /**
   * {@code detected} with a measuring meter read in the background every {@code interval} as well:
   * a power meter then integrates between those samples, not only between a round report's reads,
   * which come right after the peer's busy work (a Jetson busy 0.5 s of a 10 s round, read only then,
   * was reported at its busy power for the whole round: about twice its energy), and a counter
   * (RAPL) is read within every wrap period (an AMD package counter wraps after 65,536 J, some 7
   * minutes at 150 W, and a peer waiting longer lost whole wraps). The CPU-time model is left as it
   * is (it sums CPU time).
   */
  public static DetectedMeter sampledIfMeasured(DetectedMeter detected, Duration interval) {
    if (!detected.meter().provenance().isMeasured()) {
      return detected;
    }
    return new DetectedMeter(sampled(detected.meter(), interval),
        detected.reason() + ", read every " + interval.toMillis() + " ms");
  }

  /**
   * The best available meter under {@code sysfsRoot}, else the CPU-time model for {@code profile}.
   */
  public static DetectedMeter detect(Path sysfsRoot, DeviceProfile profile) {
    Objects.requireNonNull(profile, "profile");
    return detect(new Sysfs(sysfsRoot), profile, System::nanoTime, () -> CpuTimeModelMeter.forThisProcess(profile));
  }

  static DetectedMeter detect(Sysfs sysfs, DeviceProfile profile, LongSupplier clock, Supplier<CpuTimeModelMeter> model) {
    List<String> skipped = new ArrayList<>();
    EnergyMeter chosen = null;
    String why = null;
    try {
      chosen = RaplMeter.open(sysfs, clock);
      why = "RAPL package counters";
    } catch (MeterUnavailableException e) {
      skipped.add("rapl: " + e.reason());
    }
    if (chosen == null) {
      try {
        chosen = HwmonEnergyMeter.open(sysfs, clock, null, List.of());
        why = "hwmon energy counters";
      } catch (MeterUnavailableException e) {
        skipped.add("hwmon energy: " + e.reason());
      }
    }
    if (chosen == null) {
      try {
        chosen = Ina3221Meter.open(sysfs, clock, Set.of());
        why = "INA3221 rails, V·I integrated";
      } catch (MeterUnavailableException e) {
        skipped.add("ina3221: " + e.reason());
      }
    }
    if (chosen == null) {
      try {
        chosen = HwmonPowerMeter.open(sysfs, clock, null, List.of());
        why = "hwmon power, integrated";
      } catch (MeterUnavailableException e) {
        skipped.add("hwmon power: " + e.reason());
      }
    }
    if (chosen == null) {
      chosen = model.get();
      why = "no meter readable, so the CPU-time model for profile " + profile.name();
    }
    String reason = "energy: " + chosen.provenance().label() + " (" + why + ")"
        + (skipped.isEmpty() ? "" : "; not used: " + String.join("; ", skipped));
    return new DetectedMeter(chosen, reason.replace('\n', ' ')); // its caller says it where it says things
  }

  /**
   * {@code meter} read in the background every {@code interval} as well as on demand; see
   * {@link SampledEnergyMeter}.
   */
  public static SampledEnergyMeter sampled(EnergyMeter meter, Duration interval) {
    return new SampledEnergyMeter(meter, interval);
  }
}
