package io.hdfl.sensors.energy;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Chooses which hwmon channels of one type ({@code energy}, {@code power}) a meter sums, without
 * counting one quantity twice.
 *
 * <p>Automatic choice: the first chip (natural order) with a usable channel, skipping GPU drivers
 * (amdgpu, radeon, nouveau, i915, xe), which measure the graphics card only. Within the chip, the channels whose label names a
 * total ({@code socket}, {@code package}, {@code total}, {@code psys}, {@code system}, e.g.
 * amd_energy's {@code Esocket0}) if any, else its only channel; a chip with several unlabelled
 * channels is skipped (they may overlap) and the reason says so. Explicit choice: a chip (driver
 * name or hwmonN) and its channels by label or {@code <type>N}.
 */
final class HwmonChannels {

  static final Pattern TOTAL_LABEL = Pattern.compile("(?i).*(socket|package|total|psys|system).*");

  /** GPU drivers: their power/energy is the graphics card's only. */
  static final Set<String> GPU_DRIVERS = Set.of("amdgpu", "radeon", "nouveau", "i915", "xe");

  private HwmonChannels() {}

  /**
   * @param suffixes attribute suffixes in order of preference, e.g. {@code input}, {@code average}
   * @param chipFilter null for the automatic choice, else a driver name or hwmonN id
   * @param wanted with a chip filter: labels or {@code <type>N} to use; empty = the automatic rule
   */
  static List<HwmonChip.Channel> select(Sysfs sysfs, String type, List<String> suffixes, String chipFilter,
      List<String> wanted) throws MeterUnavailableException {
    Path dir = sysfs.classDir("hwmon");
    if (!Files.isDirectory(dir)) {
      throw new MeterUnavailableException(dir + " absent");
    }
    List<HwmonChip> chips;
    try {
      chips = HwmonChip.list(sysfs);
    } catch (IOException e) {
      throw new MeterUnavailableException(Sysfs.describe(dir, e), e);
    }
    List<String> notes = new ArrayList<>();
    for (HwmonChip chip : chips) {
      if (chipFilter != null && !chipFilter.equals(chip.name()) && !chipFilter.equals(chip.id())) {
        continue;
      }
      List<HwmonChip.Channel> all;
      try {
        all = channels(sysfs, chip, type, suffixes);
      } catch (IOException e) {
        notes.add(chip.describe() + ": " + e.getMessage());
        continue;
      }
      if (all.isEmpty()) {
        continue;
      }
      if (chipFilter == null && GPU_DRIVERS.contains(chip.name())) {
        notes.add(chip.describe() + " skipped: a GPU driver, it measures the graphics card only");
        continue;
      }
      List<HwmonChip.Channel> chosen = new ArrayList<>();
      if (chipFilter != null && !wanted.isEmpty()) {
        for (String w : wanted) {
          HwmonChip.Channel match = null;
          for (HwmonChip.Channel c : all) {
            if (w.equals(c.label()) || w.equals(type + c.index())) {
              match = c;
            }
          }
          if (match == null) {
            throw new MeterUnavailableException(chip.describe() + ": no " + type + " channel '" + w + "'; it has "
                + names(all));
          }
          chosen.add(match);
        }
      } else {
        for (HwmonChip.Channel c : all) {
          if (c.label() != null && TOTAL_LABEL.matcher(c.label()).matches()) {
            chosen.add(c);
          }
        }
        if (chosen.isEmpty() && all.size() == 1) {
          chosen.add(all.get(0));
        }
        if (chosen.isEmpty()) {
          notes.add(chip.describe() + " skipped: " + all.size() + " " + type + " channels (" + names(all)
              + "), none labelled as a total");
          continue;
        }
      }
      for (HwmonChip.Channel c : chosen) {
        try {
          sysfs.readLong(c.file());
        } catch (AccessDeniedException e) {
          throw new MeterUnavailableException(c.file() + ": permission denied (run as root or grant read access)", e);
        } catch (IOException e) {
          throw new MeterUnavailableException(Sysfs.describe(c.file(), e), e);
        }
      }
      return List.copyOf(chosen);
    }
    String what = chipFilter == null ? "no usable " + type + " sensor" : "no chip '" + chipFilter + "' with " + type + " sensors";
    throw new MeterUnavailableException(dir + ": " + what + (notes.isEmpty() ? "" : " (" + String.join("; ", notes) + ")"));
  }

  private static List<HwmonChip.Channel> channels(Sysfs sysfs, HwmonChip chip, String type, List<String> suffixes)
      throws IOException {
    List<HwmonChip.Channel> out = new ArrayList<>();
    TreeSet<Integer> indices = new TreeSet<>();
    for (String suffix : suffixes) {
      indices.addAll(chip.indices(sysfs, type, suffix));
    }
    for (int i : indices) {
      for (String suffix : suffixes) {
        Path f = chip.attr(type + i + "_" + suffix);
        if (Files.exists(f)) {
          out.add(new HwmonChip.Channel(chip, type, i, chip.label(sysfs, type, i), f));
          break;
        }
      }
    }
    return out;
  }

  static String names(List<HwmonChip.Channel> channels) {
    List<String> out = new ArrayList<>();
    for (HwmonChip.Channel c : channels) {
      out.add(c.label() != null ? c.label() : c.type() + c.index());
    }
    return String.join(", ", out);
  }

  /** {@code hwmon:amd_energy/Esocket0} or {@code hwmon:ina226/power1}. */
  static String meterName(List<HwmonChip.Channel> channels) {
    StringBuilder sb = new StringBuilder("hwmon:").append(channels.get(0).chip().name()).append('/');
    List<String> parts = new ArrayList<>();
    for (HwmonChip.Channel c : channels) {
      parts.add(c.label() != null ? c.label().replace(' ', '_') : c.type() + c.index());
    }
    return sb.append(String.join("+", parts)).toString();
  }
}
