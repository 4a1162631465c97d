package io.hdfl.federation;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class RejectionLogTest {
  /**
   * A flood of refusals writes BURST lines a minute; the first line of a later minute is preceded by
   * the count of those left out (a flood that stops is counted in the summary a run-timeout message
   * shows), and a quiet peer's lines all appear.
   */
  @Test
  void aFloodIsWrittenAtMostABurstAMinuteAndTheRestIsCounted() {
    List<String> lines = new ArrayList<>();
    AtomicLong now = new AtomicLong(123);
    RejectionLog log = new RejectionLog(lines::add, now::get);
    assertEquals(null, log.summary());
    for (int i = 0; i < 1000; i++) {
      log.refused("refused " + i);
      now.addAndGet(1_000_000); // 1 ms apart: 1000 in a second
    }
    assertEquals(RejectionLog.BURST, lines.size());
    assertEquals("1000 frame(s) (the last: refused 999)", log.summary(), "every refusal counted");
    assertEquals("refused " + (RejectionLog.BURST - 1), lines.get(lines.size() - 1));
    now.set(123 + RejectionLog.WINDOW_NANOS);
    log.refused("a minute later");
    assertEquals(List.of((1000 - RejectionLog.BURST) + " more refused frame(s) not logged one by one (at most "
        + RejectionLog.BURST + " lines a minute)", "a minute later"), lines.subList(RejectionLog.BURST, lines.size()));
    lines.clear();
    for (int i = 0; i < RejectionLog.BURST - 1; i++) {
      log.refused("quiet " + i);
    }
    assertEquals(RejectionLog.BURST - 1, lines.size(), "under the burst: every line, no count");
    log.refused("one too many");
    assertEquals(RejectionLog.BURST - 1, lines.size());
    now.addAndGet(RejectionLog.WINDOW_NANOS);
    log.refused("next");
    assertEquals(List.of("1 more refused frame(s) not logged one by one (at most " + RejectionLog.BURST
        + " lines a minute)", "next"), lines.subList(RejectionLog.BURST - 1, lines.size()));
  }

  /**
   * The same refusal again and again (a peer of other settings whose global model is announced every
   * 2 s) is written once, then again only after the quiet period, with how often it came meanwhile; a
   * different refusal is written at once, after the count of the repeated one.
   */
  @Test
  void theSameRefusalAgainIsCountedAndWrittenAgainOnlyAfterTheQuietPeriod() {
    List<String> lines = new ArrayList<>();
    AtomicLong now = new AtomicLong(7);
    RejectionLog log = new RejectionLog(lines::add, now::get);
    String wrong = "client c1: rejected a global model: WRONG_FEATURES: features 900, expected 40";
    for (int i = 0; i < 300; i++) { // every 2 s for 10 minutes
      log.refused(wrong);
      now.addAndGet(2_000_000_000L);
    }
    assertEquals(List.of(wrong), lines, "one line for ten minutes of the same refusal");
    assertEquals("300 frame(s) (the last: " + wrong + ")", log.summary(), "every refusal counted");
    log.refused(wrong);
    assertEquals(List.of(wrong, wrong + " (and 299 more time(s) since it was last logged)"), lines);
    lines.clear();
    now.addAndGet(2_000_000_000L);
    log.refused(wrong);
    log.refused(wrong);
    log.refused("client c1: rejected a global model: BAD_CHECKSUM: corrupted");
    assertEquals(List.of("client c1: rejected a global model: BAD_CHECKSUM: corrupted (the refusal logged before this "
        + "one came 2 more time(s) after it)"), lines);
    lines.clear();
    log.refused(wrong);
    assertEquals(List.of(wrong), lines, "the last line written was another: written at once");
  }
}
