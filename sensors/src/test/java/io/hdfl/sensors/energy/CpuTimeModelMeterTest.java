package io.hdfl.sensors.energy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class CpuTimeModelMeterTest {

  private static final DeviceProfile FOUR_AND_TWO = new DeviceProfile("test-4w-2w", 4.0, 2.0, 0, 0, "test");

  @Test
  void twoCpuSecondsAtFourWattsPlusTenWallSecondsAtTwoWattsIs28Joules() {
    AtomicLong cpu = new AtomicLong(5_000_000_000L);
    AtomicLong wall = new AtomicLong(1_000_000_000L);
    CpuTimeModelMeter m = new CpuTimeModelMeter(FOUR_AND_TWO, cpu::get, wall::get, "test clock");
    EnergyReading r0 = m.read();
    assertEquals(0.0, r0.joules());
    cpu.addAndGet(2_000_000_000L);
    wall.addAndGet(10_000_000_000L);
    EnergyReading r1 = m.read();
    assertEquals(2 * 4.0 + 2.0 * 10, r1.joules(), 1e-12);
    RoundEnergy round = RoundEnergy.between(r0, r1);
    assertEquals(28.0, round.joules(), 1e-12);
    assertEquals(10.0, round.seconds(), 1e-12);
    assertEquals("ESTIMATED cpu-model:test-4w-2w", round.provenance().label());
    assertFalse(round.provenance().isMeasured());
    assertTrue(round.provenance().detail().contains("test clock"), round.provenance().detail());
    assertEquals(28.0, FOUR_AND_TWO.modelJoules(2, 10), 0);
  }

  @Test
  void twoBusyCoresCountTwice() {
    AtomicLong cpu = new AtomicLong();
    AtomicLong wall = new AtomicLong();
    CpuTimeModelMeter m = new CpuTimeModelMeter(DeviceProfiles.RASPBERRY_PI_4, cpu::get, wall::get, "t");
    cpu.set(6_000_000_000L); // two cores for 3 s
    wall.set(3_000_000_000L);
    assertEquals(6 * 0.93 + 2.7 * 3, m.read().joules(), 1e-12);
  }

  @Test
  void processCpuClockMeasuresThisProcessAndNeverGoesBack() {
    ProcessCpuClock system = ProcessCpuClock.system();
    assertEquals("OperatingSystemMXBean.getProcessCpuTime", system.source());
    long before = system.getAsLong();
    burn(200);
    long after = system.getAsLong();
    assertTrue(after - before >= 50_000_000L, "at least 50 ms CPU in 200 ms busy: " + (after - before));

    ProcessCpuClock threads = ProcessCpuClock.threadSum();
    long t0 = threads.getAsLong();
    burn(100);
    assertTrue(threads.getAsLong() > t0);

    AtomicLong raw = new AtomicLong(100);
    ProcessCpuClock monotonic = ProcessCpuClock.of(raw::get, "t");
    assertEquals(100, monotonic.getAsLong());
    raw.set(40); // e.g. a thread ended and the fallback sum dropped
    assertEquals(100, monotonic.getAsLong());
  }

  @Test
  void forThisProcessIsEstimatedAndGrows() {
    CpuTimeModelMeter m = CpuTimeModelMeter.forThisProcess(DeviceProfiles.X86_SERVER_CORE);
    EnergyReading r0 = m.read();
    burn(50);
    EnergyReading r1 = m.read();
    assertTrue(r1.joules() > r0.joules());
    assertEquals("cpu-model:x86-server-core", m.name());
  }

  private static void burn(long millis) {
    long end = System.nanoTime() + millis * 1_000_000L;
    double x = 1;
    while (System.nanoTime() < end) {
      x = Math.sin(x) + 1.0001;
    }
    if (x == 42) {
      System.out.println(x);
    }
  }
}
