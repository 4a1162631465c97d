package io.hdfl.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.hdfl.sensors.energy.EnergyMeter;
import io.hdfl.sensors.energy.EnergyReading;
import io.hdfl.sensors.energy.Provenance;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class RoundMeterTest {
  private final AtomicLong millijoules = new AtomicLong();
  private final AtomicLong clock = new AtomicLong(1_000);
  private final AtomicLong processCpu = new AtomicLong();
  private final AtomicLong threadCpu = new AtomicLong();
  private final Provenance rapl = Provenance.measured("rapl:test", "a counter the test sets");

  private final EnergyMeter meter = new EnergyMeter() {
    @Override
    public String name() {
      return "rapl:test";
    }

    @Override
    public Provenance provenance() {
      return rapl;
    }

    @Override
    public EnergyReading read() {
      return new EnergyReading(millijoules.get() / 1000.0, clock.get(), rapl);
    }
  };

  private void advance(long mj, long nanos, long cpuNanos) {
    millijoules.addAndGet(mj);
    clock.addAndGet(nanos);
    processCpu.addAndGet(cpuNanos);
  }

  /**
   * Start-up (5 J) is not round 1's; round 2's 20 J lose the share of round 1's evaluation, which
   * took a quarter of the process CPU time of round 2's interval: 15 J remain, 5 J are the evaluation's.
   */
  @Test
  void roundsLeaveOutTheStartUpAndTheEvaluationsShare() {
    RoundMeter m = new RoundMeter(meter, processCpu::get, threadCpu::get);
    advance(5_000, 2_000_000_000L, 1_000_000_000L); // keys, connections, the peers' starts
    m.firstRoundBegins();
    advance(10_000, 1_000_000_000L, 1_000_000_000L);
    m.roundEnded(1);
    String evaluated = m.evaluating(1, () -> {
      threadCpu.addAndGet(250_000_000L);
      return "accuracy";
    });
    assertEquals("accuracy", evaluated);
    advance(20_000, 1_000_000_000L, 1_000_000_000L); // the evaluation's 0.25 s CPU is part of this second
    m.roundEnded(2);

    assertEquals(5.0, m.startup().joules(), 1e-9);
    assertEquals(2.0, m.startup().seconds(), 1e-9);
    RoundMeter.Round one = m.round(1);
    assertEquals(10.0, one.federationJoules(), 1e-9, "round 1 from its own start");
    assertEquals(0.0, one.evaluationJoules(), 0.0);
    assertEquals(1.0, one.seconds(), 1e-9);
    RoundMeter.Round two = m.round(2);
    assertEquals(20.0, two.energy().joules(), 1e-9);
    assertEquals(15.0, two.federationJoules(), 1e-9);
    assertEquals(5.0, two.evaluationJoules(), 1e-9);
    assertEquals("MEASURED rapl:test", two.energy().provenance().label());
    assertNull(m.round(3), "a round whose end was not seen");
  }

  /** Without a marked start of round 1, round 1 runs from the meter's making and the start-up is empty. */
  @Test
  void withoutAMarkedFirstRoundRoundOneStartsAtTheBeginning() {
    RoundMeter m = new RoundMeter(meter, processCpu::get, threadCpu::get);
    advance(7_000, 1_000_000_000L, 500_000_000L);
    m.roundEnded(1);
    assertEquals(7.0, m.round(1).federationJoules(), 1e-9);
    assertEquals(0.0, m.startup().joules(), 0.0);
  }
}
