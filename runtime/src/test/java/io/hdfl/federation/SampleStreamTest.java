package io.hdfl.federation;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hdfl.hd.EncodedSet;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A star client's stored shard as a stream: balanced rounds, each stored sample given once. */
class SampleStreamTest {
  private static final EncodedSet SHARD = FederationFixture.shards(1, 30).get(0);

  @Test
  void eachRoundIsBalancedAcrossClassesAndNoSampleComesTwice() throws Exception {
    SampleStream stream = new SampleStream(SHARD, 5);
    Set<String> seen = new HashSet<>();
    for (int round = 0; round < 5; round++) {
      EncodedSet six = stream.next(6);
      int[] perClass = new int[FederationFixture.CLASSES];
      for (int i = 0; i < six.size(); i++) {
        perClass[six.label(i)]++;
        assertTrue(seen.add(java.util.Arrays.toString(six.row(i))), "round " + (round + 1) + " repeats a sample");
      }
      assertArrayEquals(new int[] {2, 2, 2}, perClass, "round " + (round + 1));
    }
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> stream.next(1));
    assertTrue(e.getMessage().contains("used up: 30 samples, 30 learned"), e.getMessage());
  }

  @Test
  void aResumedStreamGoesOnWhereItsCheckpointLeftIt() throws Exception {
    SampleStream whole = new SampleStream(SHARD, 5);
    whole.next(12);
    EncodedSet next = whole.next(6);
    SampleStream resumed = new SampleStream(SHARD, 5);
    resumed.resumeAfter(12);
    EncodedSet again = resumed.next(6);
    for (int i = 0; i < 6; i++) {
      assertArrayEquals(next.row(i), again.row(i));
    }
    assertThrows(IllegalArgumentException.class, () -> new SampleStream(SHARD, 5).resumeAfter(31));
  }

  @Test
  void aShardTooSmallForEveryRoundIsToldWithWhatToChange() {
    assertNull(SampleStream.shortfall("client-001", 30, 3, 10));
    String why = SampleStream.shortfall("client-001", 30, 4, 10);
    assertEquals("client-001 holds 30 samples, fewer than the 4 x 10 new samples of 4 rounds (a star client learns "
        + "each stored sample in one round only, as its privacy accounting assumes): lower per-round or rounds, or give "
        + "each client more data", why);
  }
}
