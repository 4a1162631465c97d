package io.hdfl.io;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;

/**
 * A private key file as hdfl writes them: PEM {@code PRIVATE KEY} (PKCS#8) followed by {@code PUBLIC
 * KEY} (X.509; the JDK cannot derive an Ed25519 or X25519 public key from a private one), written
 * atomically and created owner-only; reading refuses a file that group or others may access.
 */
public final class KeyPairFile {
  public static final String PRIVATE_LABEL = "PRIVATE KEY";
  public static final String PUBLIC_LABEL = "PUBLIC KEY";

  private KeyPairFile() {}

  /** Writes {@code pair} to a new owner-only file (never over an existing one). */
  public static void write(Path file, KeyPair pair) throws IOException {
    String pem = Pem.encode(PRIVATE_LABEL, pair.getPrivate().getEncoded())
        + Pem.encode(PUBLIC_LABEL, pair.getPublic().getEncoded());
    AtomicFile.createOwnerOnly(file, pem.getBytes(StandardCharsets.US_ASCII));
  }

  /**
   * Reads a pair of {@code algorithm} (a JDK KeyFactory name).
   *
   * @throws NoSuchFileException if there is no such file
   * @throws IllegalArgumentException (one line naming the file) if others may read it, or it is not
   *     this format or not a pair of {@code algorithm} keys
   */
  public static KeyPair read(Path file, String algorithm) throws IOException {
    if (!Files.isRegularFile(file)) {
      throw new NoSuchFileException(file.toString(), null, "no private key file");
    }
    AtomicFile.requireOwnerOnly(file);
    String text = Files.readString(file, StandardCharsets.ISO_8859_1);
    try {
      KeyFactory kf = KeyFactory.getInstance(algorithm);
      var priv = kf.generatePrivate(new PKCS8EncodedKeySpec(Pem.decode(text, PRIVATE_LABEL)));
      var pub = kf.generatePublic(new X509EncodedKeySpec(Pem.decode(text, PUBLIC_LABEL)));
      return new KeyPair(pub, priv);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(file + ": not an hdfl private key file (" + e.getMessage() + ")");
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException(file + ": not an " + algorithm + " key pair (" + e.getMessage() + ")");
    }
  }
}
