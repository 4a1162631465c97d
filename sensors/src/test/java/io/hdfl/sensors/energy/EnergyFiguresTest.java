package io.hdfl.sensors.energy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** RoundEnergy, RadioEstimate, Provenance and the device profiles. */
class EnergyFiguresTest {

  private static final Provenance RAPL = Provenance.measured("rapl:package-0", "");
  private static final Provenance MODEL = Provenance.estimated("cpu-model:raspberry-pi-4", "");

  @Test
  void roundEnergyRejectsMixedMetersReversedOrderAndBackwardsCounts() {
    EnergyReading a = new EnergyReading(10, 1_000, RAPL);
    IllegalArgumentException mixed = assertThrows(IllegalArgumentException.class,
        () -> RoundEnergy.between(a, new EnergyReading(12, 2_000, MODEL)));
    assertEquals("readings come from different meters: MEASURED rapl:package-0 and ESTIMATED cpu-model:raspberry-pi-4",
        mixed.getMessage());
    IllegalArgumentException order = assertThrows(IllegalArgumentException.class,
        () -> RoundEnergy.between(a, new EnergyReading(12, 500, RAPL)));
    assertTrue(order.getMessage().contains("out of order"), order.getMessage());
    IllegalArgumentException back = assertThrows(IllegalArgumentException.class,
        () -> RoundEnergy.between(a, new EnergyReading(9, 2_000, RAPL)));
    assertEquals("rapl:package-0: cumulative energy went backwards by 1.0 J between the readings", back.getMessage());
    assertEquals(0.0, RoundEnergy.between(a, a).averageWatts());
    assertThrows(IllegalArgumentException.class, () -> new EnergyReading(Double.NaN, 0, RAPL));
  }

  @Test
  void radioEnergyIsBytesTimesJoulesPerByteAndEstimated() {
    RadioEstimate r = new RadioEstimate(1_000_000, 250_000, DeviceProfiles.RASPBERRY_PI_4);
    assertEquals(1_000_000 * 1.6e-7 + 250_000 * 1.2e-7, r.joules(), 1e-15);
    assertEquals("ESTIMATED radio:raspberry-pi-4", r.provenance().label());
    DeviceProfile custom = DeviceProfiles.resolve("active=1,idle=1,sent=2e-6,received=5e-7");
    assertEquals(2e-6 * 300 + 5e-7 * 1000, new RadioEstimate(300, 1000, custom).joules(), 1e-18);
    assertThrows(IllegalArgumentException.class, () -> new RadioEstimate(-1, 0, custom));
  }

  @Test
  void provenanceLabelsAndToString() {
    assertEquals("MEASURED rapl:package-0", RAPL.toString());
    assertEquals("ESTIMATED x (why)", Provenance.estimated("x", "why").toString());
    assertThrows(IllegalArgumentException.class, () -> Provenance.measured(" ", ""));
  }

  @Test
  void shippedProfilesAreResolvableByName() {
    List<DeviceProfile> shipped = DeviceProfiles.shipped();
    assertEquals(List.of("raspberry-pi-4", "raspberry-pi-5", "jetson-orin-nano", "x86-server-core"),
        shipped.stream().map(DeviceProfile::name).toList());
    for (DeviceProfile p : shipped) {
      assertSame(p, DeviceProfiles.resolve(p.name()));
      assertTrue(p.activeWatts() > 0 && p.idleWatts() > 0 && p.radioJoulesPerByteSent() > 0, p.summary());
      assertTrue(!p.source().isBlank());
    }
    assertSame(DeviceProfiles.RASPBERRY_PI_5, DeviceProfiles.resolve(" Raspberry-Pi-5 "));
  }

  @Test
  void customProfilesFromFieldsOrFromABase() {
    DeviceProfile c = DeviceProfiles.resolve("name=lab-box,active=3.5,idle=6,sent=2e-8,received=1e-8");
    assertEquals(new DeviceProfile("lab-box", 3.5, 6, 2e-8, 1e-8, c.source()), c);
    DeviceProfile b = DeviceProfiles.resolve("base=raspberry-pi-4,idle=3.1,name=pi4-hat");
    assertEquals("pi4-hat", b.name());
    assertEquals(3.1, b.idleWatts());
    assertEquals(0.93, b.activeWatts());
    assertEquals(1.6e-7, b.radioJoulesPerByteSent());
    assertEquals("custom", DeviceProfiles.resolve("active=1,idle=1,sent=0,received=0").name());
  }

  @Test
  void badProfilesGiveOneClearLine() {
    IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class, () -> DeviceProfiles.resolve("pi-zero"));
    assertTrue(unknown.getMessage().startsWith("unknown device profile 'pi-zero'; known: raspberry-pi-4, raspberry-pi-5,"
        + " jetson-orin-nano, x86-server-core"), unknown.getMessage());
    assertEquals("device profile 'active=1,idle=1': missing 'sent' (give active, idle, sent and received, or a base profile)",
        assertThrows(IllegalArgumentException.class, () -> DeviceProfiles.resolve("active=1,idle=1")).getMessage());
    assertEquals("device profile 'active=x,idle=1,sent=0,received=0': active is not a number: 'x'",
        assertThrows(IllegalArgumentException.class, () -> DeviceProfiles.resolve("active=x,idle=1,sent=0,received=0"))
            .getMessage());
    assertTrue(assertThrows(IllegalArgumentException.class, () -> DeviceProfiles.resolve("active=1,watts=2")).getMessage()
        .contains("bad field 'watts=2'"));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> DeviceProfiles.resolve("active=-1,idle=1,sent=0,received=0")).getMessage()
        .contains("active watts must be finite and ≥ 0"));
    assertThrows(IllegalArgumentException.class, () -> DeviceProfiles.resolve("name=Bad Name,active=1,idle=1,sent=0,received=0"));
  }
}
