package io.hdfl.transport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClientTlsTest {
  @TempDir
  Path dir;

  @Test
  void readsPkcs1RsaAndPkcs8Keys() throws Exception {
    KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
    g.initialize(2048);
    PrivateKey rsa = g.generateKeyPair().getPrivate();
    byte[] pkcs8 = rsa.getEncoded();
    // PKCS#8 = SEQUENCE { version, AlgorithmIdentifier, OCTET STRING { PKCS#1 } }: the PKCS#1 key is
    // the tail after the 26-byte prefix for a 2048-bit key (4-byte lengths on both outer headers)
    byte[] pkcs1 = Arrays.copyOfRange(pkcs8, 26, pkcs8.length);
    assertEquals(0x30, pkcs1[0] & 0xFF);
    assertArrayEquals(pkcs8, ClientTls.rsaPkcs1ToPkcs8(pkcs1));

    Path p1 = Files.writeString(dir.resolve("rsa1.pem"), TestCertificates.pem("RSA PRIVATE KEY", pkcs1));
    Path p8 = Files.writeString(dir.resolve("rsa8.pem"), TestCertificates.pem("PRIVATE KEY", pkcs8));
    assertArrayEquals(pkcs8, ClientTls.privateKey(p1).getEncoded());
    assertArrayEquals(pkcs8, ClientTls.privateKey(p8).getEncoded());

    KeyPairGenerator ec = KeyPairGenerator.getInstance("EC");
    ec.initialize(256);
    PrivateKey ecKey = ec.generateKeyPair().getPrivate();
    Path e8 = Files.writeString(dir.resolve("ec.pem"), TestCertificates.pem("PRIVATE KEY", ecKey.getEncoded()));
    assertEquals("EC", ClientTls.privateKey(e8).getAlgorithm());
  }

  @Test
  void unsupportedKeyFormatsAreNamedWithAFix() throws IOException {
    Path sec1 = Files.writeString(dir.resolve("ec.key"), TestCertificates.pem("EC PRIVATE KEY", new byte[] {1, 2}));
    IOException e = assertThrows(IOException.class, () -> ClientTls.privateKey(sec1));
    assertTrue(e.getMessage().contains("ec private key") && e.getMessage().contains("openssl pkcs8"), e.getMessage());
    Path none = Files.writeString(dir.resolve("none.pem"), "hello");
    assertTrue(assertThrows(IOException.class, () -> ClientTls.privateKey(none)).getMessage()
        .contains("holds no PEM private key"));
    Path missing = dir.resolve("missing.pem");
    assertEquals("cannot read CA file " + missing + ": no such file", // it named NoSuchFileException
        assertThrows(IOException.class, () -> ClientTls.certificates(missing, "CA file")).getMessage());
  }
}
