package io.hdfl.privacy.ledger;

import io.hdfl.io.Pem;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyPairGenerator;
import java.util.Base64;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PeerKeysTest {
  @TempDir Path dir;

  // RFC 8032 §7.1, TEST 1 (empty message)
  private static final String RFC_SECRET = "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60";
  private static final String RFC_PUBLIC = "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a";
  private static final String RFC_SIG = "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bac"
      + "c61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b";

  /** Writes the RFC 8032 test key as an hdfl private key file. */
  static Path rfcKeyFile(Path dir) throws Exception {
    HexFormat hex = HexFormat.of();
    byte[] pkcs8 = hex.parseHex("302e020100300506032b657004220420" + RFC_SECRET);
    byte[] spki = hex.parseHex("302a300506032b6570032100" + RFC_PUBLIC);
    Path f = dir.resolve("rfc.key");
    Files.writeString(f, Pem.encode("PRIVATE KEY", pkcs8) + Pem.encode("PUBLIC KEY", spki));
    Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-------"));
    return f;
  }

  @Test
  void signsLikeRfc8032() throws Exception {
    PeerKeys k = PeerKeys.load("rfc", rfcKeyFile(dir));
    String sig = k.sign(new byte[0]);
    assertArrayEquals(HexFormat.of().parseHex(RFC_SIG), Base64.getDecoder().decode(sig));
    assertTrue(PeerKeys.verify(k.publicKey(), new byte[0], sig));
    assertFalse(PeerKeys.verify(k.publicKey(), new byte[] {1}, sig));
    assertFalse(PeerKeys.verify(k.publicKey(), new byte[0], "not base64!"));
    assertFalse(PeerKeys.verify(k.publicKey(), new byte[0], Base64.getEncoder().encodeToString(new byte[64])));
  }

  @Test
  void preparationStartsOncePerJvmAndChangesNoKeyOrSignature() throws Exception {
    PeerKeys.prepareInBackground(); // this call, or an earlier test's, started it
    assertFalse(PeerKeys.prepareInBackground(), "a second preparation started");
    Ed25519.prepare(new java.security.SecureRandom()); // again, maybe while the background one runs
    PeerKeys k = PeerKeys.load("rfc", rfcKeyFile(dir));
    assertArrayEquals(HexFormat.of().parseHex(RFC_SIG), Base64.getDecoder().decode(k.sign(new byte[0])));
    assertArrayEquals(HexFormat.of().parseHex(RFC_PUBLIC), Ed25519.publicPoint(HexFormat.of().parseHex(RFC_SECRET)));
  }

  @Test
  void pinnedLineSignatureIsDeterministic() throws Exception {
    // Ed25519 is deterministic: the pinned body signed with the RFC key gives the same bytes on every JDK.
    PeerKeys k = PeerKeys.load("peer-007", rfcKeyFile(dir));
    String body = LedgerCodec.body(LedgerCodecTest.fixedEntry());
    String sig = k.sign(LedgerCodec.signedBytes(body));
    // computed independently with Python's cryptography package over body + "}"
    assertEquals("v+6ntFxTfoKvcaz48DJA0ihwTpKW7C7aTED750OjM2LPy4Ua/40u9TO1pBOss9oOsV9SLu29StD2mktlSzMYCw==", sig);
    assertTrue(PeerKeys.verify(k.publicKey(), (body + "}").getBytes(StandardCharsets.US_ASCII), sig));
    String line = LedgerCodec.line(body, sig);
    assertEquals("fc81fd4be9bf46127ab774d42fe1f0ed2c2d24421b818cdb87052f777839f17a", LedgerCodec.hash(line));
  }

  @Test
  void saveLoadPublishRoundTrip() throws Exception {
    PeerKeys k = PeerKeys.generate("peer-1");
    Path priv = dir.resolve("private/peer-1.key");
    k.savePrivate(priv);
    assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(priv)));
    try (var files = Files.list(priv.getParent())) {
      assertEquals(1, files.count(), "no temporary file left behind");
    }
    PeerKeys back = PeerKeys.load("peer-1", priv);
    assertArrayEquals(k.publicKey().getEncoded(), back.publicKey().getEncoded());
    byte[] msg = "hello".getBytes(StandardCharsets.US_ASCII);
    assertTrue(PeerKeys.verify(k.publicKey(), msg, back.sign(msg)));

    Path keys = dir.resolve("keys");
    Path pub = k.publish(keys);
    assertEquals(keys.resolve("peer-1.pub"), pub);
    assertTrue(Files.readString(pub).startsWith("-----BEGIN PUBLIC KEY-----\n"));
    KeyDirectory kd = KeyDirectory.open(keys);
    assertArrayEquals(k.publicKey().getEncoded(), kd.find("peer-1").orElseThrow().getEncoded());
    assertTrue(kd.find("peer-2").isEmpty());
    assertThrows(IllegalArgumentException.class, () -> kd.find("../peer-1"));
  }

  @Test
  void refusesToOverwriteAPrivateKey() throws Exception {
    Path priv = dir.resolve("p.key");
    PeerKeys.generate("p").savePrivate(priv);
    byte[] before = Files.readAllBytes(priv);
    assertThrows(FileAlreadyExistsException.class, () -> PeerKeys.generate("p").savePrivate(priv));
    assertArrayEquals(before, Files.readAllBytes(priv));
  }

  @Test
  void clearErrorsForBadKeyFiles() throws Exception {
    assertThrows(NoSuchFileException.class, () -> PeerKeys.load("p", dir.resolve("missing.key")));

    Path priv = dir.resolve("p.key");
    PeerKeys.generate("p").savePrivate(priv);
    Files.setPosixFilePermissions(priv, PosixFilePermissions.fromString("rw-r--r--"));
    assertEquals(priv + ": permissions rw-r--r-- are too open for a private key (run: chmod 600 " + priv + ")",
        assertThrows(IllegalArgumentException.class, () -> PeerKeys.load("p", priv)).getMessage());

    Path junk = dir.resolve("junk.key");
    Files.writeString(junk, "hello");
    Files.setPosixFilePermissions(junk, PosixFilePermissions.fromString("rw-------"));
    assertEquals(junk + ": not an hdfl private key file (no 'PRIVATE KEY' PEM block)",
        assertThrows(IllegalArgumentException.class, () -> PeerKeys.load("p", junk)).getMessage());

    // two different pairs glued together
    Path a = dir.resolve("a.key");
    Path b = dir.resolve("b.key");
    PeerKeys.generate("a").savePrivate(a);
    PeerKeys.generate("b").savePrivate(b);
    String mixed = Files.readString(a).split("-----BEGIN PUBLIC KEY-----")[0]
        + "-----BEGIN PUBLIC KEY-----" + Files.readString(b).split("-----BEGIN PUBLIC KEY-----")[1];
    Path m = dir.resolve("mixed.key");
    Files.writeString(m, mixed);
    Files.setPosixFilePermissions(m, PosixFilePermissions.fromString("rw-------"));
    assertEquals(m + ": the private and public keys in it do not belong together",
        assertThrows(IllegalArgumentException.class, () -> PeerKeys.load("a", m)).getMessage());

    assertThrows(IllegalArgumentException.class, () -> PeerKeys.generate("bad id"));
  }

  @Test
  void keyDirectoryRejectsCorruptAndForeignKeys() throws Exception {
    assertThrows(NoSuchFileException.class, () -> KeyDirectory.open(dir.resolve("nope")));
    Files.writeString(dir.resolve("x.pub"), "-----BEGIN PUBLIC KEY-----\n!!!!\n-----END PUBLIC KEY-----\n");
    Files.writeString(dir.resolve("y.pub"), "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n");
    byte[] rsa = KeyPairGenerator.getInstance("RSA").generateKeyPair().getPublic().getEncoded();
    Files.writeString(dir.resolve("z.pub"), Pem.encode("PUBLIC KEY", rsa));
    KeyDirectory kd = KeyDirectory.open(dir);
    assertEquals(dir.resolve("x.pub") + ": not a public key file (no 'PUBLIC KEY' PEM block)",
        assertThrows(IllegalArgumentException.class, () -> kd.find("x")).getMessage());
    assertTrue(assertThrows(IllegalArgumentException.class, () -> kd.find("y")).getMessage()
        .startsWith(dir.resolve("y.pub") + ": not an Ed25519 public key"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> kd.find("z")).getMessage()
        .startsWith(dir.resolve("z.pub") + ": not an Ed25519 public key"));
  }
}
