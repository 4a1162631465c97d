package io.hdfl.privacy.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.hdfl.fuzz.Contract;
import io.hdfl.fuzz.Seed;
import io.hdfl.fuzz.TestKeys;
import io.hdfl.privacy.PrivacyParameters;
import io.hdfl.privacy.ledger.LedgerEntry.Topology;
import io.hdfl.privacy.ledger.Verification.Check;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Fuzz targets of the ledger readers: {@link LedgerCodec} on one line (as it travels with a model),
 * and {@link LedgerReader} + {@link LedgerVerifier} on a whole file ({@code hdfl ledger verify}),
 * once as given and once re-signed and re-chained with the fixed test keys so that the fuzzer
 * reaches the schedule conformance checks behind the signatures. Only {@link LedgerFormatException}
 * may escape the codec, nothing the verifier (its findings are a failed {@link Verification} with a
 * one-line reason); whatever parses can be written back canonically, and a re-signed ledger can
 * fail only on conformance.
 */
public class LedgerFuzzTest {
  static final PrivacyParameters PARAMS = PrivacyParameters.withDelta0(100, 1.0, 1e-5);
  static final List<String> PEERS = List.of("peer-001", "peer-002", "peer-003", "client-001", "client-002", "server");
  static final Path DIR = TestKeys.tempDir("hdfl-fuzz-ledger");
  static final Map<String, PeerKeys> KEYS = new LinkedHashMap<>();
  static final KeyDirectory KEY_DIR;
  /** A syntactically valid signature for re-serialized lines. */
  private static final String SIG = "A".repeat(86) + "==";

  static {
    try {
      Path secrets = Files.createDirectories(DIR.resolve("secrets"));
      Path keys = Files.createDirectories(DIR.resolve("keys"));
      for (String id : PEERS) {
        PeerKeys k = TestKeys.signing(id, secrets);
        k.publish(keys);
        KEYS.put(id, k);
      }
      KEY_DIR = KeyDirectory.open(keys);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @FuzzTest(maxDuration = "60s")
  void parseLine(byte[] data) throws Exception {
    String line = new String(data, StandardCharsets.UTF_8);
    Contract.allocatesAtMost((1 << 20) + 64L * data.length, "parsing a line of " + data.length + " bytes",
        () -> checkLine(line));
  }

  static void checkLine(String line) {
    try {
      LedgerCodec.Split split = LedgerCodec.split(line);
      assertEquals(line, LedgerCodec.line(split.body(), split.signature()));
    } catch (LedgerFormatException e) {
      Contract.oneLine(e);
    }
    try {
      assertTrue(LedgerEntry.isHash(LedgerCodec.prevHashOf(line)));
    } catch (LedgerFormatException e) {
      Contract.oneLine(e);
    }
    LedgerEntry e;
    try {
      e = LedgerCodec.parse(line);
    } catch (LedgerFormatException ex) {
      Contract.oneLine(ex);
      return;
    }
    // Whatever a reader accepts, a signer can write, and its canonical text is a fixed point.
    String body = LedgerCodec.body(e);
    LedgerEntry again = LedgerCodec.parse(LedgerCodec.line(body, SIG));
    assertEquals(body, LedgerCodec.body(again));
    assertEquals(SIG, again.signature());
  }

  @FuzzTest(maxDuration = "60s")
  void verifyFile(byte[] data) throws Exception {
    Contract.allocatesAtMost((2 << 20) + 64L * data.length, "verifying " + data.length + " bytes",
        () -> checkVerification(verify(data)));
  }

  @FuzzTest(maxDuration = "60s")
  void verifyResigned(byte[] data) throws Exception {
    Contract.allocatesAtMost((2 << 20) + 64L * data.length, "verifying " + data.length + " re-signed bytes", () -> {
      Resigned r = resign(new String(data, StandardCharsets.ISO_8859_1));
      Verification v = verify(r.text().getBytes(StandardCharsets.ISO_8859_1));
      checkVerification(v);
      if (r.all() && !v.ok()) {
        // Signed by the key of its peer and chained as the verifier documents: only the numbers can fail.
        assertEquals(Check.CONFORMANCE, v.failedCheck(), v::summary);
      }
    });
  }

  static Verification verify(byte[] data) throws IOException {
    Path file = DIR.resolve("ledger.jsonl");
    Files.write(file, data);
    return new LedgerVerifier(KEY_DIR).verify(file);
  }

  static void checkVerification(Verification v) {
    String summary = v.summary();
    assertTrue(!summary.contains("\n") && !summary.contains("\r"), summary);
    if (v.ok()) {
      assertTrue(v.entries() >= 1 && v.badLine() == 0, summary);
      assertNull(v.reason());
      assertNull(v.failedCheck());
      assertNotNull(v.federation());
    } else {
      assertNotNull(v.failedCheck(), summary);
      assertNotNull(v.reason(), summary);
      assertTrue(!v.reason().isBlank() && v.entries() >= v.badLine(), summary);
    }
  }

  /** The re-signed text, and whether every line was re-signed. */
  record Resigned(String text, boolean all) {}

  /**
   * Every line that parses and names a peer with a test key gets the prev_hash the verifier
   * expects, contributors renamed to the re-signed lines' hashes, and that peer's signature; other
   * lines stay as they are.
   */
  static Resigned resign(String text) {
    StringBuilder out = new StringBuilder();
    Map<String, String> renamed = new HashMap<>();
    String prev = LedgerEntry.GENESIS_HASH;
    String lastAggregate = LedgerEntry.GENESIS_HASH;
    Topology topology = null;
    boolean all = true;
    String[] lines = text.split("\n", -1);
    int n = text.endsWith("\n") ? lines.length - 1 : lines.length;
    for (int i = 0; i < n; i++) {
      String line = lines[i];
      LedgerEntry e;
      try {
        e = LedgerCodec.parse(line);
      } catch (LedgerFormatException ex) {
        e = null;
      }
      PeerKeys key = e == null ? null : KEYS.get(e.peer());
      if (key == null) {
        all = false;
        out.append(line).append('\n');
        continue;
      }
      if (topology == null) {
        topology = e.topology();
      }
      boolean starUpdate = topology == Topology.STAR && e.kind() == LedgerEntry.Kind.UPDATE;
      List<String> contributors = new ArrayList<>();
      for (String h : e.contributors()) {
        contributors.add(renamed.getOrDefault(h, h));
      }
      LedgerEntry chained = new LedgerEntry(e.version(), e.federation(), e.peer(), e.kind(), e.topology(), e.round(),
          e.step(), e.samplesNew(), e.samplesTotal(), e.sensitivityScale(), e.requiredVariance(), e.presentBefore(),
          e.addedVariance(), e.presentAfter(), e.epsilon(), e.delta0(), e.dim(), e.schedule(), e.source(),
          e.notForDeployment(), contributors, e.reason(), starUpdate ? lastAggregate : prev, e.timestamp(), null);
      String body = LedgerCodec.body(chained);
      String signed = LedgerCodec.line(body, key.sign(LedgerCodec.signedBytes(body)));
      String hash = LedgerCodec.hash(signed);
      renamed.put(LedgerCodec.hash(line), hash);
      prev = hash;
      if (e.kind() == LedgerEntry.Kind.AGGREGATE) {
        lastAggregate = hash;
      }
      out.append(signed).append('\n');
    }
    if (!text.endsWith("\n") && n > 0) {
      all = false; // a torn last line stays torn
      out.setLength(out.length() - 1);
    }
    return new Resigned(out.toString(), all && n > 0);
  }

  /** Small valid ledgers signed with the fixed keys, and lines of every shape, for the committed corpus. */
  public static List<Seed> seeds() throws IOException {
    Clock clock = Clock.fixed(Instant.parse("2025-01-31T12:00:00Z"), ZoneOffset.UTC);
    LedgerSimulation.Result ring = LedgerSimulation.ring(PARAMS).federation("plant-7").peers(3).rounds(2)
        .samplesPerPeer(40).keys(KEYS).clock(clock).build();
    LedgerSimulation.Result star = LedgerSimulation.star(PARAMS).federation("plant-7").peers(2).rounds(2)
        .samplesPerPeer(30).keys(KEYS).clock(clock).build();
    List<String> ringLines = ring.ledger().lines().stream().map(LedgerLine::text).toList();
    List<String> starLines = star.ledger().lines().stream().map(LedgerLine::text).toList();
    for (String id : ring.keys().keySet()) {
      assertTrue(KEYS.containsKey(id), id);
    }
    List<Seed> s = new ArrayList<>();
    s.add(seed("parseLine", "ring-update", ringLines.get(0)));
    s.add(seed("parseLine", "star-aggregate", starLines.get(2)));
    s.add(seed("parseLine", "escaped-reason", ringLines.get(1).replace("\"reason\":\"",
        "\"reason\":\"caf\\u00e9 \\\"quoted\\\" \\\\ ")));
    s.add(seed("parseLine", "not-json", "{\"v\":1,\"federation\":"));
    String ringFile = String.join("\n", ringLines) + "\n";
    String starFile = String.join("\n", starLines) + "\n";
    assertTrue(verify(ringFile.getBytes(StandardCharsets.US_ASCII)).ok());
    assertTrue(verify(starFile.getBytes(StandardCharsets.US_ASCII)).ok());
    for (String method : List.of("verifyFile", "verifyResigned")) {
      s.add(seed(method, "ring-3x2", ringFile));
      s.add(seed(method, "star-2x2", starFile));
      s.add(seed(method, "torn-last-line", ringFile.substring(0, ringFile.length() - 40)));
      s.add(seed(method, "reordered", String.join("\n", ringLines.get(1), ringLines.get(0)) + "\n"));
    }
    s.add(seed("verifyResigned", "tampered-variance",
        ringFile.replaceFirst("\"variance_added\":[0-9.E-]+", "\"variance_added\":0.5")));
    assertNotEquals(ringFile, ringFile.replaceFirst("\"variance_added\":[0-9.E-]+", "\"variance_added\":0.5"));
    return s;
  }

  private static Seed seed(String method, String name, String text) {
    return new Seed(LedgerFuzzTest.class, method, name, text.getBytes(StandardCharsets.UTF_8));
  }
}
