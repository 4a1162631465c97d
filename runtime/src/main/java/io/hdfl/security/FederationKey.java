package io.hdfl.security;

import io.hdfl.io.AtomicFile;
import io.hdfl.io.KeyPairFile;
import io.hdfl.io.Pem;
import io.hdfl.privacy.ledger.PeerKeys;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.spec.X509EncodedKeySpec;

/**
 * The federation's Ed25519 key, which signs its roster ({@link SignedRoster}): whoever holds the private
 * half decides who is admitted, so it belongs with the federation's operator, offline, never on a
 * device. Devices pin the public half ({@code roster.federation.key}). Files as for peers: the private
 * file is an owner-only {@link KeyPairFile}, the public file the {@code PUBLIC KEY} PEM block.
 */
public final class FederationKey {
  /** The id the key signs under (it is not a peer's). */
  static final String SIGNER = "federation";
  private static final int MAX_PUBLIC_FILE_BYTES = 16 * 1024;

  private final PeerKeys keys;

  private FederationKey(PeerKeys keys) {
    this.keys = keys;
  }

  /** A fresh federation key. */
  public static FederationKey generate() {
    return new FederationKey(PeerKeys.generate(SIGNER));
  }

  /**
   * Loads a private key file written by {@link #save}.
   *
   * @throws NoSuchFileException if there is none
   * @throws IllegalArgumentException (one line naming the file) if others may read it or it is not an Ed25519 pair
   */
  public static FederationKey load(Path privateFile) throws IOException {
    if (Files.isRegularFile(privateFile) && Files.size(privateFile) <= MAX_PUBLIC_FILE_BYTES
        && !Files.readString(privateFile, StandardCharsets.ISO_8859_1).contains("-----BEGIN " + KeyPairFile.PRIVATE_LABEL)) {
      throw new IllegalArgumentException(privateFile + ": not a private key file (the public key? sign with the file "
          + "'hdfl roster keygen --out' created)");
    }
    return new FederationKey(PeerKeys.load(SIGNER, privateFile));
  }

  /**
   * Writes the private key (owner-only, never over an existing file) and the public key.
   *
   * @throws java.nio.file.FileAlreadyExistsException if the private file exists
   */
  public void save(Path privateFile, Path publicFile) throws IOException {
    keys.savePrivate(privateFile);
    byte[] pem = Pem.encode(KeyPairFile.PUBLIC_LABEL, keys.publicKey().getEncoded()).getBytes(StandardCharsets.US_ASCII);
    AtomicFile.write(publicFile, out -> out.write(pem));
  }

  public PublicKey publicKey() {
    return keys.publicKey();
  }

  /** The 64-byte Ed25519 signature of {@code data}. */
  byte[] sign(byte[] data) {
    return keys.signature(data);
  }

  /**
   * Reads a federation public key file ({@code PUBLIC KEY} PEM, Ed25519).
   *
   * @throws IllegalArgumentException (one line naming the file) if it is missing or not such a key
   */
  public static PublicKey readPublic(Path file) throws IOException {
    if (!Files.isRegularFile(file)) {
      throw new IllegalArgumentException(file + ": no such federation public key file");
    }
    if (Files.size(file) > MAX_PUBLIC_FILE_BYTES) {
      throw new IllegalArgumentException(file + ": too large for a public key file");
    }
    String text = Files.readString(file, StandardCharsets.ISO_8859_1);
    try {
      return KeyFactory.getInstance("Ed25519").generatePublic(new X509EncodedKeySpec(
          Pem.decode(text, KeyPairFile.PUBLIC_LABEL)));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(file + ": not a public key file (" + e.getMessage() + ")");
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException(file + ": not an Ed25519 public key (" + e.getMessage() + ")");
    }
  }

  /** Whether {@code signature} is this federation key's signature of {@code data}. */
  static boolean verify(PublicKey federationKey, byte[] data, byte[] signature) {
    return PeerKeys.verify(federationKey, data, signature);
  }
}
