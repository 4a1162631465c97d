package io.hdfl.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hdfl.federation.RoundReport;
import io.hdfl.run.ScriptedEnergyMeter;
import io.hdfl.sensors.energy.DeviceProfiles;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class EnergyReporterTest {
  private final ScriptedEnergyMeter meter = new ScriptedEnergyMeter("ina219:i2c-1/0x40");

  private static RoundReport report(int round) {
    return new RoundReport("press-01", round, round, 0.1, 0.05, Double.NaN, "", 1_000_000, 500_000, 10, 1, 1, 0);
  }

  /**
   * Each report carries the joules since the previous one; a failed read costs its report the figure,
   * and so does the first after the meter recovers: the joules since the last good reading span
   * several rounds and are no one round's (they were reported as the next round's before).
   */
  @Test
  void aMeterThatFailsCostsReportsTheirEnergyNotTheirRounds() {
    List<RoundReport> sent = new ArrayList<>();
    EnergyReporter r = new EnergyReporter("press-01", meter, null, sent::add);
    meter.addMillijoules(2_000);
    r.accept(report(1));
    meter.addMillijoules(3_000);
    meter.failing(true);
    r.accept(report(2));
    meter.failing(false);
    meter.addMillijoules(5_000);
    r.accept(report(3));
    meter.addMillijoules(7_000);
    r.accept(report(4));
    assertEquals(4, sent.size(), "every round is reported");
    assertEquals(2.0, sent.get(0).energyJoules(), 1e-9);
    assertTrue(Double.isNaN(sent.get(1).energyJoules()), "a failed read");
    assertTrue(Double.isNaN(sent.get(2).energyJoules()), "the first after recovery: 8 J of two rounds");
    assertEquals(7.0, sent.get(3).energyJoules(), 1e-9);
    assertEquals("MEASURED ina219:i2c-1/0x40", sent.get(3).energySource(), "the INA219's rail includes the radio");
  }

  /**
   * A meter that cannot be read as the device starts, or that reads backwards (a counter reset), costs
   * reports their energy, not the device.
   */
  @Test
  void aMeterFailingAtTheStartOrReadingBackwardsCostsOnlyReports() {
    List<RoundReport> sent = new ArrayList<>();
    meter.failing(true);
    EnergyReporter r = new EnergyReporter("press-01", meter, null, sent::add);
    meter.failing(false);
    meter.addMillijoules(4_000);
    r.accept(report(1));
    meter.addMillijoules(-3_000); // reset
    r.accept(report(2));
    meter.addMillijoules(6_000);
    r.accept(report(3));
    assertTrue(Double.isNaN(sent.get(0).energyJoules()), "no reading to start from");
    assertTrue(Double.isNaN(sent.get(1).energyJoules()), "read backwards");
    assertEquals(6.0, sent.get(2).energyJoules(), 1e-9);
  }

  /** With a meter that leaves the radio out, the profile's estimate of the report's bytes is added. */
  @Test
  void theRadioEstimateIsAddedForAMeterThatLeavesTheRadioOut() {
    List<RoundReport> sent = new ArrayList<>();
    var pi = DeviceProfiles.resolve("raspberry-pi-4");
    EnergyReporter r = new EnergyReporter("press-01", meter, pi, sent::add);
    meter.addMillijoules(2_000);
    r.accept(report(1));
    double radio = 1_000_000 * pi.radioJoulesPerByteSent() + 500_000 * pi.radioJoulesPerByteReceived();
    assertTrue(radio > 0);
    assertEquals(2.0 + radio, sent.get(0).energyJoules(), 1e-9);
    assertEquals("MEASURED ina219:i2c-1/0x40 + ESTIMATED radio:raspberry-pi-4", sent.get(0).energySource());
  }
}
