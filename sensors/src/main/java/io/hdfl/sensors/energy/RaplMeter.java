package io.hdfl.sensors.energy;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.LongSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * CPU package energy from Linux powercap / RAPL: {@code <sysfs>/class/powercap/<zone>/energy_uj}.
 *
 * <p>Domains: the top-level zones ({@code intel-rapl:0}, {@code intel-rapl:1}, …; AMD CPUs use the
 * same driver) whose {@code name} is {@code package-N}, summed over sockets. Subzones
 * ({@code intel-rapl:0:0} core, {@code :0:1} uncore, dram) lie inside their package and are not
 * added again; a package that also appears through {@code intel-rapl-mmio} is counted once. Only
 * when there is no package zone is a top-level {@code psys} (platform) zone used.
 *
 * <p>Each counter wraps at {@code max_energy_range_uj}: a reading below the previous one adds
 * {@code max − previous + current}. One wrap between two reads is detected, so read at least once
 * per wrap period (about 2.6·10⁵ J, 45 min at 100 W), e.g. with {@link EnergyMeters#sampled}.
 *
 * <p>Since Linux 5.10 {@code energy_uj} is readable only by root (CVE-2020-8694, PLATYPUS); then
 * the meter is unavailable and says so. Figures are MEASURED, counting from {@link #open}; they
 * cover the CPU packages of the whole machine (all processes), not DRAM, disks or the board.
 */
public final class RaplMeter implements EnergyMeter {

  private static final Pattern TOP_LEVEL_ZONE = Pattern.compile("([a-z0-9-]+):(\\d+)");

  private static final class Domain {
    final String zone;
    final String name;
    final Path energyFile;
    final long maxRangeUj;
    long last;

    Domain(String zone, String name, Path energyFile, long maxRangeUj, long last) {
      this.zone = zone;
      this.name = name;
      this.energyFile = energyFile;
      this.maxRangeUj = maxRangeUj;
      this.last = last;
    }
  }

  private final Sysfs sysfs;
  private final LongSupplier clock;
  private final List<Domain> domains;
  private final String name;
  private final Provenance provenance;
  private long totalUj;

  private RaplMeter(Sysfs sysfs, LongSupplier clock, List<Domain> domains) {
    this.sysfs = sysfs;
    this.clock = clock;
    this.domains = domains;
    List<String> names = new ArrayList<>();
    List<String> zones = new ArrayList<>();
    for (Domain d : domains) {
      names.add(d.name);
      zones.add(d.zone);
    }
    this.name = "rapl:" + String.join("+", names);
    this.provenance = Provenance.measured(name, "RAPL " + String.join(", ", zones)
        + ": CPU package energy of the whole machine");
  }

  /** Opens the RAPL package domains under {@code sysfsRoot} (normally {@code /sys}). */
  public static RaplMeter open(Path sysfsRoot) throws MeterUnavailableException {
    return open(new Sysfs(sysfsRoot), System::nanoTime);
  }

  static RaplMeter open(Sysfs sysfs, LongSupplier clock) throws MeterUnavailableException {
    Objects.requireNonNull(clock, "clock");
    Path dir = sysfs.classDir("powercap");
    if (!Files.isDirectory(dir)) {
      throw new MeterUnavailableException(dir + " absent (no powercap driver: VM, container or unsupported CPU)");
    }
    List<Path> entries;
    try {
      entries = sysfs.list(dir);
    } catch (IOException e) {
      throw new MeterUnavailableException(Sysfs.describe(dir, e), e);
    }
    Map<String, Path> packages = new LinkedHashMap<>();
    Path psys = null;
    List<String> seen = new ArrayList<>();
    for (Path zone : entries) {
      String zoneId = zone.getFileName().toString();
      Matcher m = TOP_LEVEL_ZONE.matcher(zoneId);
      if (!m.matches()) {
        continue;
      }
      String domainName;
      try {
        domainName = sysfs.readString(zone.resolve("name"));
      } catch (IOException e) {
        seen.add(zoneId + " (no name)");
        continue;
      }
      seen.add(zoneId + "=" + domainName);
      if (domainName.startsWith("package-")) {
        Path previous = packages.get(domainName);
        if (previous == null || isMmio(previous) && !isMmio(zone)) {
          packages.put(domainName, zone);
        }
      } else if (domainName.equals("psys") && psys == null) {
        psys = zone;
      }
    }
    Map<String, Path> chosen = new LinkedHashMap<>(packages);
    if (chosen.isEmpty() && psys != null) {
      chosen.put("psys", psys);
    }
    if (chosen.isEmpty()) {
      throw new MeterUnavailableException(dir + ": no top-level RAPL package zone"
          + (seen.isEmpty() ? " (no zones)" : " among " + String.join(", ", seen)));
    }
    List<Domain> domains = new ArrayList<>();
    for (Map.Entry<String, Path> e0 : chosen.entrySet()) {
      Path zone = e0.getValue();
      String zoneId = zone.getFileName().toString();
      Path energy = zone.resolve("energy_uj");
      Path range = zone.resolve("max_energy_range_uj");
      long maxRange;
      try {
        maxRange = sysfs.readLong(range);
      } catch (IOException e) {
        throw new MeterUnavailableException(Sysfs.describe(range, e) + " (needed to correct wrap-around)", e);
      }
      if (maxRange <= 0) {
        throw new MeterUnavailableException(range + ": not a positive range: " + maxRange);
      }
      long first;
      try {
        first = sysfs.readLong(energy);
      } catch (AccessDeniedException e) {
        throw new MeterUnavailableException(energy + " is readable only by root (Linux ≥ 5.10, CVE-2020-8694);"
            + " run as root or grant read access (e.g. a udev rule or tmpfiles.d chmod)", e);
      } catch (IOException e) {
        throw new MeterUnavailableException(Sysfs.describe(energy, e), e);
      }
      domains.add(new Domain(zoneId, e0.getKey(), energy, maxRange, first));
    }
    return new RaplMeter(sysfs, clock, List.copyOf(domains));
  }

  private static boolean isMmio(Path zone) {
    return zone.getFileName().toString().contains("-mmio:");
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
    for (Domain d : domains) {
      long raw;
      try {
        raw = sysfs.readLong(d.energyFile);
      } catch (IOException e) {
        throw new EnergyMeterException(name + ": " + Sysfs.describe(d.energyFile, e), e);
      }
      long delta = raw >= d.last ? raw - d.last : d.maxRangeUj - d.last + raw;
      totalUj += delta;
      d.last = raw;
    }
    return new EnergyReading(totalUj / 1e6, clock.getAsLong(), provenance);
  }
}
