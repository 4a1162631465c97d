package io.hdfl.transport;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.TrustManagerFactory;

/**
 * Test PKI without external tools: EC P-256 keys and X.509 v3 certificates (CA, server, client)
 * encoded with a minimal DER writer and signed with SHA256withECDSA.
 */
public final class TestCertificates {
  private static final AtomicLong SERIAL = new AtomicLong(System.currentTimeMillis());

  /** A key pair and its certificate. */
  public record Issued(KeyPair keys, X509Certificate cert) {
    public PrivateKey key() {
      return keys.getPrivate();
    }
  }

  private TestCertificates() {}

  public static Issued ca(String cn) throws GeneralSecurityException {
    KeyPair kp = ecKeyPair();
    byte[] basicConstraintsCa = seq(bool(true));
    return new Issued(kp, sign(cn, kp, cn, kp.getPrivate(), ext("2.5.29.19", true, basicConstraintsCa)));
  }

  /** A server certificate for the DNS name {@code dnsName} (as subjectAltName). */
  public static Issued server(String dnsName, Issued ca) throws GeneralSecurityException {
    KeyPair kp = ecKeyPair();
    byte[] san = seq(tlv(0x82, dnsName.getBytes(StandardCharsets.US_ASCII)));
    return new Issued(kp, sign(dnsName, kp, subject(ca), ca.key(), ext("2.5.29.17", false, san)));
  }

  public static Issued client(String cn, Issued ca) throws GeneralSecurityException {
    KeyPair kp = ecKeyPair();
    return new Issued(kp, sign(cn, kp, subject(ca), ca.key()));
  }

  public static KeyManagerFactory keyManagers(Issued leaf, Issued ca) throws GeneralSecurityException, IOException {
    KeyStore ks = KeyStore.getInstance("PKCS12");
    ks.load(null, null);
    char[] pass = "test".toCharArray();
    ks.setKeyEntry("key", leaf.key(), pass, new Certificate[] {leaf.cert(), ca.cert()});
    KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    kmf.init(ks, pass);
    return kmf;
  }

  public static TrustManagerFactory trust(Issued ca) throws GeneralSecurityException, IOException {
    KeyStore ks = KeyStore.getInstance("PKCS12");
    ks.load(null, null);
    ks.setCertificateEntry("ca", ca.cert());
    TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(ks);
    return tmf;
  }

  public static Path writeCertPem(Path file, X509Certificate... certs) throws IOException, GeneralSecurityException {
    StringBuilder sb = new StringBuilder();
    for (X509Certificate c : certs) {
      sb.append(pem("CERTIFICATE", c.getEncoded()));
    }
    return Files.writeString(file, sb);
  }

  public static Path writeKeyPem(Path file, PrivateKey key) throws IOException {
    return Files.writeString(file, pem("PRIVATE KEY", key.getEncoded()));
  }

  static Path writePkcs12(Path file, Issued leaf, Issued ca, String password)
      throws IOException, GeneralSecurityException {
    KeyStore ks = KeyStore.getInstance("PKCS12");
    ks.load(null, null);
    ks.setKeyEntry("client", leaf.key(), password.toCharArray(), new Certificate[] {leaf.cert(), ca.cert()});
    try (OutputStream out = Files.newOutputStream(file)) {
      ks.store(out, password.toCharArray());
    }
    return file;
  }

  static String pem(String type, byte[] der) {
    return "-----BEGIN " + type + "-----\n"
        + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
        + "\n-----END " + type + "-----\n";
  }

  // --- certificate building ---

  private static String subject(Issued ca) {
    String dn = ca.cert().getSubjectX500Principal().getName();
    return dn.startsWith("CN=") ? dn.substring(3) : dn;
  }

  private static KeyPair ecKeyPair() throws GeneralSecurityException {
    KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
    g.initialize(new ECGenParameterSpec("secp256r1"));
    return g.generateKeyPair();
  }

  private static X509Certificate sign(String subjectCn, KeyPair subjectKeys, String issuerCn, PrivateKey issuerKey,
      byte[]... extensions) throws GeneralSecurityException {
    byte[] algorithm = seq(oid("1.2.840.10045.4.3.2")); // ecdsa-with-SHA256
    Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    byte[] validity = seq(utcTime(now.minus(1, ChronoUnit.HOURS)), utcTime(now.plus(1, ChronoUnit.DAYS)));
    ByteArrayOutputStream tbs = new ByteArrayOutputStream();
    tbs.writeBytes(tlv(0xA0, integer(BigInteger.TWO))); // v3
    tbs.writeBytes(integer(BigInteger.valueOf(SERIAL.incrementAndGet())));
    tbs.writeBytes(algorithm);
    tbs.writeBytes(name(issuerCn));
    tbs.writeBytes(validity);
    tbs.writeBytes(name(subjectCn));
    tbs.writeBytes(subjectKeys.getPublic().getEncoded());
    if (extensions.length > 0) {
      tbs.writeBytes(tlv(0xA3, seq(extensions)));
    }
    byte[] tbsDer = tlv(0x30, tbs.toByteArray());
    Signature s = Signature.getInstance("SHA256withECDSA");
    s.initSign(issuerKey);
    s.update(tbsDer);
    byte[] signature = s.sign();
    byte[] bits = new byte[signature.length + 1];
    System.arraycopy(signature, 0, bits, 1, signature.length);
    byte[] cert = seq(tbsDer, algorithm, tlv(0x03, bits));
    return (X509Certificate) CertificateFactory.getInstance("X.509")
        .generateCertificate(new ByteArrayInputStream(cert));
  }

  private static byte[] ext(String oid, boolean critical, byte[] value) {
    return critical ? seq(oid(oid), bool(true), tlv(0x04, value)) : seq(oid(oid), tlv(0x04, value));
  }

  private static byte[] name(String cn) {
    return seq(tlv(0x31, seq(oid("2.5.4.3"), tlv(0x0C, cn.getBytes(StandardCharsets.UTF_8)))));
  }

  private static byte[] utcTime(Instant t) {
    String s = DateTimeFormatter.ofPattern("yyMMddHHmmss'Z'").withZone(ZoneOffset.UTC).format(t);
    return tlv(0x17, s.getBytes(StandardCharsets.US_ASCII));
  }

  private static byte[] integer(BigInteger v) {
    return tlv(0x02, v.toByteArray());
  }

  private static byte[] bool(boolean b) {
    return new byte[] {0x01, 0x01, (byte) (b ? 0xFF : 0x00)};
  }

  private static byte[] oid(String dotted) {
    String[] parts = dotted.split("\\.");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(Integer.parseInt(parts[0]) * 40 + Integer.parseInt(parts[1]));
    for (int i = 2; i < parts.length; i++) {
      long v = Long.parseLong(parts[i]);
      int groups = 1;
      for (long w = v >>> 7; w != 0; w >>>= 7) {
        groups++;
      }
      for (int g = groups - 1; g >= 0; g--) {
        int b = (int) ((v >>> (7 * g)) & 0x7F);
        out.write(g == 0 ? b : b | 0x80);
      }
    }
    return tlv(0x06, out.toByteArray());
  }

  private static byte[] seq(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      out.writeBytes(p);
    }
    return tlv(0x30, out.toByteArray());
  }

  private static byte[] tlv(int tag, byte[] content) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(content.length + 6);
    out.write(tag);
    int n = content.length;
    if (n < 0x80) {
      out.write(n);
    } else if (n < 0x100) {
      out.write(0x81);
      out.write(n);
    } else {
      out.write(0x82);
      out.write(n >>> 8);
      out.write(n);
    }
    out.writeBytes(content);
    return out.toByteArray();
  }
}
