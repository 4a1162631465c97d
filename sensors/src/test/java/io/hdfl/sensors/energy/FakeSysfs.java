package io.hdfl.sensors.energy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.function.LongSupplier;

/** A fake sysfs tree in a temporary directory, with a reader that can deny chosen files and a settable clock. */
final class FakeSysfs {

  final Path root;
  private final Set<Path> denied = new HashSet<>();
  final Clock clock = new Clock();

  /** A settable nanosecond clock. */
  static final class Clock implements LongSupplier {
    long nanos;

    void advanceSeconds(double s) {
      nanos += Math.round(s * 1e9);
    }

    @Override
    public long getAsLong() {
      return nanos;
    }
  }

  FakeSysfs(Path root) {
    this.root = root;
  }

  /** The Sysfs view, reading through a reader that throws AccessDeniedException for denied files (as for non-root). */
  Sysfs sysfs() {
    return new Sysfs(root, file -> {
      if (denied.contains(file)) {
        throw new AccessDeniedException(file.toString());
      }
      return Sysfs.FILES.read(file);
    });
  }

  void deny(Path file) {
    denied.add(file);
  }

  Path write(String relative, Object value) {
    Path p = root.resolve(relative);
    try {
      Files.createDirectories(p.getParent());
      Files.writeString(p, value + "\n", StandardCharsets.US_ASCII);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return p;
  }

  /** A powercap zone: class/powercap/ZONE/{name,energy_uj,max_energy_range_uj}. */
  Path raplZone(String zone, String name, long energyUj, long maxRangeUj) {
    write("class/powercap/" + zone + "/name", name);
    write("class/powercap/" + zone + "/max_energy_range_uj", maxRangeUj);
    return write("class/powercap/" + zone + "/energy_uj", energyUj);
  }

  Path raplEnergy(String zone, long energyUj) {
    return write("class/powercap/" + zone + "/energy_uj", energyUj);
  }

  /** class/hwmon/ID/name. */
  void hwmonChip(String id, String name) {
    write("class/hwmon/" + id + "/name", name);
  }

  Path hwmon(String id, String attribute, Object value) {
    return write("class/hwmon/" + id + "/" + attribute, value);
  }
}
