package io.hdfl.security;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hdfl.security.SealException.Reason;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class HopCipherTest {
  private static final HopKeys A = HopKeys.generate("peer-a");
  private static final HopKeys B = HopKeys.generate("peer-b");
  private static final HopKeys C = HopKeys.generate("peer-c");
  private static final Roster ROSTER =
      Roster.of(Map.of("peer-a", A.publicKey(), "peer-b", B.publicKey(), "peer-c", C.publicKey()));

  private static HopCipher cipher(HopKeys k, HopAead aead) {
    return new HopCipher("plant-7", k, ROSTER, aead);
  }

  private static byte[] frame(int n, long seed) {
    byte[] f = new byte[n];
    new SplittableRandom(seed).nextBytes(f);
    f[0] = 'H';
    f[1] = 'D';
    f[2] = 'F';
    f[3] = 'M';
    return f;
  }

  private static Reason reason(HopCipher c, byte[] sealed) {
    return assertThrows(SealException.class, () -> c.open(sealed)).reason();
  }

  @ParameterizedTest
  @EnumSource(HopAead.class)
  void theRecipientOpensWhatTheSenderSealedAndLearnsWhoSealedIt(HopAead aead) throws Exception {
    byte[] f = frame(100_000, 1);
    byte[] sealed = cipher(A, aead).seal("peer-b", f);
    assertTrue(HopCipher.isSealed(sealed));
    assertEquals(f.length + 4 + 3 + 6 + 1 + 6 + 12 + 16, sealed.length);
    HopCipher.Opened o = cipher(B, aead).open(sealed);
    assertEquals("peer-a", o.sender());
    assertArrayEquals(f, o.frame());
    // the plaintext does not appear in the sealed bytes
    byte[] window = Arrays.copyOfRange(f, 1000, 1032);
    for (int i = 0; i + window.length <= sealed.length; i++) {
      assertFalse(Arrays.equals(sealed, i, i + window.length, window, 0, window.length));
    }
    // sealing twice gives different bytes (fresh nonce)
    assertFalse(Arrays.equals(sealed, cipher(A, aead).seal("peer-b", f)));
  }

  @Test
  void aPeerOpensEitherCipher() throws Exception {
    byte[] f = frame(300, 2);
    HopCipher b = cipher(B, HopAead.AES_256_GCM);
    assertArrayEquals(f, b.open(cipher(A, HopAead.CHACHA20_POLY1305).seal("peer-b", f)).frame());
    assertArrayEquals(f, b.open(cipher(A, HopAead.AES_256_GCM).seal("peer-b", f)).frame());
  }

  @Test
  void anotherPeerCannotOpenIt() throws Exception {
    byte[] sealed = cipher(A, HopAead.AES_256_GCM).seal("peer-b", frame(500, 3));
    HopCipher c = cipher(C, HopAead.AES_256_GCM);
    assertEquals(Reason.NOT_FOR_THIS_PEER, reason(c, sealed));
    // rewriting the recipient to itself does not help: the header is authenticated, and the key differs
    byte[] redirected = sealed.clone();
    redirected[4 + 3 + 6 + 1 + 5] = 'c';
    assertEquals(Reason.AUTHENTICATION_FAILED, reason(c, redirected));
    // nor does claiming another sender towards the right recipient
    byte[] spoofed = sealed.clone();
    spoofed[4 + 3 + 5] = 'c';
    assertEquals(Reason.AUTHENTICATION_FAILED, reason(cipher(B, HopAead.AES_256_GCM), spoofed));
  }

  @Test
  void everyAlteredByteIsRejected() throws Exception {
    byte[] sealed = cipher(A, HopAead.CHACHA20_POLY1305).seal("peer-b", frame(64, 4));
    for (int i = 0; i < sealed.length; i++) {
      byte[] bad = sealed.clone();
      bad[i] ^= 0x01;
      HopCipher b = cipher(B, HopAead.CHACHA20_POLY1305);
      assertThrows(SealException.class, () -> b.open(bad), "byte " + i);
    }
    for (int n = 0; n < sealed.length; n++) {
      byte[] cut = Arrays.copyOf(sealed, n);
      HopCipher b = cipher(B, HopAead.CHACHA20_POLY1305);
      assertThrows(SealException.class, () -> b.open(cut), "length " + n);
    }
  }

  @Test
  void aReplayIsRefused() throws Exception {
    byte[] sealed = cipher(A, HopAead.AES_256_GCM).seal("peer-b", frame(64, 5));
    HopCipher b = cipher(B, HopAead.AES_256_GCM);
    b.open(sealed);
    assertEquals(Reason.REPLAYED, reason(b, sealed));
  }

  @Test
  void unencryptedFramesAndStrangersAreRefused() throws Exception {
    HopCipher b = cipher(B, HopAead.AES_256_GCM);
    assertEquals(Reason.UNENCRYPTED, reason(b, frame(64, 6)));
    HopKeys stranger = HopKeys.generate("peer-x");
    Roster withStranger = Roster.of(Map.of("peer-b", B.publicKey(), "peer-x", stranger.publicKey()));
    byte[] sealed = new HopCipher("plant-7", stranger, withStranger, HopAead.AES_256_GCM).seal("peer-b", frame(64, 7));
    assertEquals(Reason.NOT_ADMITTED, reason(b, sealed));
    assertEquals(Reason.NOT_ADMITTED,
        assertThrows(SealException.class, () -> cipher(A, HopAead.AES_256_GCM).seal("peer-x", frame(8, 8))).reason());
  }

  @Test
  void keysAreSeparatedByFederation() throws Exception {
    byte[] sealed = new HopCipher("plant-8", A, ROSTER, HopAead.AES_256_GCM).seal("peer-b", frame(64, 9));
    assertEquals(Reason.AUTHENTICATION_FAILED, reason(cipher(B, HopAead.AES_256_GCM), sealed));
  }

  @Test
  void revokedPeersInARosterDirectoryAreRefused(@TempDir Path dir) throws Exception {
    A.publish(dir);
    B.publish(dir);
    Files.writeString(dir.resolve(Roster.REVOKED_FILE), "# lost on 2026-11-20\npeer-a\n");
    Roster roster = Roster.open(dir);
    byte[] sealed = cipher(A, HopAead.AES_256_GCM).seal("peer-b", frame(64, 10));
    HopCipher b = new HopCipher("plant-7", B, roster, HopAead.AES_256_GCM);
    assertEquals(Reason.NOT_ADMITTED, reason(b, sealed));
    Files.writeString(dir.resolve(Roster.REVOKED_FILE), "");
    HopCipher b2 = new HopCipher("plant-7", B, Roster.open(dir), HopAead.AES_256_GCM);
    assertEquals("peer-a", b2.open(sealed).sender());
    Files.writeString(dir.resolve(Roster.REVOKED_FILE), "not an id!\n");
    assertThrows(IllegalArgumentException.class, () -> Roster.open(dir));
  }

  /** RFC 5869, Test Case 1 (first 32 of the 42 output bytes). */
  @Test
  void hkdfMatchesRfc5869() {
    HexFormat hex = HexFormat.of();
    byte[] okm = HopCipher.hkdf(hex.parseHex("000102030405060708090a0b0c"), hex.parseHex("0b".repeat(22)),
        hex.parseHex("f0f1f2f3f4f5f6f7f8f9"));
    assertEquals("3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf", hex.formatHex(okm));
  }

  @Test
  void cipherNamesParseAndAutoIsChaCha20Poly1305() {
    assertEquals(HopAead.CHACHA20_POLY1305, HopAead.parse("auto"));
    assertEquals(HopAead.AES_256_GCM, HopAead.parse(" AES-GCM "));
    assertEquals(HopAead.CHACHA20_POLY1305, HopAead.parse("ChaCha20-Poly1305"));
    assertThrows(IllegalArgumentException.class, () -> HopAead.parse("des"));
  }

  @Test
  void hopKeysSurviveAFileRoundTripAndRefuseOpenPermissions(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("peer-a.kx");
    A.savePrivate(file);
    HopKeys loaded = HopKeys.load("peer-a", file);
    assertArrayEquals(A.publicKey().getEncoded(), loaded.publicKey().getEncoded());
    byte[] sealed = new HopCipher("plant-7", loaded, ROSTER, HopAead.AES_256_GCM).seal("peer-b", frame(32, 11));
    assertEquals("peer-a", cipher(B, HopAead.AES_256_GCM).open(sealed).sender());
    Files.setPosixFilePermissions(file, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> HopKeys.load("peer-a", file)).getMessage()
        .contains("chmod 600"));
    // halves from two different pairs
    Path mixed = dir.resolve("mixed.kx");
    String text = Files.readString(file, StandardCharsets.US_ASCII);
    String otherPublic = io.hdfl.io.Pem.encode("PUBLIC KEY", B.publicKey().getEncoded());
    Files.writeString(mixed, text.substring(0, text.indexOf("-----BEGIN PUBLIC KEY")) + otherPublic);
    Files.setPosixFilePermissions(mixed, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> HopKeys.load("peer-a", mixed)).getMessage()
        .contains("do not belong together"));
  }
}
