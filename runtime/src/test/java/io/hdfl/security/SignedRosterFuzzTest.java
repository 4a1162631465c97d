package io.hdfl.security;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.hdfl.fuzz.Contract;
import io.hdfl.fuzz.Seed;
import io.hdfl.fuzz.TestKeys;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * Fuzz target of {@link SignedRoster#parse} (a roster file on a device), once as given and once with
 * its body re-signed by the fixed test federation key, so that mutations reach the line checks behind
 * the signature. Only {@link IllegalArgumentException} may escape, with one line naming the source;
 * allocations stay within a small multiple of the input; what is accepted is canonical: signing its
 * content again gives the same bytes.
 */
public class SignedRosterFuzzTest {
  private static final Path DIR = TestKeys.tempDir("hdfl-fuzz-roster");
  static final FederationKey KEY;

  static {
    try {
      TestKeys.signing("federation-key", DIR);
      KEY = FederationKey.load(DIR.resolve("federation-key.sign.key"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @FuzzTest(maxDuration = "60s")
  void parse(byte[] data) throws Exception {
    byte[] resigned = resigned(data);
    Contract.allocatesAtMost((1 << 20) + 32L * data.length, "parsing a roster of " + data.length + " bytes", () -> {
      check(data);
      check(resigned);
    });
  }

  /** {@code data} with its last line replaced by the test key's signature of everything before it. */
  static byte[] resigned(byte[] data) {
    int end = data.length;
    if (end > 0 && data[end - 1] == '\n') {
      end--;
    }
    while (end > 0 && data[end - 1] != '\n') {
      end--;
    }
    byte[] body = Arrays.copyOf(data, end);
    byte[] sig = ("signature " + java.util.Base64.getEncoder().encodeToString(KEY.sign(body)) + "\n")
        .getBytes(StandardCharsets.US_ASCII);
    byte[] out = Arrays.copyOf(body, body.length + sig.length);
    System.arraycopy(sig, 0, out, body.length, sig.length);
    return out;
  }

  private static void check(byte[] data) {
    SignedRoster r;
    try {
      r = SignedRoster.parse("roster.signed", data, KEY.publicKey());
    } catch (IllegalArgumentException e) {
      Contract.oneLineAbout(e, "roster.signed");
      return;
    }
    byte[] again = SignedRoster.sign(r.federation(), r.version(), r.issued(), new ArrayList<>(r.members().values()),
        r.revoked(), KEY);
    assertArrayEquals(data, again);
  }

  /** Signed rosters and broken ones, for the committed corpus. */
  public static List<Seed> seeds() {
    List<Seed> s = new ArrayList<>();
    List<SignedRoster.Member> members = new ArrayList<>();
    for (String id : List.of("press-01", "press-02", "press-03")) {
      members.add(new SignedRoster.Member(id, TestKeys.signing(id, DIR).publicKey(),
          TestKeys.agreement(id, DIR).publicKey()));
    }
    Instant issued = Instant.parse("2026-01-15T09:30:00Z");
    byte[] ok = SignedRoster.sign("plant-7", 3, issued, members, Set.of("press-09"), KEY);
    s.add(seed("three-members-one-revoked", ok));
    s.add(seed("empty", SignedRoster.sign("plant-7", 0, issued, List.of(), Set.of(), KEY)));
    byte[] flipped = ok.clone();
    flipped[40] ^= 0x01;
    s.add(seed("altered", flipped));
    s.add(seed("unsigned", Arrays.copyOf(ok, ok.length - 100)));
    return s;
  }

  private static Seed seed(String name, byte[] bytes) {
    return new Seed(SignedRosterFuzzTest.class, "parse", name, bytes);
  }
}
