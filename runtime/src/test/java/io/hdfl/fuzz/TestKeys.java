package io.hdfl.fuzz;

import io.hdfl.io.AtomicFile;
import io.hdfl.io.Pem;
import io.hdfl.privacy.ledger.PeerKeys;
import io.hdfl.security.HopKeys;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.security.spec.NamedParameterSpec;

/**
 * Fixed test identities: the Ed25519 ({@link PeerKeys}) and X25519 ({@link HopKeys}) pairs of a peer
 * id are derived from the id alone, so seed inputs signed or sealed with them stay valid in every
 * run. Never use outside tests.
 */
public final class TestKeys {
  private TestKeys() {}

  /** A new temporary directory, deleted with its files when the JVM exits. */
  public static Path tempDir(String prefix) {
    try {
      Path dir = Files.createTempDirectory(prefix);
      Runtime.getRuntime().addShutdownHook(new Thread(() -> {
        try (var files = Files.walk(dir)) {
          files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException e) {
          // best effort
        }
      }));
      return dir;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The Ed25519 identity of {@code peerId}, loaded the way a device loads its key file. */
  public static PeerKeys signing(String peerId, Path dir) {
    KeyPair pair = pair("Ed25519", NamedParameterSpec.ED25519, "sign " + peerId);
    try {
      return PeerKeys.load(peerId, privateFile(pair, dir.resolve(peerId + ".sign.key")));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The X25519 key-agreement pair of {@code peerId}. */
  public static HopKeys agreement(String peerId, Path dir) {
    KeyPair pair = pair("X25519", NamedParameterSpec.X25519, "kx " + peerId);
    try {
      return HopKeys.load(peerId, privateFile(pair, dir.resolve(peerId + ".kx.key")));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Path privateFile(KeyPair pair, Path file) throws IOException {
    Files.deleteIfExists(file);
    String pem = Pem.encode("PRIVATE KEY", pair.getPrivate().getEncoded())
        + Pem.encode("PUBLIC KEY", pair.getPublic().getEncoded());
    AtomicFile.createOwnerOnly(file, pem.getBytes(StandardCharsets.US_ASCII));
    return file;
  }

  private static KeyPair pair(String algorithm, NamedParameterSpec curve, String label) {
    try {
      KeyPairGenerator g = KeyPairGenerator.getInstance(algorithm);
      g.initialize(curve, new FixedRandom(label));
      return g.generateKeyPair();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  /** SHA-256 in counter mode over a label: the same bytes every time. */
  private static final class FixedRandom extends SecureRandom {
    private static final long serialVersionUID = 1L;
    private final byte[] label;
    private int counter;

    FixedRandom(String label) {
      this.label = label.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public void nextBytes(byte[] out) {
      try {
        for (int at = 0; at < out.length; ) {
          MessageDigest sha = MessageDigest.getInstance("SHA-256");
          sha.update(label);
          sha.update((byte) counter++);
          byte[] block = sha.digest();
          int n = Math.min(block.length, out.length - at);
          System.arraycopy(block, 0, out, at, n);
          at += n;
        }
      } catch (GeneralSecurityException e) {
        throw new IllegalStateException(e);
      }
    }
  }
}
