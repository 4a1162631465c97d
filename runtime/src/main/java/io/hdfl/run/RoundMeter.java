package io.hdfl.run;

import io.hdfl.sensors.energy.EnergyMeter;
import io.hdfl.sensors.energy.EnergyReading;
import io.hdfl.sensors.energy.ProcessCpuClock;
import io.hdfl.sensors.energy.RoundEnergy;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.LongSupplier;

/**
 * What each round of a simulation costs, from the machine's meter: a mark (energy, time, the process's
 * CPU time and the test-set evaluator's) when the meter is made, one where round 1 begins, and one as
 * each round's model reaches the recorder. What comes before round 1 (the broker where it is
 * embedded, keys, connections, the peers' starts) is the start-up, not round 1. The evaluator scores
 * each round's model on the test set on a thread of its own while the federation goes on; that work
 * is no part of the federation, so a round's energy leaves out the evaluator's share of it, in
 * proportion to the CPU time the evaluator took of the process's in that round's interval (idle power
 * included: a measuring meter cannot tell threads apart, and the CPU-time model is apportioned the
 * same way).
 *
 * <p>A meter that fails to read costs the rounds around that mark their figures, not the run.
 */
final class RoundMeter {
  private final EnergyMeter meter;
  private final LongSupplier processCpu;
  private final LongSupplier evaluatorCpu;
  private final Mark start;
  private Mark firstRound;
  private final TreeMap<Integer, Mark> ends = new TreeMap<>();

  /** {@code energy} is null when the meter could not be read at this mark. */
  private record Mark(EnergyReading energy, long nanos, long cpuNanos, long evaluatorNanos) {}

  /**
   * A round's figures.
   *
   * @param energy what the meter gave over the round's interval (its provenance names the meter)
   * @param federationJoules that energy less the evaluator's share
   * @param evaluationJoules the evaluator's share
   * @param seconds the round's wall time
   */
  record Round(RoundEnergy energy, double federationJoules, double evaluationJoules, double seconds) {}

  /** The start-up: from this meter's making to the start of round 1; NaN joules if the meter failed there. */
  record Startup(double joules, double seconds) {}

  /**
   * @param processCpu the process's CPU time, nanoseconds
   * @param evaluatorCpu the CPU time of the thread that evaluates the rounds' models, nanoseconds
   */
  RoundMeter(EnergyMeter meter, LongSupplier evaluatorCpu) {
    this(meter, ProcessCpuClock.system(), evaluatorCpu);
  }

  RoundMeter(EnergyMeter meter, LongSupplier processCpu, LongSupplier evaluatorCpu) {
    this.meter = meter;
    this.processCpu = processCpu;
    this.evaluatorCpu = evaluatorCpu;
    this.start = mark();
  }

  private Mark mark() {
    EnergyReading e;
    try {
      e = meter.read();
    } catch (RuntimeException failed) {
      e = null; // the rounds on either side of this mark go without a figure
    }
    return new Mark(e, System.nanoTime(), processCpu.getAsLong(), evaluatorCpu.getAsLong());
  }

  /** Marks the start of round 1 (the end of the start-up). */
  synchronized void firstRoundBegins() {
    firstRound = mark();
  }

  /** Marks the end of {@code round} (as its model reaches the recorder). */
  synchronized void roundEnded(int round) {
    ends.put(round, mark());
  }

  /**
   * The figures of {@code round}, or null if its start or end was not marked, or the meter could not be
   * read there (or read backwards).
   */
  synchronized Round round(int round) {
    Mark end = ends.get(round);
    Mark from = round == 1 ? (firstRound != null ? firstRound : start) : ends.get(round - 1);
    if (end == null || from == null || end.energy() == null || from.energy() == null) {
      return null;
    }
    RoundEnergy e;
    try {
      e = RoundEnergy.between(from.energy(), end.energy());
    } catch (IllegalArgumentException faulty) {
      return null;
    }
    long cpuNanos = end.cpuNanos() - from.cpuNanos();
    long evaluated = end.evaluatorNanos() - from.evaluatorNanos();
    double share = cpuNanos > 0 ? Math.max(0, Math.min(1.0, (double) evaluated / cpuNanos)) : 0;
    double evaluation = e.joules() * share;
    return new Round(e, e.joules() - evaluation, evaluation, (end.nanos() - from.nanos()) / 1e9);
  }

  /** The start-up's energy and time (zero if round 1's start was not marked). */
  synchronized Startup startup() {
    if (firstRound == null) {
      return new Startup(0, 0);
    }
    double joules = Double.NaN;
    if (start.energy() != null && firstRound.energy() != null) {
      try {
        joules = RoundEnergy.between(start.energy(), firstRound.energy()).joules();
      } catch (IllegalArgumentException faulty) {
        // NaN: no figure
      }
    }
    return new Startup(joules, (firstRound.nanos() - start.nanos()) / 1e9);
  }
}
