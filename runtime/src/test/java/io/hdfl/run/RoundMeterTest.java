package io.hdfl.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class RoundMeterTest {
  private final AtomicLong processCpu = new AtomicLong();
  private final AtomicLong evaluatorCpu = new AtomicLong();
  private final ScriptedEnergyMeter meter = new ScriptedEnergyMeter("rapl:test");

  private void advance(long mj, long cpuNanos, long evaluatorNanos) {
    meter.addMillijoules(mj);
    processCpu.addAndGet(cpuNanos);
    evaluatorCpu.addAndGet(evaluatorNanos);
  }

  /**
   * Start-up (5 J) is not round 1's; round 2's 20 J lose the share of the evaluator, which took a
   * quarter of the process's CPU time in round 2's interval: 15 J remain, 5 J are the evaluation's.
   */
  @Test
  void roundsLeaveOutTheStartUpAndTheEvaluatorsShare() {
    RoundMeter m = new RoundMeter(meter, processCpu::get, evaluatorCpu::get);
    advance(5_000, 1_000_000_000L, 0); // keys, connections, the peers' starts
    m.firstRoundBegins();
    advance(10_000, 1_000_000_000L, 0);
    m.roundEnded(1);
    advance(20_000, 1_000_000_000L, 250_000_000L); // round 1's model scored during round 2
    m.roundEnded(2);

    assertEquals(5.0, m.startup().joules(), 1e-9);
    assertTrue(m.startup().seconds() >= 0);
    RoundMeter.Round one = m.round(1);
    assertEquals(10.0, one.federationJoules(), 1e-9, "round 1 from its own start");
    assertEquals(0.0, one.evaluationJoules(), 0.0);
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
    RoundMeter m = new RoundMeter(meter, processCpu::get, evaluatorCpu::get);
    advance(7_000, 500_000_000L, 0);
    m.roundEnded(1);
    assertEquals(7.0, m.round(1).federationJoules(), 1e-9);
    assertEquals(0.0, m.startup().joules(), 0.0);
  }

  /**
   * A meter that fails at a mark costs the rounds on either side of it their figures, not the run;
   * a round whose start was not marked has none either (it is not merged with the round before).
   */
  @Test
  void aFailedReadingOrAMissingMarkCostsOnlyTheRoundsAroundIt() {
    RoundMeter m = new RoundMeter(meter, processCpu::get, evaluatorCpu::get);
    m.firstRoundBegins();
    advance(1_000, 1, 0);
    m.roundEnded(1);
    advance(2_000, 1, 0);
    meter.failing(true);
    m.roundEnded(2);
    meter.failing(false);
    advance(3_000, 1, 0);
    m.roundEnded(3);
    advance(4_000, 1, 0);
    m.roundEnded(5); // round 4's model never reached the recorder
    assertEquals(1.0, m.round(1).federationJoules(), 1e-9);
    assertNull(m.round(2), "ends where the meter failed");
    assertNull(m.round(3), "starts where the meter failed");
    assertNull(m.round(5), "its start (round 4's end) was not marked");
    meter.failing(true);
    RoundMeter failedAtStart = new RoundMeter(meter, processCpu::get, evaluatorCpu::get);
    meter.failing(false);
    failedAtStart.firstRoundBegins();
    assertTrue(Double.isNaN(failedAtStart.startup().joules()), "no start-up figure");
  }
}
