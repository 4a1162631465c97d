package io.hdfl.sensors.energy;

import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * The estimate used when nothing is measurable: over the time since the meter was created,
 * <pre>  joules = process CPU seconds × profile.activeWatts + profile.idleWatts × wall seconds</pre>
 * e.g. 2 CPU-seconds at 4 W per busy core during 10 s of wall time at 2 W idle is 2·4 + 2·10 = 28 J.
 *
 * <p>It charges the whole device idle power to this process and prices CPU time only (no memory,
 * GPU, storage or frequency scaling), so it is a rough scale. Figures are ESTIMATED, source
 * {@code cpu-model:<profile>}.
 */
public final class CpuTimeModelMeter implements EnergyMeter {

  private final DeviceProfile profile;
  private final LongSupplier cpuNanos;
  private final LongSupplier wallNanos;
  private final long cpu0;
  private final long wall0;
  private final Provenance provenance;

  /**
   * @param profile the device's figures
   * @param cpuNanos process CPU time in nanoseconds, e.g. {@link ProcessCpuClock#system()}
   * @param wallNanos a monotonic wall clock in nanoseconds, e.g. {@code System::nanoTime}
   * @param cpuSource what {@code cpuNanos} measures (for the provenance detail)
   */
  public CpuTimeModelMeter(DeviceProfile profile, LongSupplier cpuNanos, LongSupplier wallNanos, String cpuSource) {
    this.profile = Objects.requireNonNull(profile, "profile");
    this.cpuNanos = Objects.requireNonNull(cpuNanos, "cpuNanos");
    this.wallNanos = Objects.requireNonNull(wallNanos, "wallNanos");
    this.cpu0 = cpuNanos.getAsLong();
    this.wall0 = wallNanos.getAsLong();
    this.provenance = Provenance.estimated("cpu-model:" + profile.name(),
        "process CPU s (" + cpuSource + ") x " + profile.activeWatts() + " W + " + profile.idleWatts() + " W idle x wall s");
  }

  /** The model for this JVM: {@link ProcessCpuClock#system()} and {@link System#nanoTime()}. */
  public static CpuTimeModelMeter forThisProcess(DeviceProfile profile) {
    ProcessCpuClock clock = ProcessCpuClock.system();
    return new CpuTimeModelMeter(profile, clock, System::nanoTime, clock.source());
  }

  public DeviceProfile profile() {
    return profile;
  }

  @Override
  public String name() {
    return provenance.source();
  }

  @Override
  public Provenance provenance() {
    return provenance;
  }

  @Override
  public EnergyReading read() {
    long wall = wallNanos.getAsLong();
    double cpuSeconds = (cpuNanos.getAsLong() - cpu0) / 1e9;
    double wallSeconds = (wall - wall0) / 1e9;
    return new EnergyReading(profile.modelJoules(cpuSeconds, wallSeconds), wall, provenance);
  }
}
