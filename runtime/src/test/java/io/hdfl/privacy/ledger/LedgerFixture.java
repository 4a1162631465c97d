package io.hdfl.privacy.ledger;

import io.hdfl.privacy.PrivacyParameters;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** A simulated ledger as lines of text plus its keys, and a way to verify edited copies. */
final class LedgerFixture {
  static final PrivacyParameters PARAMS = PrivacyParameters.withDelta0(2000, 1.0, 1e-5);

  final List<String> lines;
  final Map<String, PeerKeys> keys;
  private final Path dir;
  private int files;

  LedgerFixture(LedgerSimulation.Result r, Path dir) throws IOException {
    this.lines = new ArrayList<>();
    for (LedgerLine l : r.ledger().lines()) {
      lines.add(l.text());
    }
    this.keys = r.keys();
    this.dir = dir;
    for (PeerKeys k : keys.values()) {
      k.publish(keysDir());
    }
  }

  /** K = 4 ring peers, 3 rounds, 100 samples each: 12 entries. */
  static LedgerFixture ring(Path dir) throws IOException {
    return new LedgerFixture(LedgerSimulation.ring(PARAMS).peers(4).rounds(3).samplesPerPeer(100).build(), dir);
  }

  /** K = 3 star clients, 3 rounds, 50 samples per round: lines 4, 8 and 12 are the server's aggregates. */
  static LedgerFixture star(Path dir) throws IOException {
    return new LedgerFixture(LedgerSimulation.star(PARAMS).peers(3).rounds(3).samplesPerPeer(50).build(), dir);
  }

  Path keysDir() {
    return dir.resolve("keys");
  }

  /** 0-based line {@code index}. */
  String line(int index) {
    return lines.get(index);
  }

  PeerKeys keyOf(String line) {
    return keys.get(Tamper.peer(line));
  }

  /** Writes {@code text} (lines, each with a newline) to a new file and verifies it. */
  Verification verify(List<String> text) throws IOException {
    StringBuilder b = new StringBuilder();
    for (String l : text) {
      b.append(l).append('\n');
    }
    return verifyRaw(b.toString());
  }

  /** Verifies a file holding exactly {@code content}. */
  Verification verifyRaw(String content) throws IOException {
    Path f = dir.resolve("ledger-" + (files++) + ".jsonl");
    Files.writeString(f, content);
    return new LedgerVerifier(KeyDirectory.open(keysDir())).verify(f);
  }

  /** The lines with line {@code index} replaced (not re-signed). */
  List<String> with(int index, String replacement) {
    List<String> out = new ArrayList<>(lines);
    out.set(index, replacement);
    return out;
  }
}
