package io.hdfl.fuzz;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hdfl.codec.EnvelopeFuzzTest;
import io.hdfl.codec.ReassemblerFuzzTest;
import io.hdfl.data.DatasetFuzzTest;
import io.hdfl.device.PeerConfigFuzzTest;
import io.hdfl.hd.ModelFileFuzzTest;
import io.hdfl.io.CheckpointFileFuzzTest;
import io.hdfl.privacy.ledger.LedgerFuzzTest;
import io.hdfl.security.BroadcastSignatureFuzzTest;
import io.hdfl.security.HopCipherFuzzTest;
import io.hdfl.security.SignedRosterFuzzTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The seed corpus of every fuzz target is committed where Jazzer's regression mode reads it
 * ({@code src/test/resources/<package>/<Test>Inputs/<method>/}), so a plain {@code mvn test}
 * replays it. {@code -Dhdfl.fuzz.writeSeeds=true} writes the seeds that are missing (delete one to
 * regenerate it).
 */
class FuzzCorpusTest {
  static List<Seed> all() throws Exception {
    List<Seed> all = new ArrayList<>();
    all.addAll(EnvelopeFuzzTest.seeds());
    all.addAll(ReassemblerFuzzTest.seeds());
    all.addAll(HopCipherFuzzTest.seeds());
    all.addAll(BroadcastSignatureFuzzTest.seeds());
    all.addAll(LedgerFuzzTest.seeds());
    all.addAll(ModelFileFuzzTest.seeds());
    all.addAll(DatasetFuzzTest.seeds());
    all.addAll(PeerConfigFuzzTest.seeds());
    all.addAll(CheckpointFileFuzzTest.seeds());
    all.addAll(SignedRosterFuzzTest.seeds());
    return all;
  }

  @Test
  void everySeedIsCommitted() throws Exception {
    Path resources = Path.of(System.getProperty("hdfl.repo.root", "..")).resolve("runtime/src/test/resources");
    boolean write = Boolean.getBoolean("hdfl.fuzz.writeSeeds");
    List<String> missing = new ArrayList<>();
    for (Seed s : all()) {
      Path file = resources.resolve(s.resource());
      if (Files.isRegularFile(file)) {
        continue;
      }
      if (write) {
        write(file, s.bytes());
      } else {
        missing.add(s.resource());
      }
    }
    assertTrue(missing.isEmpty(), () -> "seed inputs missing (run this test with -Dhdfl.fuzz.writeSeeds=true): "
        + missing);
  }

  private static void write(Path file, byte[] bytes) throws IOException {
    Files.createDirectories(file.getParent());
    Files.write(file, bytes);
  }
}
