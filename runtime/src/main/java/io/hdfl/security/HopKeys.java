package io.hdfl.security;

import io.hdfl.io.AtomicFile;
import io.hdfl.io.KeyPairFile;
import io.hdfl.io.Pem;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;

/**
 * A peer's X25519 key-agreement pair, the key its model hops are encrypted to (its Ed25519 signing
 * identity is {@link io.hdfl.privacy.ledger.PeerKeys}). Keys come from the JDK's own XDH provider.
 *
 * <p>Files: the private file is a {@link KeyPairFile} (owner-only PEM, PKCS#8 + X.509). The
 * public file {@code <keysDir>/<peerId>.kx.pub} is the {@code PUBLIC KEY} block, which {@link Roster}
 * reads next to the peer's Ed25519 {@code <peerId>.pub}.
 */
public final class HopKeys {
  static final String ALGORITHM = "X25519";
  /** Suffix of a published X25519 public key file. */
  public static final String PUBLIC_SUFFIX = ".kx.pub";

  private final String peerId;
  private final PrivateKey privateKey;
  private final PublicKey publicKey;

  private HopKeys(String peerId, PrivateKey privateKey, PublicKey publicKey) {
    this.peerId = peerId;
    this.privateKey = privateKey;
    this.publicKey = publicKey;
  }

  /** A fresh pair for {@code peerId}. */
  public static HopKeys generate(String peerId) {
    try {
      KeyPair pair = KeyPairGenerator.getInstance(ALGORITHM).generateKeyPair();
      return new HopKeys(peerId, pair.getPrivate(), pair.getPublic());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("this JDK has no X25519 (needs JDK 11 or newer)", e);
    }
  }

  public String peerId() {
    return peerId;
  }

  public PublicKey publicKey() {
    return publicKey;
  }

  PrivateKey privateKey() {
    return privateKey;
  }

  /** Writes the private key file: atomic, owner-only from creation, never over an existing file. */
  public void savePrivate(Path file) throws IOException {
    KeyPairFile.write(file, new KeyPair(publicKey, privateKey));
  }

  /** Writes {@code <keysDir>/<peerId>.kx.pub} (atomically, replacing an older one) and returns its path. */
  public Path publish(Path keysDir) throws IOException {
    Path file = keysDir.resolve(peerId + PUBLIC_SUFFIX);
    byte[] pem = Pem.encode(KeyPairFile.PUBLIC_LABEL, publicKey.getEncoded()).getBytes(StandardCharsets.US_ASCII);
    AtomicFile.write(file, out -> out.write(pem));
    return file;
  }

  /**
   * Loads a private key file written by {@link #savePrivate}.
   *
   * @throws NoSuchFileException if there is none
   * @throws IllegalArgumentException (one line naming the file) if others may read it, or it is not an
   *     X25519 pair whose halves belong together
   */
  public static HopKeys load(String peerId, Path file) throws IOException {
    KeyPair pair = KeyPairFile.read(file, ALGORITHM);
    PrivateKey priv = pair.getPrivate();
    PublicKey pub = pair.getPublic();
    HopKeys keys = new HopKeys(peerId, priv, pub);
    // The halves belong together iff agreeing with a probe key gives the same secret both ways.
    HopKeys probe = generate(peerId);
    byte[] a = HopCipher.agree(keys.privateKey, probe.publicKey);
    byte[] b = HopCipher.agree(probe.privateKey, keys.publicKey);
    if (!java.security.MessageDigest.isEqual(a, b)) {
      throw new IllegalArgumentException(file + ": the private and public keys in it do not belong together");
    }
    return keys;
  }

  /** Reads a public key file ({@code PUBLIC KEY} PEM, X25519). */
  static PublicKey readPublic(Path file, String text) {
    try {
      return KeyFactory.getInstance(ALGORITHM).generatePublic(new X509EncodedKeySpec(Pem.decode(text, KeyPairFile.PUBLIC_LABEL)));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(file + ": not a public key file (" + e.getMessage() + ")");
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException(file + ": not an X25519 public key (" + e.getMessage() + ")");
    }
  }

}
