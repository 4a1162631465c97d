package io.hdfl.sensors.energy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RaplMeterTest {

  private static final long MAX = 262_143_328_850L;

  @TempDir Path dir;
  FakeSysfs fs;

  @BeforeEach
  void setUp() {
    fs = new FakeSysfs(dir);
  }

  @Test
  void deltaOfOnePackageInJoules() throws Exception {
    fs.raplZone("intel-rapl:0", "package-0", 1_000_000, MAX);
    RaplMeter m = RaplMeter.open(fs.sysfs(), fs.clock);
    assertEquals("rapl:package-0", m.name());
    assertTrue(m.provenance().isMeasured());
    assertEquals("MEASURED rapl:package-0", m.provenance().label());
    EnergyReading r0 = m.read();
    assertEquals(0.0, r0.joules());
    fs.raplEnergy("intel-rapl:0", 13_500_000);
    fs.clock.advanceSeconds(2);
    EnergyReading r1 = m.read();
    assertEquals(12.5, r1.joules(), 1e-12);
    RoundEnergy round = RoundEnergy.between(r0, r1);
    assertEquals(12.5, round.joules(), 1e-12);
    assertEquals(2.0, round.seconds(), 1e-12);
    assertEquals(6.25, round.averageWatts(), 1e-12);
    assertEquals(m.provenance(), round.provenance());
  }

  @Test
  void wrapAroundAddsRangeMinusPreviousPlusCurrent() throws Exception {
    long before = MAX - 3_000_000;
    fs.raplZone("intel-rapl:0", "package-0", before, MAX);
    RaplMeter m = RaplMeter.open(fs.sysfs(), fs.clock);
    fs.raplEnergy("intel-rapl:0", 2_000_000);
    assertEquals(5.0, m.read().joules(), 1e-9);
    fs.raplEnergy("intel-rapl:0", 2_500_000);
    assertEquals(5.5, m.read().joules(), 1e-9);
    // and a second wrap later on
    fs.raplEnergy("intel-rapl:0", MAX - 500_000);
    double atTop = m.read().joules();
    assertEquals(5.5 + (MAX - 500_000 - 2_500_000) / 1e6, atTop, 1e-6);
    fs.raplEnergy("intel-rapl:0", 1_500_000);
    assertEquals(atTop + 2.0, m.read().joules(), 1e-6);
  }

  @Test
  void sumsPackagesAndIgnoresSubdomainsPsysAndMmioDuplicates() throws Exception {
    fs.raplZone("intel-rapl:0", "package-0", 0, MAX);
    fs.raplZone("intel-rapl:0:0", "core", 0, MAX);
    fs.raplZone("intel-rapl:0:1", "dram", 0, MAX);
    fs.raplZone("intel-rapl:1", "package-1", 0, MAX);
    fs.raplZone("intel-rapl:1:0", "core", 0, MAX);
    fs.raplZone("intel-rapl:2", "psys", 0, MAX);
    fs.raplZone("intel-rapl-mmio:0", "package-0", 0, MAX);
    Files.createDirectories(dir.resolve("class/powercap/intel-rapl")); // the control type itself
    RaplMeter m = RaplMeter.open(fs.sysfs(), fs.clock);
    assertEquals("rapl:package-0+package-1", m.name());
    assertTrue(m.provenance().detail().contains("intel-rapl:0, intel-rapl:1"), m.provenance().detail());
    fs.raplEnergy("intel-rapl:0", 3_000_000);
    fs.raplEnergy("intel-rapl:0:0", 2_000_000);
    fs.raplEnergy("intel-rapl:0:1", 1_000_000);
    fs.raplEnergy("intel-rapl:1", 4_000_000);
    fs.raplEnergy("intel-rapl:1:0", 3_000_000);
    fs.raplEnergy("intel-rapl:2", 50_000_000);
    fs.raplEnergy("intel-rapl-mmio:0", 3_000_000);
    assertEquals(7.0, m.read().joules(), 1e-12);
  }

  @Test
  void psysOnlyWhenThereIsNoPackage() throws Exception {
    fs.raplZone("intel-rapl:0", "psys", 10, MAX);
    RaplMeter m = RaplMeter.open(fs.sysfs(), fs.clock);
    assertEquals("rapl:psys", m.name());
  }

  @Test
  void rootOnlyEnergyIsUnavailableWithTheReason() throws Exception {
    Path energy = fs.raplZone("intel-rapl:0", "package-0", 5, MAX);
    fs.deny(energy);
    MeterUnavailableException e = assertThrows(MeterUnavailableException.class, () -> RaplMeter.open(fs.sysfs(), fs.clock));
    assertTrue(e.reason().contains("readable only by root"), e.reason());
    assertTrue(e.reason().contains(energy.toString()), e.reason());
  }

  @Test
  void realPermissionBitsWhenNotRoot() throws Exception {
    assumeFalse("root".equals(System.getProperty("user.name")), "root reads 0400 files anyway");
    Path energy = fs.raplZone("intel-rapl:0", "package-0", 5, MAX);
    Files.setPosixFilePermissions(energy, PosixFilePermissions.fromString("---------"));
    MeterUnavailableException e = assertThrows(MeterUnavailableException.class, () -> RaplMeter.open(dir));
    assertTrue(e.reason().contains("readable only by root"), e.reason());
  }

  @Test
  void missingTreeFilesAndZonesAreClear() throws Exception {
    MeterUnavailableException absent = assertThrows(MeterUnavailableException.class, () -> RaplMeter.open(dir));
    assertTrue(absent.reason().endsWith("class/powercap absent (no powercap driver: VM, container or unsupported CPU)"),
        absent.reason());

    Files.createDirectories(dir.resolve("class/powercap"));
    MeterUnavailableException empty = assertThrows(MeterUnavailableException.class, () -> RaplMeter.open(dir));
    assertTrue(empty.reason().contains("no top-level RAPL package zone (no zones)"), empty.reason());

    fs.raplZone("intel-rapl:0:0", "core", 0, MAX);
    MeterUnavailableException subOnly = assertThrows(MeterUnavailableException.class, () -> RaplMeter.open(dir));
    assertTrue(subOnly.reason().contains("no top-level RAPL package zone"), subOnly.reason());

    fs.write("class/powercap/intel-rapl:0/name", "package-0");
    fs.write("class/powercap/intel-rapl:0/max_energy_range_uj", MAX);
    MeterUnavailableException noEnergy = assertThrows(MeterUnavailableException.class, () -> RaplMeter.open(dir));
    assertTrue(noEnergy.reason().endsWith("intel-rapl:0/energy_uj: missing"), noEnergy.reason());

    fs.raplEnergy("intel-rapl:0", 1);
    Files.delete(dir.resolve("class/powercap/intel-rapl:0/max_energy_range_uj"));
    MeterUnavailableException noRange = assertThrows(MeterUnavailableException.class, () -> RaplMeter.open(dir));
    assertTrue(noRange.reason().contains("max_energy_range_uj: missing (needed to correct wrap-around)"), noRange.reason());

    fs.write("class/powercap/intel-rapl:0/max_energy_range_uj", "garbage");
    MeterUnavailableException bad = assertThrows(MeterUnavailableException.class, () -> RaplMeter.open(dir));
    assertTrue(bad.reason().contains("not an integer: 'garbage'"), bad.reason());
  }

  @Test
  void aCounterThatDisappearsAfterOpenFailsTheReadNamingMeterAndFile() throws Exception {
    Path energy = fs.raplZone("intel-rapl:0", "package-0", 5, MAX);
    RaplMeter m = RaplMeter.open(fs.sysfs(), fs.clock);
    Files.delete(energy);
    EnergyMeterException e = assertThrows(EnergyMeterException.class, m::read);
    assertEquals("rapl:package-0: " + energy + ": missing", e.getMessage());
  }
}
