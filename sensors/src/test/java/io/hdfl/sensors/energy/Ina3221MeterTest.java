package io.hdfl.sensors.energy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class Ina3221MeterTest {

  @TempDir Path dir;
  FakeSysfs fs;

  @BeforeEach
  void setUp() {
    fs = new FakeSysfs(dir);
  }

  /** An Orin Nano's monitor: VDD_IN, VDD_CPU_GPU_CV, VDD_SOC. */
  private void orinNano(long inMv, long inMa, long cpuMv, long cpuMa, long socMv, long socMa) {
    fs.hwmonChip("hwmon1", "ina3221");
    rail(1, "VDD_IN", inMv, inMa);
    rail(2, "VDD_CPU_GPU_CV", cpuMv, cpuMa);
    rail(3, "VDD_SOC", socMv, socMa);
  }

  private void rail(int n, String label, long mv, long ma) {
    fs.hwmon("hwmon1", "in" + n + "_label", label);
    fs.hwmon("hwmon1", "in" + n + "_input", mv);
    fs.hwmon("hwmon1", "curr" + n + "_input", ma);
  }

  @Test
  void defaultsToTheTotalInputRailAndIntegratesVTimesI() throws Exception {
    fs.hwmonChip("hwmon0", "thermal");
    orinNano(5000, 1000, 5000, 300, 5000, 200);
    Ina3221Meter m = Ina3221Meter.open(fs.sysfs(), fs.clock, Set.of());
    assertEquals("ina3221:VDD_IN", m.name());
    assertTrue(m.provenance().detail().contains("total input rail VDD_IN"), m.provenance().detail());
    EnergyReading r0 = m.read(); // 5 V × 1 A = 5 W
    fs.clock.advanceSeconds(2);
    rail(1, "VDD_IN", 5000, 1400); // 7 W
    EnergyReading r1 = m.read();
    assertEquals((5.0 + 7.0) / 2 * 2, RoundEnergy.between(r0, r1).joules(), 1e-12);
    fs.clock.advanceSeconds(1);
    rail(1, "VDD_IN", 4900, 1500); // 7.35 W
    assertEquals(12.0 + (7.0 + 7.35) / 2, m.read().joules(), 1e-12);
  }

  @Test
  void namedRailsAreSummed() throws Exception {
    orinNano(5000, 1000, 4000, 500, 3000, 1000);
    Ina3221Meter m = Ina3221Meter.open(fs.sysfs(), fs.clock, Set.of("VDD_CPU_GPU_CV", "VDD_SOC"));
    assertEquals("ina3221:VDD_CPU_GPU_CV+VDD_SOC", m.name());
    m.read(); // 2 W + 3 W
    fs.clock.advanceSeconds(4);
    assertEquals(20.0, m.read().joules(), 1e-12);
  }

  @Test
  void withoutATotalRailTheLabelledRailsAreSummedAndSaidSo() throws Exception {
    fs.hwmonChip("hwmon1", "ina3221");
    rail(1, "GPU", 1000, 1000);
    rail(2, "NC", 1000, 1000);
    rail(3, "CPU", 2000, 1000);
    Ina3221Meter m = Ina3221Meter.open(fs.sysfs(), fs.clock, Set.of());
    assertEquals("ina3221:GPU+CPU", m.name());
    assertTrue(m.provenance().detail().contains("no total input rail"), m.provenance().detail());
    m.read();
    fs.clock.advanceSeconds(1);
    assertEquals(3.0, m.read().joules(), 1e-12);
  }

  @Test
  void unknownRailOrNoChipIsUnavailableWithTheReason() throws Exception {
    MeterUnavailableException absent = assertThrows(MeterUnavailableException.class,
        () -> Ina3221Meter.open(fs.sysfs(), fs.clock, Set.of()));
    assertTrue(absent.reason().endsWith("class/hwmon absent"), absent.reason());
    fs.hwmonChip("hwmon0", "coretemp");
    MeterUnavailableException none = assertThrows(MeterUnavailableException.class,
        () -> Ina3221Meter.open(fs.sysfs(), fs.clock, Set.of()));
    assertTrue(none.reason().endsWith("no readable ina3221 rail"), none.reason());
    orinNano(5000, 1000, 5000, 300, 5000, 200);
    MeterUnavailableException unknown = assertThrows(MeterUnavailableException.class,
        () -> Ina3221Meter.open(dir, Set.of("VDD_GPU")));
    assertEquals("ina3221: no readable rail VDD_GPU; available: VDD_IN, VDD_CPU_GPU_CV, VDD_SOC", unknown.reason());
  }

  @Test
  void anUnreadableRailIsLeftOutAndNamed() throws Exception {
    orinNano(5000, 1000, 5000, 300, 5000, 200);
    fs.deny(dir.resolve("class/hwmon/hwmon1/curr1_input"));
    Ina3221Meter m = Ina3221Meter.open(fs.sysfs(), fs.clock, Set.of());
    assertEquals("ina3221:VDD_CPU_GPU_CV+VDD_SOC", m.name());
    MeterUnavailableException e = assertThrows(MeterUnavailableException.class,
        () -> Ina3221Meter.open(fs.sysfs(), fs.clock, Set.of("VDD_IN")));
    assertTrue(e.reason().contains("VDD_IN unreadable: ") && e.reason().contains("curr1_input: permission denied"), e.reason());
  }
}
