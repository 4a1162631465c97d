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
}
