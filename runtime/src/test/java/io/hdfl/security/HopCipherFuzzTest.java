package io.hdfl.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.hdfl.codec.EnvelopeCodec;
import io.hdfl.codec.EnvelopeFuzzTest;
import io.hdfl.codec.Expectations;
import io.hdfl.codec.ModelEnvelope;
import io.hdfl.codec.ModelEnvelope.Kind;
import io.hdfl.fuzz.Contract;
import io.hdfl.fuzz.Seed;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * Fuzz target of {@link HopCipher#open}: every sealed frame peer-a receives, opened against a
 * roster directory ({@link FuzzRoster}). Only {@link SealException} may escape (never the
 * IllegalStateException of a cipher failure); a frame opens only if an admitted, unrevoked peer
 * sealed it for peer-a, it then carries exactly the ciphertext's plaintext, a second copy is refused
 * as a replay, and the opened frame goes through {@link EnvelopeFuzzTest#check}.
 */
public class HopCipherFuzzTest {
  private static final Set<String> ADMITTED = Set.of("peer-a", "peer-b", "peer-c");

  @FuzzTest(maxDuration = "60s")
  void open(byte[] sealed) throws Exception {
    Contract.allocatesAtMost((1 << 20) + 16L * sealed.length, "opening " + sealed.length + " bytes",
        () -> check(sealed));
  }

  static void check(byte[] sealed) {
    HopCipher me = FuzzRoster.cipher("peer-a", HopAead.AES_256_GCM); // fresh: no replay window yet
    HopCipher.Opened o;
    try {
      o = me.open(sealed);
    } catch (SealException e) {
      Contract.oneLine(e);
      assertNotNull(e.reason());
      return;
    }
    assertTrue(ADMITTED.contains(o.sender()), o.sender());
    int header = 4 + 3 + o.sender().length() + 1 + "peer-a".length() + HopCipher.NONCE_BYTES;
    assertEquals(sealed.length - header - HopCipher.TAG_BYTES, o.frame().length);
    SealException replay = assertThrows(SealException.class, () -> me.open(sealed));
    assertEquals(SealException.Reason.REPLAYED, replay.reason());
    EnvelopeFuzzTest.check(o.frame(), Expectations.defaults());
  }

  /** Valid frames sealed with the fixed keys, and frames each refused for another reason. */
  public static List<Seed> seeds() throws SealException {
    byte[] frame = EnvelopeCodec.encode(new ModelEnvelope(Kind.RING_MODEL, FuzzRoster.FEDERATION, "peer-b", 1, 3,
        "cos", 617, 42, 4, 2, 0.5, 100, List.of(), null, new float[] {1, -2, 3, -4, 0.5f, 0, 7, 8}));
    byte[] ack = EnvelopeCodec.encode(new ModelEnvelope(Kind.ACK, FuzzRoster.FEDERATION, "peer-b", 1, 3, "", 0, 0,
        0, 0, 0, 0, List.of(), null, null));
    List<Seed> s = new ArrayList<>();
    s.add(seed("aes-gcm-from-peer-b", FuzzRoster.cipher("peer-b", HopAead.AES_256_GCM).seal("peer-a", frame)));
    s.add(seed("chacha20-from-peer-b", FuzzRoster.cipher("peer-b", HopAead.CHACHA20_POLY1305).seal("peer-a", ack)));
    s.add(seed("aes-gcm-from-peer-c", FuzzRoster.cipher("peer-c", HopAead.AES_256_GCM).seal("peer-a", ack)));
    s.add(seed("for-peer-c", FuzzRoster.cipher("peer-b", HopAead.AES_256_GCM).seal("peer-c", frame)));
    s.add(seed("from-revoked-peer-r", new HopCipher(FuzzRoster.FEDERATION, FuzzRoster.AGREEMENT.get("peer-r"),
        Roster.of(java.util.Map.of("peer-a", FuzzRoster.AGREEMENT.get("peer-a").publicKey())),
        HopAead.AES_256_GCM).seal("peer-a", ack)));
    byte[] altered = FuzzRoster.cipher("peer-b", HopAead.AES_256_GCM).seal("peer-a", ack);
    altered[altered.length - 1] ^= 1;
    s.add(seed("altered-tag", altered));
    byte[] cut = FuzzRoster.cipher("peer-b", HopAead.CHACHA20_POLY1305).seal("peer-a", ack);
    s.add(seed("truncated-header", Arrays.copyOf(cut, 12)));
    s.add(seed("unencrypted", ack));
    s.add(seed("not-a-frame", "HDFS\u0001\u0009junk".getBytes(StandardCharsets.ISO_8859_1)));
    return s;
  }

  private static Seed seed(String name, byte[] bytes) {
    return new Seed(HopCipherFuzzTest.class, "open", name, bytes);
  }
}
