package io.hdfl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hdfl.privacy.PrivacyParameters;
import io.hdfl.privacy.ledger.LedgerEntry.Source;
import io.hdfl.privacy.ledger.LedgerSimulation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LedgerCommandTest {
  @TempDir Path dir;
  Path ledger;
  Path keys;

  @BeforeEach
  void ledger() throws Exception {
    ledger = dir.resolve("run/ledger.jsonl");
    keys = dir.resolve("run/keys");
    LedgerSimulation.ring(PrivacyParameters.withDelta0(2000, 1.0, 1e-5)).peers(4).rounds(2).samplesPerPeer(50)
        .source(Source.SECURE).build().writeTo(ledger, keys);
  }

  @Test
  void validLedgerExitsZeroWithOneLine() {
    CliRun r = CliRun.of("ledger", "verify", ledger.toString());
    assertEquals(0, r.code(), r.err());
    assertEquals("ledger OK: 8 entries, 4 peers, chain intact, signatures valid, schedule privatedfl conforms",
        r.out().strip());
    assertEquals(1, r.out().lines().count());
    assertEquals("", r.err());

    CliRun explicit = CliRun.of("ledger", "verify", ledger.toString(), "--keys", keys.toString());
    assertEquals(0, explicit.code(), explicit.err());
  }

  @Test
  void jsonOutput() throws Exception {
    CliRun r = CliRun.of("ledger", "verify", ledger.toString(), "--json");
    assertEquals(0, r.code(), r.err());
    JsonNode j = new ObjectMapper().readTree(r.out());
    assertTrue(j.get("ok").asBoolean());
    assertEquals(8, j.get("entries").asInt());
    assertEquals(4, j.get("peers").asInt());
    assertEquals("ring", j.get("topology").asText());
    assertEquals("privatedfl", j.get("schedule").asText());
    assertEquals(0, j.get("seeded_entries").asInt());
  }

  /**
   * A star ledger as its aggregator holds it while the next round waits: a late update is recorded
   * (as it arrived) and the next aggregate, which will name it, is not there yet.
   */
  @Test
  void aStarLedgerEndingWithALateUpdateNotYetNamedIsValidAndSaysSo() throws Exception {
    Path star = dir.resolve("star/ledger.jsonl");
    LedgerSimulation.Result sim = LedgerSimulation.star(PrivacyParameters.perSampleDelta(2000, 1.0)).peers(3).rounds(3)
        .samplesPerPeer(20).late(2, 1).late(3, 2).build();
    sim.writeTo(star, dir.resolve("star/keys"));
    List<String> lines = Files.readAllLines(star);
    assertEquals(12, lines.size());
    Files.write(star, lines.subList(0, 8)); // round 2's aggregate, then client-003's late update of round 2
    CliRun r = CliRun.of("ledger", "verify", star.toString());
    assertEquals(0, r.code(), r.err());
    assertEquals("ledger OK: 8 entries, 4 peers, chain intact, signatures valid, schedule fedhdp conforms; 2 client"
        + " updates recorded late (after their round's aggregate: sent, averaged in no round), 1 of them after the"
        + " last aggregate and not yet named by the next; seeded noise in 8 entries: not for deployment",
        r.out().strip());
    CliRun json = CliRun.of("ledger", "verify", star.toString(), "--json");
    JsonNode j = new ObjectMapper().readTree(json.out());
    assertEquals(2, j.get("late_updates").asInt());
    assertEquals(1, j.get("late_not_yet_named").asInt());
  }

  @Test
  void invalidLedgerExitsOneNamingTheFirstBadEntry() throws Exception {
    List<String> lines = Files.readAllLines(ledger);
    lines.set(2, lines.get(2).replace("\"samples_new\":50,", "\"samples_new\":49,"));
    Files.write(ledger, lines);
    CliRun r = CliRun.of("ledger", "verify", ledger.toString());
    assertEquals(1, r.code(), r.out() + r.err());
    assertEquals("ledger INVALID at line 3 (peer peer-003): signature does not verify under "
        + keys.resolve("peer-003.pub") + " (entry altered or signed by another key)", r.out().strip());
    assertEquals(1, r.out().lines().count());
    assertEquals("", r.err());

    CliRun json = CliRun.of("ledger", "verify", ledger.toString(), "--json");
    assertEquals(1, json.code());
    JsonNode j = new ObjectMapper().readTree(json.out());
    assertEquals(false, j.get("ok").asBoolean());
    assertEquals(3, j.get("line").asInt());
    assertEquals("peer-003", j.get("peer").asText());
    assertEquals("signature", j.get("check").asText());
    assertTrue(j.get("reason").asText().startsWith("signature does not verify"));
  }

  @Test
  void unknownPeerIsAnInvalidLedger() throws Exception {
    Files.delete(keys.resolve("peer-002.pub"));
    CliRun r = CliRun.of("ledger", "verify", ledger.toString());
    assertEquals(1, r.code());
    assertEquals("ledger INVALID at line 2 (peer peer-002): unknown peer: no public key " + keys.resolve("peer-002.pub"),
        r.out().strip());
  }

  @Test
  void userErrorsExitTwo() throws Exception {
    Path missing = dir.resolve("nope.jsonl");
    CliRun noFile = CliRun.of("ledger", "verify", missing.toString());
    assertEquals(2, noFile.code());
    assertEquals("hdfl: error: " + missing + ": no such file", noFile.err().strip());
    assertEquals("", noFile.out());

    CliRun isDir = CliRun.of("ledger", "verify", dir.toString());
    assertEquals(2, isDir.code());
    assertEquals("hdfl: error: " + dir + ": is a directory, not a ledger file", isDir.err().strip());

    Path lonely = dir.resolve("elsewhere/ledger.jsonl");
    Files.createDirectories(lonely.getParent());
    Files.copy(ledger, lonely);
    CliRun noKeys = CliRun.of("ledger", "verify", lonely.toString());
    assertEquals(2, noKeys.code());
    assertEquals("hdfl: error: " + lonely.toAbsolutePath().getParent().resolve("keys")
        + ": keys directory not found (default: keys/ beside the ledger; use --keys DIR)", noKeys.err().strip());

    CliRun badKeys = CliRun.of("ledger", "verify", ledger.toString(), "--keys", dir.resolve("nokeys").toString());
    assertEquals(2, badKeys.code());
    assertEquals("hdfl: error: " + dir.resolve("nokeys") + ": keys directory not found", badKeys.err().strip());

    Files.writeString(keys.resolve("peer-001.pub"), "garbage");
    CliRun corrupt = CliRun.of("ledger", "verify", ledger.toString());
    assertEquals(2, corrupt.code());
    assertEquals("hdfl: error: " + keys.resolve("peer-001.pub") + ": not a public key file (no 'PUBLIC KEY' PEM block)",
        corrupt.err().strip());

    CliRun usage = CliRun.of("ledger", "verify");
    assertEquals(2, usage.code());
  }

  @Test
  void helpListsTheCommand() {
    CliRun top = CliRun.of("--help");
    assertEquals(0, top.code());
    assertTrue(top.out().contains("ledger"), top.out());
    CliRun bare = CliRun.of("ledger");
    assertEquals(0, bare.code());
    assertTrue(bare.out().contains("verify"), bare.out());
  }
}
