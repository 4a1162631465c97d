package io.hdfl.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hdfl.codec.Expectations;
import io.hdfl.federation.RingCheckpoint;
import io.hdfl.io.CheckpointFile;
import io.hdfl.io.Sha256;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StateCheckpointsTest {
  @TempDir Path state;

  private StateCheckpoints open() {
    return new StateCheckpoints(state, "plant-7", "press-01", "ring", Expectations.builder().build());
  }

  @Test
  void aNewRunRemembersTheFinishedRunsFinalFrameUntilItFinishesItself() throws IOException {
    String first = Sha256.hex("the first run's final frame".getBytes(StandardCharsets.UTF_8));
    String second = Sha256.hex("the second run's final frame".getBytes(StandardCharsets.UTF_8));
    StateCheckpoints c = open();
    c.commit(new RingCheckpoint(3, true, 1234, null));
    c.finish(3, first);
    assertEquals(OptionalInt.of(3), c.finished());
    assertEquals(Optional.empty(), c.previousFinal(), "no new run yet");

    c.startNewRun();
    assertEquals(OptionalInt.empty(), c.finished());
    assertFalse(c.inProgress(), "nothing of the finished run to resume");
    assertEquals(Optional.of(first), c.previousFinal());
    // a crash during the new run: the device starts again and resumes, and still knows
    c.commit(new RingCheckpoint(1, false, 99, null));
    StateCheckpoints restarted = open();
    assertTrue(restarted.inProgress());
    assertEquals(Optional.of(first), restarted.previousFinal());

    restarted.finish(3, second);
    assertEquals(Optional.empty(), restarted.previousFinal(), "the new run has its own final model now");
    restarted.startNewRun();
    assertEquals(Optional.of(second), restarted.previousFinal());
  }

  @Test
  void aFinishedRunRecordedWithoutItsFinalFrameStartsANewRunWithNothingToIgnore() throws IOException {
    Path finished = Files.createDirectories(state.resolve(StateCheckpoints.DIR)).resolve("finished.ckpt");
    CheckpointFile.write(finished, "finished",
        Map.of("federation", "plant-7", "peer", "press-01", "role", "ring", "round", "3"), null);
    StateCheckpoints c = open();
    assertEquals(OptionalInt.of(3), c.finished());
    c.startNewRun();
    assertEquals(Optional.empty(), c.previousFinal());
    assertEquals(OptionalInt.empty(), c.finished());
  }

  @Test
  void aDamagedDigestIsRefusedNamingTheFile() throws IOException {
    Path finished = Files.createDirectories(state.resolve(StateCheckpoints.DIR)).resolve("finished.ckpt");
    CheckpointFile.write(finished, "finished", Map.of("federation", "plant-7", "peer", "press-01", "role", "ring",
        "round", "3", "final-sha256", "not-a-digest"), null);
    IOException e = assertThrows(IOException.class, () -> open().startNewRun());
    assertTrue(e.getMessage().contains(finished + ": 'final-sha256' is not a SHA-256 in hex"), e.getMessage());
    assertTrue(Files.exists(finished), "nothing removed");
  }
}
