package io.hdfl.security;

import io.hdfl.fuzz.TestKeys;
import io.hdfl.privacy.ledger.PeerKeys;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A roster directory of fixed test identities for the security fuzz targets: peer-a (the receiver),
 * peer-b and peer-c admitted, peer-r listed in {@code revoked}. Keys are derived from the ids, so
 * the committed seed frames sealed or signed with them stay valid.
 */
final class FuzzRoster {
  static final String FEDERATION = "plant-7";
  static final Path DIR = TestKeys.tempDir("hdfl-fuzz-roster");
  static final Map<String, HopKeys> AGREEMENT = new LinkedHashMap<>();
  static final Map<String, PeerKeys> SIGNING = new LinkedHashMap<>();
  static final Roster ROSTER;

  static {
    try {
      Path secrets = Files.createDirectories(DIR.resolve("secrets"));
      for (String id : new String[] {"peer-a", "peer-b", "peer-c", "peer-r"}) {
        HopKeys kx = TestKeys.agreement(id, secrets);
        PeerKeys sign = TestKeys.signing(id, secrets);
        kx.publish(DIR);
        sign.publish(DIR);
        AGREEMENT.put(id, kx);
        SIGNING.put(id, sign);
      }
      Files.writeString(DIR.resolve(Roster.REVOKED_FILE), "# revoked in the fuzz roster\npeer-r\n");
      ROSTER = Roster.open(DIR);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private FuzzRoster() {}

  /** The cipher of {@code peerId} over this roster. */
  static HopCipher cipher(String peerId, HopAead aead) {
    return new HopCipher(FEDERATION, AGREEMENT.get(peerId), ROSTER, aead);
  }
}
