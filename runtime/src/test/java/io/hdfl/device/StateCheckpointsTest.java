package io.hdfl.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hdfl.codec.Expectations;
import io.hdfl.federation.ClientCheckpoint;
import io.hdfl.federation.RingCheckpoint;
import io.hdfl.io.CheckpointFile;
import io.hdfl.io.Sha256;
import io.hdfl.sensors.signal.SyntheticMachiningSource;
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
    assertEquals(java.util.Set.of(), c.previousFinal(), "no new run yet");

    c.startNewRun();
    assertEquals(OptionalInt.empty(), c.finished());
    assertFalse(c.inProgress(), "nothing of the finished run to resume");
    assertEquals(java.util.Set.of(first), c.previousFinal());
    // a crash during the new run: the device starts again and resumes, and still knows
    c.commit(new RingCheckpoint(1, false, 99, null));
    StateCheckpoints restarted = open();
    assertTrue(restarted.inProgress());
    assertEquals(java.util.Set.of(first), restarted.previousFinal());

    restarted.finish(3, second);
    assertEquals(java.util.Set.of(), restarted.previousFinal(), "the new run has its own final model now");
    restarted.startNewRun();
    assertEquals(java.util.Set.of(second), restarted.previousFinal());
  }

  /**
   * A ring or client commit records where a replayed source stood, read at the commit; a restart reads
   * it back (a commit without a tracked source records none, and nothing committed gives nothing).
   */
  @Test
  void eachCommitRecordsWhereTheRepeatableSourceStood() throws Exception {
    StateCheckpoints c = open();
    assertEquals(Optional.empty(), c.sourceMark(), "nothing committed");
    c.commit(new RingCheckpoint(1, true, 5, null));
    assertEquals(Optional.of(new StateCheckpoints.SourceMark(null, -1)), c.sourceMark(), "no source was tracked");
    try (SyntheticMachiningSource src = SyntheticMachiningSource.builder().seed(4).build()) {
      c.trackingSource(src.toString(), src::position);
      for (int i = 0; i < 57; i++) {
        src.next();
      }
      c.commit(new RingCheckpoint(3, true, 6, null));
      src.next();
      assertEquals(Optional.of(new StateCheckpoints.SourceMark(src.toString(), 57)), open().sourceMark(),
          "as it stood at the commit");
      c.commit(new RingCheckpoint(3, true, 6, null).asDelivered());
      assertEquals(58, open().sourceMark().orElseThrow().position());

      StateCheckpoints client = new StateCheckpoints(state.resolve("client"), "plant-7", "press-01", "star-client",
          Expectations.builder().build());
      client.trackingSource(src.toString(), src::position);
      client.clientCommits().commit(new ClientCheckpoint(1, 0, 5, "agg", update()));
      assertEquals(Optional.of(new StateCheckpoints.SourceMark(src.toString(), 58)), client.sourceMark());
    }
  }

  @Test
  void aNegativeSourcePositionIsRefusedNamingTheFile() throws IOException {
    Path ring = Files.createDirectories(state.resolve(StateCheckpoints.DIR)).resolve("ring.ckpt");
    CheckpointFile.write(ring, "ring", Map.of("federation", "plant-7", "peer", "press-01", "role", "ring",
        "last-step", "2", "bundled", "true", "noise-position", "0", "delivered", "true", "source", "csv x",
        "source-position", "-3"), null);
    IOException e = assertThrows(IOException.class, () -> open().sourceMark());
    assertTrue(e.getMessage().contains(ring + ": 'source-position' is negative; refusing to resume"), e.getMessage());
  }

  private static io.hdfl.codec.ModelEnvelope update() {
    return new io.hdfl.codec.ModelEnvelope(io.hdfl.codec.ModelEnvelope.Kind.CLIENT_UPDATE, "plant-7", "press-01", 1, 1,
        io.hdfl.hd.EncoderKind.COS.id(), 10, 1, 4, 2, 0.5, 5, java.util.List.of(), null, new float[8]);
  }

  @Test
  void aFinishedRunRecordedWithoutItsFinalFrameStartsANewRunWithNothingToIgnore() throws IOException {
    Path finished = Files.createDirectories(state.resolve(StateCheckpoints.DIR)).resolve("finished.ckpt");
    CheckpointFile.write(finished, "finished",
        Map.of("federation", "plant-7", "peer", "press-01", "role", "ring", "round", "3"), null);
    StateCheckpoints c = open();
    assertEquals(OptionalInt.of(3), c.finished());
    c.startNewRun();
    assertEquals(java.util.Set.of(), c.previousFinal());
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

  /**
   * A device with no run to resume remembers the final models the broker held before it subscribed
   * (an earlier run's) beside the finished run's own, across restarts, until its run finishes; at
   * most the newest {@link StateCheckpoints#MAX_EARLIER_FINALS}; a damaged list is refused.
   */
  @Test
  void theFinalModelsOfEarlierRunsAreRememberedUntilThisRunFinishes() throws IOException {
    String own = Sha256.hex("the finished run's final frame".getBytes(StandardCharsets.UTF_8));
    String earlier = Sha256.hex("another device's earlier final frame".getBytes(StandardCharsets.UTF_8));
    StateCheckpoints fresh = open();
    fresh.rememberEarlierFinals(java.util.List.of(earlier));
    assertFalse(fresh.inProgress(), "remembering is no run to resume");
    assertEquals(java.util.Set.of(earlier), open().previousFinal());

    StateCheckpoints c = open();
    c.commit(new RingCheckpoint(3, true, 1234, null));
    c.finish(3, own);
    c.startNewRun();
    c.rememberEarlierFinals(java.util.List.of(own, earlier));
    assertEquals(java.util.Set.of(own, earlier), open().previousFinal());
    java.util.List<String> many = new java.util.ArrayList<>();
    for (int i = 0; i < StateCheckpoints.MAX_EARLIER_FINALS + 3; i++) {
      many.add(Sha256.hex(("frame " + i).getBytes(StandardCharsets.UTF_8)));
    }
    c.rememberEarlierFinals(many);
    java.util.Set<String> kept = open().previousFinal();
    assertTrue(kept.contains(own), "the finished run's own is always kept");
    assertEquals(StateCheckpoints.MAX_EARLIER_FINALS + 1, kept.size());
    assertTrue(kept.containsAll(many.subList(3, many.size())), "the newest are kept");
    c.finish(3, Sha256.hex("this run's final frame".getBytes(StandardCharsets.UTF_8)));
    assertEquals(java.util.Set.of(), open().previousFinal(), "forgotten once this run has its own final model");

    Path file = state.resolve(StateCheckpoints.DIR).resolve("previous-final.ckpt");
    CheckpointFile.write(file, "previous-final", Map.of("federation", "plant-7", "peer", "press-01", "role", "ring",
        "earlier-finals-sha256", earlier + " not-a-digest"), null);
    IOException e = assertThrows(IOException.class, () -> open().previousFinal());
    assertTrue(e.getMessage().contains(file + ": 'earlier-finals-sha256' holds"), e.getMessage());
  }
}
