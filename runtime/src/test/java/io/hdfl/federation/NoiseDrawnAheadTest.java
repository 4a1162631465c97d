package io.hdfl.federation;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hdfl.hd.EncodedSet;
import io.hdfl.hd.Encoder;
import io.hdfl.privacy.noise.NoiseDraw;
import io.hdfl.privacy.noise.NoiseSource;
import io.hdfl.privacy.noise.SeededNoiseSource;
import io.hdfl.privacy.schedule.ScheduleMode;
import io.hdfl.transport.LoopbackBroker;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/** Ring peers draw their next noise ahead, for the variance their next turn will need. */
class NoiseDrawnAheadTest {
  static final int PEERS = 4;
  static final int ROUNDS = 3;
  static final int PER_PEER = 30;

  /** One call on a peer's noise source: a prepare or an add, of so many values and that variance. */
  private record Call(boolean prepare, int len, double variance) {}

  /** Records its calls, and passes them on (or drops the prepares, for a run without drawing ahead). */
  private static final class Recording implements NoiseSource {
    final NoiseSource inner;
    final boolean passPrepare;
    final List<Call> calls = new ArrayList<>();
    /** Thread CPU each prepare burns (ns), standing for a costly sampler. */
    long prepareCpuNanos;

    Recording(NoiseSource inner, boolean passPrepare) {
      this.inner = inner;
      this.passPrepare = passPrepare;
    }

    @Override
    public String name() {
      return inner.name();
    }

    @Override
    public boolean forDeployment() {
      return inner.forDeployment();
    }

    @Override
    public String describe() {
      return inner.describe();
    }

    @Override
    public synchronized void prepare(int len, double variance) {
      calls.add(new Call(true, len, variance));
      if (passPrepare) {
        inner.prepare(len, variance);
      }
      ThreadMXBean threads = ManagementFactory.getThreadMXBean();
      long until = threads.getCurrentThreadCpuTime() + prepareCpuNanos;
      while (threads.getCurrentThreadCpuTime() < until) {
        Thread.onSpinWait();
      }
    }

    @Override
    public synchronized NoiseDraw add(float[] model, int off, int len, double variance) {
      calls.add(new Call(false, len, variance));
      return inner.add(model, off, len, variance);
    }

    @Override
    public synchronized long position() {
      return inner.position();
    }
  }

  private static Simulation.Result run(FederationSettings s, List<EncodedSet> shards, Map<String, Recording> sources,
      boolean passPrepare) throws Exception {
    return run(s, shards, sources, passPrepare, 0);
  }

  private static Simulation.Result run(FederationSettings s, List<EncodedSet> shards, Map<String, Recording> sources,
      boolean passPrepare, long prepareCpuNanos) throws Exception {
    Simulation sim = new Simulation(s, shards, FederationFixture.CLASSES, new LoopbackBroker()::connect,
        FederationFixture.K, id -> sources.computeIfAbsent(id, i -> {
          Recording r = new Recording(new SeededNoiseSource(s.seed() * 31 + i.hashCode(), FederationFixture.K),
              passPrepare);
          r.prepareCpuNanos = prepareCpuNanos;
          return r;
        }));
    return sim.run((round, model) -> { }, Duration.ofSeconds(60));
  }

  @Test
  void everyTurnsNoiseIsDrawnAheadForExactlyItsVarianceAndTheModelsAreUnchanged() throws Exception {
    for (ScheduleMode mode : List.of(ScheduleMode.PRIVATEDFL, ScheduleMode.BLACKBOX)) {
      FederationSettings s = FederationFixture.ring(mode, ROUNDS).build();
      List<EncodedSet> shards = FederationFixture.shards(PEERS, PER_PEER);
      Map<String, Recording> ahead = new ConcurrentHashMap<>();
      Simulation.Result drawnAhead = run(s, shards, ahead, true);
      int adds = 0;
      for (Recording r : ahead.values()) {
        Call prepared = null;
        for (Call c : r.calls) {
          if (c.prepare()) {
            prepared = c;
          } else {
            assertTrue(c.variance() > 0, mode + ": a ring turn adds noise");
            assertEquals(new Call(true, c.len(), c.variance()), prepared,
                mode + ": the turn's add was foreseen exactly by the prepare before it, " + r.calls);
            prepared = null;
            adds++;
          }
        }
        assertEquals(ROUNDS, r.calls.stream().filter(c -> !c.prepare()).count(), mode + ": " + r.calls);
        assertEquals(ROUNDS, r.calls.stream().filter(Call::prepare).count(),
            mode + ": drawn ahead at the start and after every turn but the last");
      }
      assertEquals(PEERS * ROUNDS, adds);

      Simulation.Result drawnAtTheTurn = run(s, shards, new ConcurrentHashMap<>(), false);
      assertArrayEquals(drawnAtTheTurn.finalModel().vectors(), drawnAhead.finalModel().vectors(),
          mode + ": seeded noise drawn ahead is the noise drawn at the turn");
    }
  }

  @Test
  void withUnequalShardsTheLastCycleForeseesTheNextUpToRounding() throws Exception {
    FederationSettings s = FederationFixture.ring(ScheduleMode.PRIVATEDFL, 4).build();
    Encoder enc = new Encoder(FederationFixture.spec(), FederationFixture.K, 1);
    SplittableRandom r = new SplittableRandom(5);
    List<EncodedSet> shards = new ArrayList<>();
    for (int n : new int[] {30, 37, 24, 31}) {
      shards.add(FederationFixture.blobs(enc, n, r));
    }
    Map<String, Recording> sources = new ConcurrentHashMap<>();
    run(s, shards, sources, true);
    for (Recording rec : sources.values()) {
      List<Call> adds = rec.calls.stream().filter(c -> !c.prepare()).toList();
      List<Call> prepares = rec.calls.stream().filter(Call::prepare).toList();
      assertEquals(4, adds.size(), rec.calls.toString());
      // rounds 3 and 4 were prepared after a turn that had seen the others' whole previous cycle
      for (int turn = 2; turn < 4; turn++) {
        double added = adds.get(turn).variance();
        assertEquals(added, prepares.get(turn).variance(), 1e-9 * added, "turn " + (turn + 1) + ": " + rec.calls);
      }
    }
  }

  @Test
  void aTurnsReportCountsTheCpuOfTheNoiseDrawnAheadForIt() throws Exception {
    FederationSettings s = FederationFixture.ring(ScheduleMode.PRIVATEDFL, ROUNDS).build();
    long burn = 30_000_000; // 30 ms of thread CPU per prepare, far above a turn's own on this tiny model
    Simulation.Result r = run(s, FederationFixture.shards(PEERS, PER_PEER), new ConcurrentHashMap<>(), true, burn);
    assertEquals(PEERS * ROUNDS, r.reports().size());
    for (RoundReport rep : r.reports()) {
      // every turn was drawn ahead for, at the peer's start or after its previous turn
      assertTrue(rep.cpuSeconds() >= burn / 1e9, rep.toString());
    }
  }

  @Test
  void withoutPrivacyNothingIsDrawn() throws Exception {
    FederationSettings s = FederationFixture.ring(ScheduleMode.NONE, 2).build();
    Map<String, Recording> sources = new ConcurrentHashMap<>();
    run(s, FederationFixture.shards(PEERS, PER_PEER), sources, true);
    assertEquals(PEERS, sources.size());
    for (Recording r : sources.values()) {
      assertTrue(r.calls.stream().noneMatch(Call::prepare), r.calls.toString());
    }
  }
}
