package io.hdfl.privacy.ledger;

import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.interfaces.EdECPrivateKey;
import java.security.spec.EdECPrivateKeySpec;
import java.security.spec.NamedParameterSpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * Ed25519 (RFC 8032) signing and verification over raw 32-byte keys, by BouncyCastle's
 * {@code org.bouncycastle.math.ec.rfc8032.Ed25519}. The JDK's own EdDSA takes about 0.85 ms per
 * signature (JDK 17 and 25 on the reference VM); this takes about 0.1 ms, and about half that when the
 * signer's public point is given (a {@link PeerKeys} keeps it), and a ring peer signs once per step on
 * the critical path. Ed25519 signatures are deterministic, so the bytes are those the JDK
 * would produce (tested); keys are still created and stored as the JDK's PKCS#8 / X.509 encodings,
 * which this class unwraps.
 */
final class Ed25519 {
  static final int KEY_BYTES = 32;
  static final int SIGNATURE_BYTES = 64;
  /** DER prefix of an Ed25519 X.509 SubjectPublicKeyInfo: SEQUENCE, AlgorithmIdentifier, BIT STRING(32 bytes). */
  private static final byte[] X509_PREFIX = hex("302a300506032b6570032100");

  private Ed25519() {}

  /**
   * A fresh key pair as JDK key objects: the seed from {@code random}, its public point by
   * BouncyCastle (about 0.05 ms, where the JDK's {@code KeyPairGenerator} takes about 1 ms: a
   * simulation makes one pair per peer before its clock's first round, and the JDK's elliptic-curve
   * code then also has to be compiled while the federation runs).
   */
  static KeyPair generate(SecureRandom random) {
    byte[] seed = new byte[KEY_BYTES];
    random.nextBytes(seed);
    byte[] point = publicPoint(seed);
    try {
      KeyFactory f = KeyFactory.getInstance("Ed25519");
      PrivateKey priv = f.generatePrivate(new EdECPrivateKeySpec(NamedParameterSpec.ED25519, seed));
      byte[] x509 = Arrays.copyOf(X509_PREFIX, X509_PREFIX.length + KEY_BYTES);
      System.arraycopy(point, 0, x509, X509_PREFIX.length, KEY_BYTES);
      PublicKey pub = f.generatePublic(new X509EncodedKeySpec(x509));
      return new KeyPair(pub, priv);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("this JDK has no Ed25519 (needs JDK 15 or newer)", e);
    }
  }

  /** The 32-byte seed of a JDK Ed25519 private key. */
  static byte[] rawPrivate(PrivateKey key) {
    if (key instanceof EdECPrivateKey ed && "Ed25519".equals(ed.getParams().getName())) {
      byte[] seed = ed.getBytes().orElseThrow(() -> new IllegalArgumentException("Ed25519 private key not extractable"));
      if (seed.length == KEY_BYTES) {
        return seed;
      }
    }
    throw new IllegalArgumentException("not an Ed25519 private key");
  }

  /** The 32-byte encoded point of an Ed25519 public key in the X.509 encoding. */
  static byte[] rawPublic(PublicKey key) {
    return unwrap(key.getEncoded(), X509_PREFIX, "X.509 Ed25519 public key");
  }

  /** The 64-byte signature of {@code data} under the private key {@code seed}. */
  static byte[] sign(byte[] seed, byte[] data) {
    return sign(seed, publicPoint(seed), data);
  }

  /**
   * The 64-byte signature of {@code data} under the private key {@code seed} whose encoded public
   * point is {@code point} (from {@link #publicPoint}): the same bytes as {@link #sign(byte[], byte[])},
   * in half the time, since BouncyCastle otherwise derives the point, a second fixed-base scalar
   * multiplication, for every signature. A point that is not the seed's gives an invalid signature.
   */
  static byte[] sign(byte[] seed, byte[] point, byte[] data) {
    byte[] sig = new byte[SIGNATURE_BYTES];
    org.bouncycastle.math.ec.rfc8032.Ed25519.sign(seed, 0, point, 0, data, 0, data.length, sig, 0);
    return sig;
  }

  /**
   * Does the one-time work of this JVM's first key or signature ahead of it: BouncyCastle's
   * fixed-base tables (about 0.17 s of CPU while its code is still interpreted, on the 2-core VMs),
   * the JDK's Ed25519 key factory (its provider lookup, about 17 ms) and the seeding of {@code random}
   * (about 16 ms). Safe to run while keys are made and used on other threads.
   */
  static void prepare(SecureRandom random) {
    org.bouncycastle.math.ec.rfc8032.Ed25519.precompute();
    random.nextBytes(new byte[KEY_BYTES]);
    try {
      KeyFactory.getInstance("Ed25519");
    } catch (GeneralSecurityException e) {
      // generate() says what is missing when a key is asked for
    }
  }

  /** The encoded public point of the private key {@code seed}. */
  static byte[] publicPoint(byte[] seed) {
    byte[] point = new byte[KEY_BYTES];
    org.bouncycastle.math.ec.rfc8032.Ed25519.generatePublicKey(seed, 0, point, 0);
    return point;
  }

  /**
   * Whether {@code sig} is a valid signature of {@code data} under the encoded public point {@code
   * publicKey}: RFC 8032 §5.1.7 with a canonical S and a valid point; false for any malformed input.
   */
  static boolean verify(byte[] publicKey, byte[] data, byte[] sig) {
    if (publicKey.length != KEY_BYTES || sig.length != SIGNATURE_BYTES) {
      return false;
    }
    return org.bouncycastle.math.ec.rfc8032.Ed25519.verify(sig, 0, publicKey, 0, data, 0, data.length);
  }

  private static byte[] unwrap(byte[] der, byte[] prefix, String what) {
    if (der == null || der.length != prefix.length + KEY_BYTES
        || !Arrays.equals(der, 0, prefix.length, prefix, 0, prefix.length)) {
      throw new IllegalArgumentException("not a " + what);
    }
    return Arrays.copyOfRange(der, prefix.length, der.length);
  }

  private static byte[] hex(String s) {
    return HexFormat.of().parseHex(s);
  }
}
