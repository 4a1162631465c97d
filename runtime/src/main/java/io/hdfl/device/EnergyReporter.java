package io.hdfl.device;

import io.hdfl.federation.RoundReport;
import io.hdfl.sensors.energy.DeviceProfile;
import io.hdfl.sensors.energy.EnergyMeter;
import io.hdfl.sensors.energy.EnergyReading;
import io.hdfl.sensors.energy.RadioEstimate;
import io.hdfl.sensors.energy.RoundEnergy;
import java.util.function.Consumer;

/**
 * A device's round reports with their energy: the meter's joules since the previous report, plus the
 * radio estimate of the report's bytes from the device profile unless the meter's rail includes the
 * radio. A meter that fails mid-run (an I2C or sysfs read error) costs reports their energy, not the
 * round: the report of a failed read goes without energy, and so does the first after the meter
 * recovers (its reading starts the count again; the joules since the last good reading are no one
 * round's).
 */
final class EnergyReporter implements Consumer<RoundReport> {
  private static final System.Logger LOG = System.getLogger("io.hdfl.device");

  private final String peerId;
  private final EnergyMeter meter;
  private final DeviceProfile radio;
  private final Consumer<RoundReport> publish;
  private EnergyReading last;
  private boolean warned;

  /**
   * Reads the meter once now (the start of the first report's interval).
   *
   * @param radio the profile whose radio estimate is added; null when the meter's rail includes the radio
   * @param publish where the reports go (the device's metrics topic)
   */
  EnergyReporter(String peerId, EnergyMeter meter, DeviceProfile radio, Consumer<RoundReport> publish) {
    this.peerId = peerId;
    this.meter = meter;
    this.radio = radio;
    this.publish = publish;
    this.last = read();
  }

  /** The meter's reading now, or null (logged once) if it cannot be read. */
  private EnergyReading read() {
    try {
      return meter.read();
    } catch (RuntimeException e) {
      if (!warned) {
        warned = true;
        LOG.log(System.Logger.Level.WARNING, "peer " + peerId + ": energy meter " + meter.name()
            + " failed; rounds are reported without energy while it does: " + e.getMessage());
      }
      return null;
    }
  }

  @Override
  public synchronized void accept(RoundReport r) {
    EnergyReading now = read();
    EnergyReading from = last;
    last = now;
    if (from == null || now == null) {
      publish.accept(r);
      return;
    }
    RoundEnergy e;
    try {
      e = RoundEnergy.between(from, now);
    } catch (IllegalArgumentException backwards) { // a counter reset, say: this report goes without energy
      publish.accept(r);
      return;
    }
    if (radio == null) {
      publish.accept(r.withEnergy(e.joules(), e.provenance().label()));
    } else {
      RadioEstimate estimate = new RadioEstimate(r.bytesSent(), r.bytesReceived(), radio);
      publish.accept(r.withEnergy(e.joulesWith(estimate), e.sourceWith(estimate)));
    }
  }
}
