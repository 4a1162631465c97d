package io.hdfl.run;

import io.hdfl.sensors.energy.EnergyMeter;
import io.hdfl.sensors.energy.EnergyMeterException;
import io.hdfl.sensors.energy.EnergyReading;
import io.hdfl.sensors.energy.Provenance;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A measuring energy meter whose counter a test sets (in whole millijoules, so sums are exact) and
 * whose reads it can make fail.
 */
public final class ScriptedEnergyMeter implements EnergyMeter {
  private final String name;
  private final Provenance provenance;
  private final AtomicLong millijoules = new AtomicLong();
  private final AtomicBoolean failing = new AtomicBoolean();

  public ScriptedEnergyMeter(String name) {
    this.name = name;
    this.provenance = Provenance.measured(name, "a counter the test sets");
  }

  /** Moves the counter by {@code mj} millijoules (negative: a counter reset). */
  public void addMillijoules(long mj) {
    millijoules.addAndGet(mj);
  }

  /** Makes reads fail ({@code true}) or succeed again. */
  public void failing(boolean fail) {
    failing.set(fail);
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public Provenance provenance() {
    return provenance;
  }

  @Override
  public EnergyReading read() {
    if (failing.get()) {
      throw new EnergyMeterException(name + ": read failed");
    }
    return new EnergyReading(millijoules.get() / 1000.0, System.nanoTime(), provenance);
  }
}
