package io.hdfl.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KeySuggestionTest {
  @TempDir Path dir;

  @Test
  void theDistanceIsLevenshteins() {
    assertEquals(0, KeySuggestion.distance("broker", "broker"));
    assertEquals(1, KeySuggestion.distance("brokr", "broker"));
    assertEquals(2, KeySuggestion.distance("borker", "broker")); // a swap is two edits
    assertEquals(3, KeySuggestion.distance("kitten", "sitting"));
    assertEquals(6, KeySuggestion.distance("", "broker"));
  }

  /** A typo within two edits, a key with a part too many or too few; nothing for an unrelated key. */
  @Test
  void theNearestKnownKeyIsSuggestedWhenNearEnough() {
    assertEquals(Optional.of("broker"), KeySuggestion.nearest("brokr", PeerConfig.KEYS));
    assertEquals(Optional.of("epochs"), KeySuggestion.nearest("epochs.count", PeerConfig.KEYS));
    assertEquals(Optional.of("run.timeout.seconds"), KeySuggestion.nearest("run.timout.seconds", PeerConfig.KEYS));
    assertEquals(Optional.empty(), KeySuggestion.nearest("xyzzy", PeerConfig.KEYS));
    assertEquals(Optional.empty(), KeySuggestion.nearest("ab", List.of("cd")), "two edits of a two-letter key");
    assertEquals(Optional.empty(), KeySuggestion.nearest("b".repeat(100_000), PeerConfig.KEYS));
  }

  /** The configuration's error names the suggestion beside the list of known keys. */
  @Test
  void aConfigWithAMistypedKeySaysWhichWasMeant() throws Exception {
    Path f = dir.resolve("peer.properties");
    Files.writeString(f, "federation = f\npeer.id = a\nbrokr = tcp://h:1883\nclasses = 2\nstate.dir = s\n"
        + "data.train = d\nrole = ring\nring.order = a\nxyzzy = 1\n");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PeerConfig.read(f));
    assertTrue(e.getMessage().startsWith(f + ": unknown key(s) [brokr, xyzzy] ('brokr': did you mean 'broker'?) "
        + "(known: ["), e.getMessage());
  }
}
