package io.hdfl.sensors.energy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One hwmon device, {@code <sysfs>/class/hwmon/hwmonN}: its driver name and numbered attributes
 * ({@code energy1_input}, {@code in2_label}, …). Attributes live in the hwmonN directory, or in
 * its {@code device/} directory on old drivers.
 */
final class HwmonChip {

  /** One numbered sensor channel of a chip, with the file that is read. */
  record Channel(HwmonChip chip, String type, int index, String label, Path file) {
    /** {@code coretemp/energy1} or {@code ina226/VBUS} (label when there is one). */
    String displayName() {
      return chip.name() + "/" + (label != null ? label : type + index);
    }
  }

  private final String id;
  private final Path attrDir;
  private final String name;

  private HwmonChip(String id, Path attrDir, String name) {
    this.id = id;
    this.attrDir = attrDir;
    this.name = name;
  }

  /** The chips under {@code <root>/class/hwmon} in natural order (hwmon2 before hwmon10). */
  static List<HwmonChip> list(Sysfs sysfs) throws IOException {
    List<HwmonChip> chips = new ArrayList<>();
    for (Path dir : sysfs.list(sysfs.classDir("hwmon"))) {
      Path attrs = dir;
      if (!Files.exists(dir.resolve("name")) && Files.exists(dir.resolve("device").resolve("name"))) {
        attrs = dir.resolve("device");
      }
      String name;
      try {
        name = sysfs.readString(attrs.resolve("name"));
      } catch (IOException e) {
        name = "";
      }
      chips.add(new HwmonChip(dir.getFileName().toString(), attrs, name.isEmpty() ? dir.getFileName().toString() : name));
    }
    return chips;
  }

  /** {@code hwmon3}. */
  String id() {
    return id;
  }

  /** The driver name from the {@code name} attribute, e.g. {@code ina3221}, {@code amd_energy}. */
  String name() {
    return name;
  }

  /** {@code hwmon3 (amd_energy)}. */
  String describe() {
    return id + " (" + name + ")";
  }

  Path attr(String file) {
    return attrDir.resolve(file);
  }

  /** Indices N for which {@code <type>N_<suffix>} exists, ascending. */
  List<Integer> indices(Sysfs sysfs, String type, String suffix) throws IOException {
    Pattern p = Pattern.compile(Pattern.quote(type) + "(\\d+)_" + Pattern.quote(suffix));
    TreeSet<Integer> out = new TreeSet<>();
    for (Path f : sysfs.list(attrDir)) {
      Matcher m = p.matcher(f.getFileName().toString());
      if (m.matches()) {
        out.add(Integer.parseInt(m.group(1)));
      }
    }
    return new ArrayList<>(out);
  }

  /** The trimmed {@code <type>N_label}, or null when there is none. */
  String label(Sysfs sysfs, String type, int index) {
    Path f = attr(type + index + "_label");
    if (!Files.exists(f)) {
      return null;
    }
    try {
      String s = sysfs.readString(f);
      return s.isEmpty() ? null : s;
    } catch (IOException e) {
      return null;
    }
  }
}
