package io.hdfl.federation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hdfl.privacy.PrivacyParameters;
import io.hdfl.privacy.ledger.LedgerLine;
import io.hdfl.privacy.ledger.LedgerSimulation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReleaseLogTest {
  @TempDir Path dir;

  private static List<String> clientLines() {
    return LedgerSimulation.star(PrivacyParameters.perSampleDelta(300, 1.0)).peers(2).rounds(3).samplesPerPeer(20)
        .build().ledger().lines().stream().filter(l -> l.entry().peer().equals("client-001")).map(LedgerLine::text)
        .toList();
  }

  /** Each line once, synced as it is recorded; recording the last line again (a restart) adds nothing. */
  @Test
  void recordsEachReleaseOnceAcrossRestarts() throws Exception {
    List<String> lines = clientLines();
    Path file = dir.resolve("state/releases.jsonl");
    ReleaseLog log = ReleaseLog.open(file);
    log.record(lines.get(0));
    log.record(lines.get(1));
    log.record(lines.get(1));
    assertEquals(List.of(lines.get(0), lines.get(1)), Files.readAllLines(file));
    ReleaseLog again = ReleaseLog.open(file);
    assertEquals(2, again.size());
    again.record(lines.get(1)); // a restarted client records its committed update again
    again.record(lines.get(2));
    assertEquals(lines, Files.readAllLines(file));
  }

  /**
   * A last line torn by a power cut mid-append can only be the committed update not yet sent, which
   * the restarted client records again: it is cut off, and the record goes on whole.
   */
  @Test
  void aTornLastLineIsCutOffAndRecordedAgain() throws Exception {
    List<String> lines = clientLines();
    Path torn = dir.resolve("torn.jsonl");
    Files.writeString(torn, lines.get(0) + "\n" + lines.get(1).substring(0, 40));
    ReleaseLog log = ReleaseLog.open(torn);
    assertEquals(List.of(lines.get(0)), Files.readAllLines(torn));
    log.record(lines.get(1));
    assertEquals(lines.subList(0, 2), Files.readAllLines(torn));
    Path alone = dir.resolve("alone.jsonl");
    Files.writeString(alone, lines.get(0).substring(0, 100));
    assertEquals(0, ReleaseLog.open(alone).size());
    assertEquals(0, Files.size(alone));
  }

  @Test
  void aFileOfOtherLinesIsRefusedWithItsLine() throws Exception {
    Path other = dir.resolve("other.jsonl");
    Files.writeString(other, "{\"not\":\"a ledger line\"}\n");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ReleaseLog.open(other));
    assertTrue(e.getMessage().startsWith(other + ": line 1: "), e.getMessage());
  }
}
