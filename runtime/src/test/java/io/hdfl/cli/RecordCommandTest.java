package io.hdfl.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hdfl.sensors.signal.RecordedSignalSource;
import io.hdfl.sensors.signal.Sample;
import io.hdfl.sensors.signal.SyntheticMachiningSource;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RecordCommandTest {
  @TempDir Path dir;

  @Test
  void recordsTheSyntheticMachineSoThatItReplaysSampleForSample() throws Exception {
    Path file = dir.resolve("m3.hdsg");
    CliRun r = CliRun.of("record", "--source", "synthetic-machining", "--machine", "3", "--seed", "7", "--seconds", "2",
        "--out", file.toString());
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().contains("recorded 1000 samples x 90 channels"), r.out());
    try (RecordedSignalSource replay = RecordedSignalSource.open(file);
        SyntheticMachiningSource again = SyntheticMachiningSource.builder().seed(7).machine(3).build()) {
      assertEquals(again.channels(), replay.channels());
      for (int i = 0; i < 1000; i++) {
        Sample a = replay.next();
        Sample b = again.next();
        assertEquals(b.timestampNanos(), a.timestampNanos(), "sample " + i);
        assertArrayEquals(b.values(), a.values(), "sample " + i);
        assertEquals(b.label(), a.label());
      }
      assertNull(replay.next(), "exactly 2 s at 500 Hz");
    }
    CliRun again = CliRun.of("record", "--source", "synthetic-machining", "--seconds", "1", "--out", file.toString());
    assertEquals(2, again.code());
    assertTrue(again.err().contains("never overwritten"), again.err());
    assertEquals(2, CliRun.of("record", "--source", "hardware", "--seconds", "1", "--out",
        dir.resolve("x.hdsg").toString()).code());
    assertTrue(Files.size(file) > 1000 * 90 * 4);
  }
}
