package io.hdfl.run;

import io.hdfl.sensors.energy.EnergyMeter;
import io.hdfl.sensors.energy.EnergyReading;
import io.hdfl.sensors.energy.ProcessCpuClock;
import io.hdfl.sensors.energy.RoundEnergy;
import java.lang.management.ManagementFactory;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * What each round of a simulation costs, from the machine's meter: a mark (energy, time, process CPU
 * time) when the meter is made, one where round 1 begins, and one as each round's model reaches the
 * recorder. What comes before round 1 (keys, connections, the peers' starts) is the start-up, not
 * round 1. The recorder evaluates each round's model on the test set while the next round runs; that
 * evaluation is no part of the federation, so the next round's energy leaves out its share, in
 * proportion to the process CPU time the evaluation took of that round's interval (exact for the
 * CPU-time model's active part; an apportioning for a measuring meter, which cannot tell threads
 * apart).
 */
final class RoundMeter {
  private final EnergyMeter meter;
  private final LongSupplier processCpu;
  private final LongSupplier threadCpu;
  private final Mark start;
  private Mark firstRound;
  private final TreeMap<Integer, Mark> ends = new TreeMap<>();
  private final Map<Integer, Long> evaluationCpu = new TreeMap<>();

  private record Mark(EnergyReading energy, long nanos, long cpuNanos) {}

  /**
   * A round's figures.
   *
   * @param energy what the meter gave over the round's interval (its provenance names the meter)
   * @param federationJoules that energy less the evaluation's share
   * @param evaluationJoules the share of the previous round's test-set evaluation
   * @param seconds the round's wall time
   */
  record Round(RoundEnergy energy, double federationJoules, double evaluationJoules, double seconds) {}

  /** The start-up: from this meter's making to the start of round 1. */
  record Startup(double joules, double seconds) {}

  RoundMeter(EnergyMeter meter) {
    this(meter, ProcessCpuClock.system(), ManagementFactory.getThreadMXBean()::getCurrentThreadCpuTime);
  }

  /** With the process's and the current thread's CPU clocks (nanoseconds) given. */
  RoundMeter(EnergyMeter meter, LongSupplier processCpu, LongSupplier threadCpu) {
    this.meter = meter;
    this.processCpu = processCpu;
    this.threadCpu = threadCpu;
    this.start = mark();
  }

  private Mark mark() {
    EnergyReading e = meter.read();
    return new Mark(e, e.nanoTime(), processCpu.getAsLong());
  }

  /** Marks the start of round 1 (the end of the start-up). */
  synchronized void firstRoundBegins() {
    firstRound = mark();
  }

  /** Marks the end of {@code round} (as its model reaches the recorder). */
  synchronized void roundEnded(int round) {
    ends.put(round, mark());
  }

  /** Runs the test-set evaluation of {@code round} on this thread and records its CPU time. */
  <T> T evaluating(int round, Supplier<T> evaluation) {
    long c0 = threadCpu.getAsLong();
    try {
      return evaluation.get();
    } finally {
      long used = threadCpu.getAsLong() - c0;
      synchronized (this) {
        evaluationCpu.put(round, used);
      }
    }
  }

  /** The figures of {@code round}, or null if its end was not marked. */
  synchronized Round round(int round) {
    Mark end = ends.get(round);
    if (end == null) {
      return null;
    }
    Mark from = roundStart(round);
    RoundEnergy e = RoundEnergy.between(from.energy(), end.energy());
    long cpuNanos = end.cpuNanos() - from.cpuNanos();
    long evaluated = evaluationCpu.getOrDefault(round - 1, 0L);
    double share = cpuNanos > 0 ? Math.min(1.0, (double) evaluated / cpuNanos) : 0;
    double evaluation = e.joules() * share;
    return new Round(e, e.joules() - evaluation, evaluation, (end.nanos() - from.nanos()) / 1e9);
  }

  /** Where {@code round} began: the previous round's end, or the start of round 1. */
  private Mark roundStart(int round) {
    Map.Entry<Integer, Mark> before = ends.lowerEntry(round);
    if (before != null) {
      return before.getValue();
    }
    return firstRound != null ? firstRound : start;
  }

  /** The start-up's energy and time (zero if round 1's start was not marked). */
  synchronized Startup startup() {
    if (firstRound == null) {
      return new Startup(0, 0);
    }
    return new Startup(RoundEnergy.between(start.energy(), firstRound.energy()).joules(),
        (firstRound.nanos() - start.nanos()) / 1e9);
  }
}
