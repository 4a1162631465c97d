package io.hdfl.privacy.ledger;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.util.HexFormat;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class Ed25519Test {
  @TempDir java.nio.file.Path dir;

  /** {@code pair} as a peer's private key file (what {@link PeerKeys#load} reads). */
  private java.nio.file.Path saved(KeyPair pair) throws java.io.IOException {
    java.nio.file.Path file = dir.resolve("k" + System.nanoTime() + ".pem");
    io.hdfl.io.KeyPairFile.write(file, pair);
    return file;
  }

  private static byte[] hex(String s) {
    return HexFormat.of().parseHex(s);
  }

  /** RFC 8032 §7.1, TEST 2 (one-byte message) and TEST 3 (two-byte message). */
  @Test
  void matchesTheRfc8032TestVectors() {
    byte[] seed2 = hex("4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb");
    byte[] pub2 = hex("3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c");
    byte[] sig2 = hex("92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da"
        + "085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00");
    assertArrayEquals(sig2, Ed25519.sign(seed2, hex("72")));
    assertArrayEquals(pub2, Ed25519.publicPoint(seed2));
    assertArrayEquals(sig2, Ed25519.sign(seed2, pub2, hex("72")), "with the point given: the same bytes");
    assertTrue(Ed25519.verify(pub2, hex("72"), sig2));

    byte[] seed3 = hex("c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7");
    byte[] pub3 = hex("fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025");
    byte[] sig3 = hex("6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac"
        + "18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a");
    assertArrayEquals(sig3, Ed25519.sign(seed3, hex("af82")));
    assertArrayEquals(sig3, Ed25519.sign(seed3, Ed25519.publicPoint(seed3), hex("af82")));
    assertTrue(Ed25519.verify(pub3, hex("af82"), sig3));
    assertFalse(Ed25519.verify(pub3, hex("af82"), Ed25519.sign(seed3, pub2, hex("af82"))),
        "signed with a point that is not the seed's: invalid");
    assertFalse(Ed25519.verify(pub3, hex("af83"), sig3), "another message");
    assertFalse(Ed25519.verify(pub2, hex("af82"), sig3), "another key");
  }

  @Test
  void signsExactlyAsTheJdkAndVerifiesTheJdksSignatures() throws Exception {
    Random random = new Random(7);
    for (int i = 0; i < 20; i++) {
      KeyPair pair = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
      byte[] data = new byte[random.nextInt(700)];
      random.nextBytes(data);
      Signature jdk = Signature.getInstance("Ed25519");
      jdk.initSign(pair.getPrivate());
      jdk.update(data);
      byte[] jdkSig = jdk.sign();
      byte[] ours = Ed25519.sign(Ed25519.rawPrivate(pair.getPrivate()), data);
      assertArrayEquals(jdkSig, ours, "Ed25519 is deterministic: the same key and message give the same bytes");
      assertArrayEquals(jdkSig, PeerKeys.load("p" + i, saved(pair)).signature(data), "a peer's keys sign as the JDK");
      assertTrue(Ed25519.verify(Ed25519.rawPublic(pair.getPublic()), data, jdkSig));
      Signature check = Signature.getInstance("Ed25519");
      check.initVerify(pair.getPublic());
      check.update(data);
      assertTrue(check.verify(ours));
    }
  }

  @Test
  void generatedPairsAreTheJdksPairsForTheirSeed() throws Exception {
    java.security.SecureRandom random = new java.security.SecureRandom();
    for (int i = 0; i < 20; i++) {
      KeyPair pair = Ed25519.generate(random);
      byte[] data = ("message " + i).getBytes(StandardCharsets.US_ASCII);
      // the JDK, given only the private key, signs with the public point it derives itself: its
      // signature verifies under the generated public key only if that key is the seed's
      Signature jdk = Signature.getInstance("Ed25519");
      jdk.initSign(pair.getPrivate());
      jdk.update(data);
      byte[] sig = jdk.sign();
      Signature check = Signature.getInstance("Ed25519");
      check.initVerify(pair.getPublic());
      check.update(data);
      assertTrue(check.verify(sig));
      assertArrayEquals(sig, Ed25519.sign(Ed25519.rawPrivate(pair.getPrivate()), data));
    }
    // the seed is the SecureRandom's bytes: a fixed source gives the RFC 8032 key of that seed
    byte[] seed = hex("4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb");
    java.security.SecureRandom fixed = new java.security.SecureRandom() {
      @Override
      public void nextBytes(byte[] bytes) {
        System.arraycopy(seed, 0, bytes, 0, bytes.length);
      }
    };
    KeyPair rfc = Ed25519.generate(fixed);
    assertArrayEquals(hex("3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c"),
        Ed25519.rawPublic(rfc.getPublic()));
    assertArrayEquals(seed, Ed25519.rawPrivate(rfc.getPrivate()));
  }

  @Test
  void rejectsMalformedSignaturesAndKeys() throws Exception {
    KeyPair pair = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
    byte[] pub = Ed25519.rawPublic(pair.getPublic());
    byte[] data = "entry".getBytes(StandardCharsets.US_ASCII);
    byte[] sig = Ed25519.sign(Ed25519.rawPrivate(pair.getPrivate()), data);
    assertFalse(Ed25519.verify(pub, data, new byte[63]));
    assertFalse(Ed25519.verify(new byte[31], data, sig));
    byte[] flipped = sig.clone();
    flipped[40] ^= 1;
    assertFalse(Ed25519.verify(pub, data, flipped));
    // S + L (non-canonical scalar) must not verify, as RFC 8032 §5.1.7 requires
    byte[] nonCanonical = sig.clone();
    byte[] l = hex("edd3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010");
    int carry = 0;
    for (int i = 0; i < 32; i++) {
      int v = (nonCanonical[32 + i] & 0xff) + (l[i] & 0xff) + carry;
      nonCanonical[32 + i] = (byte) v;
      carry = v >> 8;
    }
    assertFalse(Ed25519.verify(pub, data, nonCanonical));

    KeyPair ec = KeyPairGenerator.getInstance("EC").generateKeyPair();
    assertThrows(IllegalArgumentException.class, () -> Ed25519.rawPrivate(ec.getPrivate()));
    assertThrows(IllegalArgumentException.class, () -> Ed25519.rawPublic(ec.getPublic()));
    assertEquals(32, Ed25519.rawPublic(pair.getPublic()).length);
  }
}
