package io.hdfl.device;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hdfl.federation.RoundReport;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RoundProgressTest {
  private static RoundReport report(int round, long step, long samplesNew, double added, double energy) {
    return new RoundReport("press-01", round, step, 0.314, 0.271, energy, "ESTIMATED cpu-model:raspberry-pi-4",
        81_234, 999, samplesNew, 0.5, 0.625, added);
  }

  @Test
  void aRingTurnSaysItsStepWhatItLearnedAndItsNoiseBytesAndEnergy() {
    List<String> lines = new ArrayList<>();
    RoundProgress p = new RoundProgress("ring", 10, lines::add);
    p.accept(report(1, 3, 120, 0.125, 0.8412));
    p.accept(report(2, 7, 0, 0, 0.5));
    assertEquals(List.of(
        "round 1/10 (step 3): trained on 120 new samples, passed on in 0.31 s (CPU 0.27 s); noise variance required"
            + " 0.5000, present 0.6250 (0.1250 added here); sent 81.2 kB, received 999 B; energy 0.841 J ESTIMATED"
            + " cpu-model:raspberry-pi-4",
        "round 2/10 (step 7): retrained, passed on in 0.31 s (CPU 0.27 s); noise variance required 0.5000, present"
            + " 0.6250 (none added here); sent 81.2 kB, received 999 B; energy 0.500 J ESTIMATED"
            + " cpu-model:raspberry-pi-4"), lines);
  }

  @Test
  void aStarClientAndAnAggregatorSayWhatTheySentAndAveraged() {
    assertEquals("round 3/5: update of 500 new samples sent in 0.31 s (CPU 0.27 s); noise variance required 0.5000,"
        + " present 0.6250 (0.1250 added here); sent 81.2 kB, received 999 B; energy 12.0 J ESTIMATED"
        + " cpu-model:raspberry-pi-4", new RoundProgress("star-client", 5, l -> { }).line(report(3, 3, 500, 0.125, 12)));
    assertEquals("round 3/5: averaged the clients' updates (4000 new samples) after 0.31 s (CPU 0.27 s); noise"
        + " variance required 0.5000, present 0.6250 (none added here); sent 81.2 kB, received 999 B; energy not read"
        + " (see the meter's warning)", new RoundProgress("aggregator", 5, l -> { })
        .line(report(3, 3, 4000, 0, Double.NaN)));
  }

  @Test
  void bytesAreInPowersOfAThousand() {
    assertEquals("0 B", RoundProgress.bytes(0));
    assertEquals("999 B", RoundProgress.bytes(999));
    assertEquals("1.0 kB", RoundProgress.bytes(1000));
    assertEquals("999.9 kB", RoundProgress.bytes(999_949));
    assertEquals("1.00 MB", RoundProgress.bytes(999_999));
    assertEquals("1.00 MB", RoundProgress.bytes(1_000_000));
    assertEquals("2080.00 MB", RoundProgress.bytes(2_080_000_000L));
  }
}
