package io.hdfl.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.hdfl.fuzz.Contract;
import io.hdfl.fuzz.Seed;
import io.hdfl.fuzz.TestKeys;
import io.hdfl.privacy.ledger.LedgerEntry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Fuzz target of {@link PeerConfig#read} on arbitrary property files. A file either reads as a
 * valid configuration or fails with an {@link IllegalArgumentException} whose one line names the
 * file (what {@code hdfl peer} prints); never another exception, an I/O error for a readable file,
 * or an error.
 */
public class PeerConfigFuzzTest {
  private static final Path DIR = TestKeys.tempDir("hdfl-fuzz-config");
  private static final Set<String> ROLES = Set.of("ring", "star-client", "aggregator");

  @FuzzTest(maxDuration = "60s")
  void read(byte[] data) throws Exception {
    Path file = DIR.resolve("peer.properties");
    Files.write(file, data);
    Contract.allocatesAtMost((1 << 20) + 64L * data.length, "reading " + data.length + " bytes of configuration",
        () -> check(file));
  }

  static void check(Path file) throws IOException {
    PeerConfig c;
    try {
      c = PeerConfig.read(file);
    } catch (IllegalArgumentException e) {
      Contract.oneLineAbout(e, file.toString());
      return;
    }
    assertTrue(LedgerEntry.isValidId(c.peerId()), c.peerId());
    assertTrue(LedgerEntry.isValidId(c.settings().federation()), c.settings().federation());
    assertTrue(ROLES.contains(c.role()), c.role());
    assertTrue(c.classes() >= 1);
    assertTrue(c.noise().equals("secure") || c.noise().equals("seeded"), c.noise());
    assertTrue(!c.broker().isBlank() && c.stateDir().isAbsolute() && c.rosterDir().isAbsolute());
    if (c.role().equals("ring")) {
      assertTrue(c.ringOrder().contains(c.peerId()));
      assertEquals(c.ringOrder().size(), new HashSet<>(c.ringOrder()).size());
    } else {
      assertTrue(c.ringOrder().isEmpty());
    }
    assertEquals(c.role().equals("aggregator"), c.starClients() >= 1);
    assertTrue(c.role().equals("aggregator") || c.trainData() != null);
  }

  /** The shipped examples and small variants, for the committed corpus. */
  public static List<Seed> seeds() throws IOException {
    Path examples = Path.of(System.getProperty("hdfl.repo.root", "..")).resolve("deploy/examples");
    List<Seed> s = new ArrayList<>();
    for (String name : List.of("ring-peer", "star-aggregator", "star-client")) {
      s.add(seed(name, Files.readAllBytes(examples.resolve(name + ".properties"))));
    }
    String min = "federation=f\npeer.id=a\nbroker=tcp://h:1883\nclasses=2\nstate.dir=s\ndata.train=d\n";
    s.add(seed("minimal-ring", (min + "role=ring\nring.order=a,b\n").getBytes(StandardCharsets.UTF_8)));
    s.add(seed("escapes-and-continuation", ("federation = f\\u0031\npeer.id : a\nrole=star-\\\n  client\n"
        + "broker=tcp://h:1883\nclasses=2\nstate.dir=s\ndata.train=d\nencryption=none\nprivacy=fedhdp\n"
        + "dim=100\nepsilon=0.5\n! comment\n").getBytes(StandardCharsets.ISO_8859_1)));
    s.add(seed("unknown-key", (min + "role=ring\nring.order=a\nrounds.max=3\n").getBytes(StandardCharsets.UTF_8)));
    return s;
  }

  private static Seed seed(String name, byte[] bytes) {
    return new Seed(PeerConfigFuzzTest.class, "read", name, bytes);
  }
}
