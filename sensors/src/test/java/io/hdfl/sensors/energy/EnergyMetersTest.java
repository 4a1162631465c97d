package io.hdfl.sensors.energy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EnergyMetersTest {

  @TempDir Path dir;
  FakeSysfs fs;

  @BeforeEach
  void setUp() {
    fs = new FakeSysfs(dir);
  }

  private DetectedMeter detect() {
    return EnergyMeters.detect(fs.sysfs(), DeviceProfiles.JETSON_ORIN_NANO, fs.clock,
        () -> new CpuTimeModelMeter(DeviceProfiles.JETSON_ORIN_NANO, () -> 0, fs.clock, "test"));
  }

  /** Every kind of meter present; then remove them one by one, best first. */
  @Test
  void detectionOrderRaplHwmonEnergyIna3221HwmonPowerModel() throws Exception {
    fs.raplZone("intel-rapl:0", "package-0", 0, 1L << 32);
    fs.hwmonChip("hwmon0", "acme_energy");
    fs.hwmon("hwmon0", "energy1_input", 0);
    fs.hwmonChip("hwmon1", "ina3221");
    fs.hwmon("hwmon1", "in1_label", "VDD_IN");
    fs.hwmon("hwmon1", "in1_input", 5000);
    fs.hwmon("hwmon1", "curr1_input", 1000);
    fs.hwmonChip("hwmon2", "ina226");
    fs.hwmon("hwmon2", "power1_input", 1_000_000);

    DetectedMeter d = detect();
    assertInstanceOf(RaplMeter.class, d.meter());
    assertEquals("energy: MEASURED rapl:package-0 (RAPL package counters)", d.reason());

    fs.deny(dir.resolve("class/powercap/intel-rapl:0/energy_uj"));
    d = detect();
    assertInstanceOf(HwmonEnergyMeter.class, d.meter());
    assertTrue(d.reason().startsWith("energy: MEASURED hwmon:acme_energy/energy1 (hwmon energy counters); not used: rapl: "),
        d.reason());
    assertTrue(d.reason().contains("readable only by root"), d.reason());

    Files.delete(dir.resolve("class/hwmon/hwmon0/energy1_input"));
    d = detect();
    assertInstanceOf(Ina3221Meter.class, d.meter());
    assertTrue(d.reason().startsWith("energy: MEASURED ina3221:VDD_IN (INA3221 rails, V·I integrated); not used: rapl: "),
        d.reason());
    assertTrue(d.reason().contains("; hwmon energy: "), d.reason());

    Files.delete(dir.resolve("class/hwmon/hwmon1/curr1_input"));
    d = detect();
    assertInstanceOf(HwmonPowerMeter.class, d.meter());
    assertTrue(d.reason().startsWith("energy: MEASURED hwmon:ina226/power1 (hwmon power, integrated)"), d.reason());

    Files.delete(dir.resolve("class/hwmon/hwmon2/power1_input"));
    d = detect();
    assertInstanceOf(CpuTimeModelMeter.class, d.meter());
    assertTrue(d.reason().startsWith("energy: ESTIMATED cpu-model:jetson-orin-nano (no meter readable, so the CPU-time model"
        + " for profile jetson-orin-nano); not used: rapl: "), d.reason());
    assertTrue(d.reason().contains("; hwmon energy: ") && d.reason().contains("; ina3221: ")
        && d.reason().contains("; hwmon power: "), d.reason());
    assertTrue(!d.reason().contains("\n"));
  }

  @Test
  void anEmptyTreeFallsBackToTheModelNamingEachAbsentSource() {
    DetectedMeter d = detect();
    assertInstanceOf(CpuTimeModelMeter.class, d.meter());
    assertEquals("energy: ESTIMATED cpu-model:jetson-orin-nano (no meter readable, so the CPU-time model for profile"
            + " jetson-orin-nano); not used: rapl: " + dir.resolve("class/powercap")
            + " absent (no powercap driver: VM, container or unsupported CPU); hwmon energy: " + dir.resolve("class/hwmon")
            + " absent; ina3221: " + dir.resolve("class/hwmon") + " absent; hwmon power: " + dir.resolve("class/hwmon") + " absent",
        d.reason());
  }

  /** This machine (a KVM VM): whatever /sys offers, detection returns a working meter and says why. */
  @Test
  void detectOnThisMachine() {
    DetectedMeter d = EnergyMeters.detect(DeviceProfiles.X86_SERVER_CORE);
    EnergyReading r = d.meter().read();
    assertTrue(r.joules() >= 0);
    assertTrue(d.reason().startsWith("energy: "), d.reason());
    if (!Files.isDirectory(Path.of("/sys/class/powercap")) && !Files.isDirectory(Path.of("/sys/class/hwmon"))) {
      assertInstanceOf(CpuTimeModelMeter.class, d.meter());
      assertEquals("ESTIMATED cpu-model:x86-server-core", r.provenance().label());
    }
  }

  @Test
  void sampledMeterReadsInTheBackgroundAndStopsOnClose() throws Exception {
    AtomicInteger reads = new AtomicInteger();
    AtomicInteger closed = new AtomicInteger();
    Provenance p = Provenance.measured("fake", "");
    EnergyMeter fake = new EnergyMeter() {
      @Override
      public String name() {
        return "fake";
      }

      @Override
      public Provenance provenance() {
        return p;
      }

      @Override
      public EnergyReading read() {
        return new EnergyReading(reads.incrementAndGet(), System.nanoTime(), p);
      }

      @Override
      public void close() {
        closed.incrementAndGet();
      }
    };
    SampledEnergyMeter s = EnergyMeters.sampled(fake, Duration.ofMillis(5));
    long deadline = System.nanoTime() + 5_000_000_000L;
    while (s.samples() < 3 && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
    assertTrue(s.samples() >= 3, "background samples: " + s.samples());
    assertEquals("fake", s.name());
    assertTrue(s.read().joules() >= 4);
    s.close();
    int after = reads.get();
    Thread.sleep(50);
    assertEquals(after, reads.get());
    assertEquals(1, closed.get());
  }

  @Test
  void sampledPowerMeterIntegratesBetweenSamples() throws Exception {
    try (SampledEnergyMeter s = sampledIna226(3_000_000)) {
      EnergyReading r0 = s.read();
      Thread.sleep(200);
      RoundEnergy round = RoundEnergy.between(r0, s.read());
      assertEquals(3.0, round.averageWatts(), 1e-9); // constant 3 W, whatever the sample times
      assertTrue(s.samples() >= 5, "samples: " + s.samples());
    }
  }

  /**
   * Busy 10 W for about 300 ms between two reads at 0 W: the sampled meter integrates the burst; two
   * reads alone (what a round report did) would give 0 J.
   */
  @Test
  void aSampledPowerMeterSeesABurstBetweenTheReportsReads() throws Exception {
    try (SampledEnergyMeter s = sampledIna226(0)) {
      EnergyReading r0 = s.read();
      fs.hwmon("hwmon0", "power1_input", 10_000_000);
      long t0 = System.nanoTime();
      Thread.sleep(300);
      fs.hwmon("hwmon0", "power1_input", 0);
      double busy = (System.nanoTime() - t0) / 1e9;
      Thread.sleep(50);
      double joules = RoundEnergy.between(r0, s.read()).joules();
      assertTrue(joules > 0.6 * 10 * busy && joules < 1.4 * 10 * busy + 0.2, joules + " J for " + busy + " s at 10 W");
    }
  }

  @Test
  void forRunsSamplesAMeasuringMeterButNotTheCpuModel() throws Exception {
    fs.hwmonChip("hwmon0", "ina226");
    fs.hwmon("hwmon0", "power1_input", 3_000_000);
    DeviceProfile profile = DeviceProfiles.resolve("raspberry-pi-4");
    DetectedMeter measured = EnergyMeters.sampledIfMeasured(EnergyMeters.detect(fs.root, profile),
        Duration.ofMillis(50));
    try {
      assertTrue(measured.meter() instanceof SampledEnergyMeter, measured.reason());
      assertTrue(measured.reason().endsWith(", read every 50 ms"), measured.reason());
    } finally {
      measured.meter().close();
    }
    DetectedMeter model = EnergyMeters.sampledIfMeasured(EnergyMeters.detect(fs.root.resolve("none"), profile),
        Duration.ofMillis(50));
    assertTrue(model.meter() instanceof CpuTimeModelMeter, model.reason());
  }

  /** An ina226 hwmon power meter drawing {@code microwatts} now, read in the background every 10 ms. */
  private SampledEnergyMeter sampledIna226(long microwatts) throws Exception {
    fs.hwmonChip("hwmon0", "ina226");
    fs.hwmon("hwmon0", "power1_input", microwatts);
    return EnergyMeters.sampled(HwmonPowerMeter.open(fs.sysfs(), System::nanoTime, null, java.util.List.of()),
        Duration.ofMillis(10));
  }

  /**
   * A device's configured INA219 is read once as it opens: on Pi4J's mock I2C, whose registers read
   * short, the opening fails with the reason, and the meter's Pi4J context is shut down again (a
   * second attempt on the same bus and address is not refused as taken).
   */
  @Test
  void anIna219ForRunsIsReadOnceAsItOpens() {
    Ina219Config cfg = Ina219Config.builder(2).address(0x42).build();
    for (int attempt = 1; attempt <= 2; attempt++) {
      MeterUnavailableException e = org.junit.jupiter.api.Assertions.assertThrows(MeterUnavailableException.class,
          () -> EnergyMeters.ina219ForRuns(cfg));
      assertTrue(e.reason().startsWith("the first reading failed: ina219:i2c-2/0x42: short "), e.reason());
    }
  }
}
