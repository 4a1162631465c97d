package io.hdfl.privacy.ledger;

import io.hdfl.io.Pem;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.spec.X509EncodedKeySpec;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The public keys a verifier trusts: one {@code <peerId>.pub} file (PEM {@code PUBLIC KEY}, X.509
 * SubjectPublicKeyInfo, Ed25519) per peer in one directory, as {@link PeerKeys#publish} writes them.
 * Keys are read on first use and kept.
 *
 * <p>The directory is the trust anchor: a ledger is only as trustworthy as the way these files were
 * obtained. A directory that travels with the ledger proves integrity against accidents, not against
 * whoever could replace both.
 */
public final class KeyDirectory {
  /** File name suffix of a public key. */
  public static final String SUFFIX = ".pub";
  private static final int MAX_KEY_FILE_BYTES = 16 * 1024;

  private final Path dir;
  private final Map<String, PublicKey> cache = new HashMap<>();

  private KeyDirectory(Path dir) {
    this.dir = dir;
  }

  /**
   * A key directory.
   *
   * @throws NoSuchFileException if {@code dir} is not a directory
   */
  public static KeyDirectory open(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      throw new NoSuchFileException(dir.toString(), null, "keys directory not found");
    }
    return new KeyDirectory(dir);
  }

  public Path dir() {
    return dir;
  }

  /** Where the public key of {@code peerId} would be. */
  public Path fileOf(String peerId) {
    PeerKeys.requireId(peerId);
    return dir.resolve(peerId + SUFFIX);
  }

  /**
   * The public key of {@code peerId}, or empty if the directory has no file for it.
   *
   * @throws IllegalArgumentException (one line naming the file) if the file is not an Ed25519 public key
   */
  public synchronized Optional<PublicKey> find(String peerId) throws IOException {
    PublicKey known = cache.get(peerId);
    if (known != null) {
      return Optional.of(known);
    }
    Path file = fileOf(peerId);
    if (!Files.isRegularFile(file)) {
      return Optional.empty();
    }
    if (Files.size(file) > MAX_KEY_FILE_BYTES) {
      throw new IllegalArgumentException(file + ": too large for a public key file");
    }
    String text = Files.readString(file, StandardCharsets.ISO_8859_1);
    PublicKey key;
    try {
      byte[] der = Pem.decode(text, io.hdfl.io.KeyPairFile.PUBLIC_LABEL);
      key = KeyFactory.getInstance(PeerKeys.ALGORITHM).generatePublic(new X509EncodedKeySpec(der));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(file + ": not a public key file (" + e.getMessage() + ")");
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException(file + ": not an Ed25519 public key (" + e.getMessage() + ")");
    }
    cache.put(peerId, key);
    return Optional.of(key);
  }

  /**
   * Why the signed line {@code split} (parsed as {@code entry}) does not verify under its peer's key
   * here, or null if it does: the peer has no key file, or the signature is not over these bytes by it.
   */
  String signatureProblem(LedgerCodec.Split split, LedgerEntry entry) throws IOException {
    Optional<PublicKey> key = find(entry.peer());
    if (key.isEmpty()) {
      return "unknown peer: no public key " + fileOf(entry.peer());
    }
    if (!split.signature().equals(entry.signature())
        || !PeerKeys.verify(key.get(), split.signedBytes(), split.signature())) {
      return "signature does not verify under " + fileOf(entry.peer()) + " (entry altered or signed by another key)";
    }
    return null;
  }
}
