package io.hdfl.privacy.ledger;

import io.hdfl.io.Pem;
import io.hdfl.io.AtomicFile;
import io.hdfl.io.KeyPairFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;

/**
 * A peer's Ed25519 identity: its id and key pair. A new key's seed comes from {@link
 * java.security.SecureRandom} and its public point from {@link Ed25519} (BouncyCastle); keys are held
 * and encoded as the JDK's own key objects. Signing and verifying use {@link Ed25519} (same
 * signatures as the JDK's, about 8x faster).
 *
 * <p>Files: the private key file ({@link #savePrivate}) is PEM with the PKCS#8 {@code PRIVATE KEY}
 * followed by the X.509 SubjectPublicKeyInfo {@code PUBLIC KEY} (the JDK cannot derive an Ed25519
 * public key from a private one), written atomically and created owner-only ({@code rw-------});
 * loading refuses a private key file that group or others may read, as ssh does. The public key
 * ({@link #publish}) is the {@code PUBLIC KEY} PEM block alone, in {@code <keysDir>/<peerId>.pub},
 * which {@link KeyDirectory} reads.
 */
public final class PeerKeys {
  static final String ALGORITHM = "Ed25519";
  private static final java.security.SecureRandom RANDOM = new java.security.SecureRandom();
  /** Whether {@link #prepareInBackground} has started in this JVM. */
  private static final java.util.concurrent.atomic.AtomicBoolean PREPARING =
      new java.util.concurrent.atomic.AtomicBoolean();

  private final String peerId;
  private final PrivateKey privateKey;
  private final PublicKey publicKey;
  /** The private key's raw 32-byte seed, what {@link Ed25519#sign} takes. */
  private final byte[] seed;
  /**
   * The encoded public point derived from {@link #seed} (not read from the public key, which a key
   * file could pair wrongly: {@link #load} checks that pairing by a signature made with this point).
   */
  private final byte[] point;

  /** @param point the public point derived from the private key's seed */
  private PeerKeys(String peerId, PrivateKey privateKey, PublicKey publicKey, byte[] point) {
    this.peerId = peerId;
    this.privateKey = privateKey;
    this.publicKey = publicKey;
    this.seed = Ed25519.rawPrivate(privateKey);
    this.point = point;
  }

  /**
   * Starts, once per JVM, a daemon thread that does the first key's and first signature's one-time
   * work ({@link Ed25519#prepare}) while the caller goes on, e.g. while a command loads its data:
   * otherwise a simulation's clock starts with about 0.2 s of it, before its first peer has a key.
   *
   * @return whether this call started it (false: an earlier call did)
   */
  public static boolean prepareInBackground() {
    if (!PREPARING.compareAndSet(false, true)) {
      return false;
    }
    Thread t = new Thread(() -> Ed25519.prepare(RANDOM), "hdfl-signing-preparation");
    t.setDaemon(true);
    t.start();
    return true;
  }

  /** A fresh key pair for {@code peerId}. */
  public static PeerKeys generate(String peerId) {
    requireId(peerId);
    KeyPair pair = Ed25519.generate(RANDOM);
    // the public key was derived from the seed just now
    return new PeerKeys(peerId, pair.getPrivate(), pair.getPublic(), Ed25519.rawPublic(pair.getPublic()));
  }

  public String peerId() {
    return peerId;
  }

  public PublicKey publicKey() {
    return publicKey;
  }

  /** Ed25519 signature of {@code data}, base64 (88 characters). */
  public String sign(byte[] data) {
    return Base64.getEncoder().encodeToString(signature(data));
  }

  /** Ed25519 signature of {@code data}, 64 bytes. */
  public byte[] signature(byte[] data) {
    return Ed25519.sign(seed, point, data);
  }

  /** Whether {@code signature} (64 bytes) is a valid Ed25519 signature of {@code data} under {@code key}. */
  public static boolean verify(PublicKey key, byte[] data, byte[] signature) {
    try {
      return Ed25519.verify(Ed25519.rawPublic(key), data, signature);
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  /** Whether {@code base64Signature} is a valid Ed25519 signature of {@code data} under {@code key}. */
  public static boolean verify(PublicKey key, byte[] data, String base64Signature) {
    byte[] sig;
    try {
      sig = Base64.getDecoder().decode(base64Signature);
    } catch (IllegalArgumentException e) {
      return false;
    }
    return verify(key, data, sig);
  }

  /**
   * Writes the private key file: atomic, owner-only from creation, never over an existing file.
   *
   * @throws FileAlreadyExistsException if {@code file} exists (a peer's identity is not replaced by accident)
   */
  public void savePrivate(Path file) throws IOException {
    KeyPairFile.write(file, new KeyPair(publicKey, privateKey));
  }

  /** Writes {@code <keysDir>/<peerId>.pub} (atomically, replacing an older one) and returns its path. */
  public Path publish(Path keysDir) throws IOException {
    Path file = keysDir.resolve(peerId + KeyDirectory.SUFFIX);
    byte[] pem = Pem.encode(KeyPairFile.PUBLIC_LABEL, publicKey.getEncoded()).getBytes(StandardCharsets.US_ASCII);
    AtomicFile.write(file, out -> out.write(pem));
    return file;
  }

  /**
   * Loads a private key file written by {@link #savePrivate}.
   *
   * @throws NoSuchFileException if there is no such file
   * @throws IllegalArgumentException (one line naming the file) if it is readable by others, not the
   *     expected PEM, not Ed25519, or its two keys do not belong together
   */
  public static PeerKeys load(String peerId, Path file) throws IOException {
    requireId(peerId);
    KeyPair pair = KeyPairFile.read(file, ALGORITHM);
    PrivateKey priv = pair.getPrivate();
    PublicKey pub = pair.getPublic();
    PeerKeys keys = new PeerKeys(peerId, priv, pub, Ed25519.publicPoint(Ed25519.rawPrivate(priv)));
    byte[] probe = ("hdfl key check " + peerId).getBytes(StandardCharsets.US_ASCII);
    if (!verify(pub, probe, keys.sign(probe))) {
      throw new IllegalArgumentException(file + ": the private and public keys in it do not belong together");
    }
    return keys;
  }

  static void requireId(String peerId) {
    if (!LedgerEntry.isValidId(peerId)) {
      throw new IllegalArgumentException("peer id must match " + LedgerEntry.ID + ", got '" + peerId + "'");
    }
  }

}
