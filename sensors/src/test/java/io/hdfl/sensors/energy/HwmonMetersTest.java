package io.hdfl.sensors.energy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HwmonMetersTest {

  @TempDir Path dir;
  FakeSysfs fs;

  @BeforeEach
  void setUp() {
    fs = new FakeSysfs(dir);
  }

  @Test
  void energyCounterDeltaInJoules() throws Exception {
    fs.hwmonChip("hwmon0", "coretemp");
    fs.hwmon("hwmon0", "temp1_input", 45000);
    fs.hwmonChip("hwmon1", "acme_energy");
    fs.hwmon("hwmon1", "energy1_input", 7_000_000);
    HwmonEnergyMeter m = HwmonEnergyMeter.open(fs.sysfs(), fs.clock, null, List.of());
    assertEquals("hwmon:acme_energy/energy1", m.name());
    assertEquals("MEASURED hwmon:acme_energy/energy1", m.provenance().label());
    EnergyReading r0 = m.read();
    fs.hwmon("hwmon1", "energy1_input", 9_250_000);
    fs.clock.advanceSeconds(1);
    assertEquals(2.25, RoundEnergy.between(r0, m.read()).joules(), 1e-12);
  }

  @Test
  void energyPrefersTotalLabelsOverPerCoreChannels() throws Exception {
    fs.hwmonChip("hwmon3", "amd_energy");
    for (int i = 1; i <= 4; i++) {
      fs.hwmon("hwmon3", "energy" + i + "_input", 1_000_000);
      fs.hwmon("hwmon3", "energy" + i + "_label", "Ecore00" + (i - 1));
    }
    fs.hwmon("hwmon3", "energy5_input", 10_000_000);
    fs.hwmon("hwmon3", "energy5_label", "Esocket0");
    HwmonEnergyMeter m = HwmonEnergyMeter.open(fs.sysfs(), fs.clock, null, List.of());
    assertEquals("hwmon:amd_energy/Esocket0", m.name());
    for (int i = 1; i <= 4; i++) {
      fs.hwmon("hwmon3", "energy" + i + "_input", 3_000_000);
    }
    fs.hwmon("hwmon3", "energy5_input", 19_000_000);
    assertEquals(9.0, m.read().joules(), 1e-12);

    HwmonEnergyMeter cores = HwmonEnergyMeter.open(fs.sysfs(), fs.clock, "amd_energy", List.of("Ecore000", "energy2"));
    assertEquals("hwmon:amd_energy/Ecore000+Ecore001", cores.name());
    fs.hwmon("hwmon3", "energy1_input", 4_000_000);
    fs.hwmon("hwmon3", "energy2_input", 3_500_000);
    assertEquals(1.5, cores.read().joules(), 1e-12);
  }

  @Test
  void energySkipsChipsWithSeveralUnlabelledChannelsAndSaysWhy() throws Exception {
    fs.hwmonChip("hwmon0", "mystery");
    fs.hwmon("hwmon0", "energy1_input", 1);
    fs.hwmon("hwmon0", "energy2_input", 2);
    MeterUnavailableException e = assertThrows(MeterUnavailableException.class,
        () -> HwmonEnergyMeter.open(fs.sysfs(), fs.clock, null, List.of()));
    assertTrue(e.reason().contains("no usable energy sensor (hwmon0 (mystery) skipped: 2 energy channels (energy1, energy2),"
        + " none labelled as a total)"), e.reason());
    MeterUnavailableException wrong = assertThrows(MeterUnavailableException.class,
        () -> HwmonEnergyMeter.open(dir, "mystery", "energy9"));
    assertTrue(wrong.reason().contains("hwmon0 (mystery): no energy channel 'energy9'; it has energy1, energy2"), wrong.reason());
  }

  @Test
  void energyCounterResetAddsNothingForThatInterval() throws Exception {
    fs.hwmonChip("hwmon0", "acme_energy");
    fs.hwmon("hwmon0", "energy1_input", 5_000_000);
    HwmonEnergyMeter m = HwmonEnergyMeter.open(fs.sysfs(), fs.clock, null, List.of());
    fs.hwmon("hwmon0", "energy1_input", 6_000_000);
    assertEquals(1.0, m.read().joules(), 1e-12);
    fs.hwmon("hwmon0", "energy1_input", 100);
    assertEquals(1.0, m.read().joules(), 1e-12);
    fs.hwmon("hwmon0", "energy1_input", 500_100);
    assertEquals(1.5, m.read().joules(), 1e-12);
  }

  @Test
  void unreadableOrMissingEnergyIsUnavailable() throws Exception {
    MeterUnavailableException absent = assertThrows(MeterUnavailableException.class, () -> HwmonEnergyMeter.open(dir));
    assertTrue(absent.reason().endsWith("class/hwmon absent"), absent.reason());
    fs.hwmonChip("hwmon0", "acme_energy");
    Path f = fs.hwmon("hwmon0", "energy1_input", 5);
    fs.deny(f);
    MeterUnavailableException denied = assertThrows(MeterUnavailableException.class,
        () -> HwmonEnergyMeter.open(fs.sysfs(), fs.clock, null, List.of()));
    assertTrue(denied.reason().contains(f + ": permission denied"), denied.reason());
  }

  @Test
  void powerIsIntegratedWithTheTrapezoidRuleBetweenReads() throws Exception {
    fs.hwmonChip("hwmon2", "ina226");
    fs.hwmon("hwmon2", "power1_input", 2_000_000); // 2 W
    HwmonPowerMeter m = HwmonPowerMeter.open(fs.sysfs(), fs.clock, null, List.of());
    assertEquals("hwmon:ina226/power1", m.name());
    assertTrue(m.provenance().detail().contains("trapezoid"), m.provenance().detail());
    EnergyReading r0 = m.read(); // t = 0, 2 W
    assertEquals(0.0, r0.joules());
    fs.clock.advanceSeconds(1);
    fs.hwmon("hwmon2", "power1_input", 4_000_000);
    assertEquals(3.0, m.read().joules(), 1e-12); // (2 + 4) / 2 × 1 s
    fs.clock.advanceSeconds(2);
    EnergyReading r2 = m.read(); // 4 W held: + 8 J
    assertEquals(11.0, r2.joules(), 1e-12);
    fs.clock.advanceSeconds(0.5);
    fs.hwmon("hwmon2", "power1_input", 0);
    assertEquals(12.0, m.read().joules(), 1e-12); // (4 + 0) / 2 × 0.5 s
    RoundEnergy round = RoundEnergy.between(r0, r2);
    assertEquals(11.0 / 3.0, round.averageWatts(), 1e-12);
  }

  @Test
  void powerFallsBackToAverageAndSkipsGpuDrivers() throws Exception {
    fs.hwmonChip("hwmon0", "amdgpu");
    fs.hwmon("hwmon0", "power1_average", 30_000_000);
    fs.hwmonChip("hwmon1", "power_meter");
    fs.hwmon("hwmon1", "power1_average", 100_000_000);
    HwmonPowerMeter m = HwmonPowerMeter.open(fs.sysfs(), fs.clock, null, List.of());
    assertEquals("hwmon:power_meter/power1", m.name());
    Files.delete(dir.resolve("class/hwmon/hwmon1/power1_average"));
    MeterUnavailableException gpuOnly = assertThrows(MeterUnavailableException.class,
        () -> HwmonPowerMeter.open(fs.sysfs(), fs.clock, null, List.of()));
    assertTrue(gpuOnly.reason().endsWith("no usable power sensor (hwmon0 (amdgpu) skipped: a GPU driver, it measures the"
        + " graphics card only)"), gpuOnly.reason());
    assertEquals("hwmon:amdgpu/power1", HwmonPowerMeter.open(dir, "amdgpu").name()); // when asked for explicitly
    fs.hwmon("hwmon1", "power1_average", 100_000_000);
    m.read();
    fs.clock.advanceSeconds(10);
    assertEquals(1000.0, m.read().joules(), 1e-9);
  }

  @Test
  void hwmonAttributesUnderDeviceDirectoryAreFound() throws Exception {
    fs.write("class/hwmon/hwmon0/device/name", "ina219");
    fs.write("class/hwmon/hwmon0/device/power1_input", 1_500_000);
    HwmonPowerMeter m = HwmonPowerMeter.open(fs.sysfs(), fs.clock, null, List.of());
    assertEquals("hwmon:ina219/power1", m.name());
  }

  @Test
  void aPowerFileThatVanishesFailsTheRead() throws Exception {
    fs.hwmonChip("hwmon0", "ina226");
    Path f = fs.hwmon("hwmon0", "power1_input", 1);
    HwmonPowerMeter m = HwmonPowerMeter.open(fs.sysfs(), fs.clock, null, List.of());
    Files.delete(f);
    EnergyMeterException e = assertThrows(EnergyMeterException.class, m::read);
    assertEquals("hwmon:ina226/power1: " + f + ": missing", e.getMessage());
  }

  @Test
  void naturalOrderPutsHwmon2BeforeHwmon10() {
    assertTrue(Sysfs.compareNatural("hwmon2", "hwmon10") < 0);
    assertTrue(Sysfs.compareNatural("intel-rapl:10", "intel-rapl:9") > 0);
    assertEquals(0, Sysfs.compareNatural("hwmon3", "hwmon3"));
  }
}
