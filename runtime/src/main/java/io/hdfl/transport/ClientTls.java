package io.hdfl.transport;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManagerFactory;

/**
 * Builds the TLS client side from {@link MqttSettings}: trusted CAs from a PEM/DER file (or the JVM's
 * defaults) and an optional client certificate (PKCS#12, or PEM chain + PEM key). Every failure is an
 * {@link IOException} with a one-line message naming the file.
 */
final class ClientTls {
  private static final Pattern PEM_KEY = Pattern.compile(
      "-----BEGIN ([A-Z0-9 ]*PRIVATE KEY)-----([^-]*)-----END \\1-----");
  private static final char[] IN_MEMORY_PASSWORD = "hdfl".toCharArray();

  private ClientTls() {}

  static SSLSocketFactory socketFactory(MqttSettings s) throws IOException {
    try {
      TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      if (s.caFile() != null) {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        int i = 0;
        for (Certificate c : certificates(s.caFile(), "CA file")) {
          trust.setCertificateEntry("ca-" + i++, c);
        }
        tmf.init(trust);
      } else {
        tmf.init((KeyStore) null);
      }
      KeyManagerFactory kmf = null;
      if (s.clientCert() != null) {
        kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        if (s.clientKey() == null) {
          char[] pass = s.clientKeyPassword() == null ? new char[0] : s.clientKeyPassword().toCharArray();
          kmf.init(pkcs12(s.clientCert(), pass), pass);
        } else {
          List<Certificate> chain = certificates(s.clientCert(), "client certificate");
          PrivateKey key = privateKey(s.clientKey());
          KeyStore ks = KeyStore.getInstance("PKCS12");
          ks.load(null, null);
          ks.setKeyEntry("client", key, IN_MEMORY_PASSWORD, chain.toArray(new Certificate[0]));
          kmf.init(ks, IN_MEMORY_PASSWORD);
        }
      }
      SSLContext ctx = SSLContext.getInstance("TLS");
      ctx.init(kmf == null ? null : kmf.getKeyManagers(), tmf.getTrustManagers(), null);
      return ctx.getSocketFactory();
    } catch (GeneralSecurityException e) {
      throw new IOException("cannot set up TLS: " + e.getMessage(), e);
    }
  }

  /** All certificates in a PEM (one or more) or DER file. */
  static List<Certificate> certificates(Path file, String what) throws IOException {
    byte[] bytes = read(file, what);
    try (InputStream in = new ByteArrayInputStream(bytes)) {
      Collection<? extends Certificate> certs = CertificateFactory.getInstance("X.509").generateCertificates(in);
      if (certs.isEmpty()) {
        throw new IOException(what + " " + file + " holds no certificate");
      }
      return new ArrayList<>(certs);
    } catch (GeneralSecurityException e) {
      throw new IOException(what + " " + file + " is not a PEM or DER X.509 certificate: " + e.getMessage(), e);
    }
  }

  static KeyStore pkcs12(Path file, char[] pass) throws IOException {
    byte[] bytes = read(file, "client certificate");
    try (InputStream in = new ByteArrayInputStream(bytes)) {
      KeyStore ks = KeyStore.getInstance("PKCS12");
      ks.load(in, pass);
      return ks;
    } catch (GeneralSecurityException | IOException e) {
      throw new IOException("client certificate " + file
          + " is not a PKCS#12 file readable with the given password (a PEM certificate needs clientKey too): "
          + e.getMessage(), e);
    }
  }

  /** An unencrypted PKCS#8 ("PRIVATE KEY") or PKCS#1 ("RSA PRIVATE KEY") PEM private key. */
  static PrivateKey privateKey(Path file) throws IOException {
    String pem = new String(read(file, "client key"), StandardCharsets.US_ASCII);
    Matcher m = PEM_KEY.matcher(pem);
    if (!m.find()) {
      throw new IOException("client key " + file + " holds no PEM private key");
    }
    String type = m.group(1);
    byte[] der;
    try {
      der = Base64.getMimeDecoder().decode(m.group(2).trim());
    } catch (IllegalArgumentException e) {
      throw new IOException("client key " + file + ": bad base64 in the PEM block", e);
    }
    byte[] pkcs8;
    if (type.equals("PRIVATE KEY")) {
      pkcs8 = der;
    } else if (type.equals("RSA PRIVATE KEY")) {
      pkcs8 = rsaPkcs1ToPkcs8(der);
    } else {
      throw new IOException("client key " + file + ": unsupported " + type.toLowerCase(Locale.ROOT)
          + "; convert it to unencrypted PKCS#8 (openssl pkcs8 -topk8 -nocrypt -in KEY -out KEY.pk8)"
          + " or use a PKCS#12 file");
    }
    PKCS8EncodedKeySpec spec = new PKCS8EncodedKeySpec(pkcs8);
    for (String alg : new String[] {"RSA", "EC", "Ed25519", "Ed448", "RSASSA-PSS", "DSA"}) {
      try {
        return KeyFactory.getInstance(alg).generatePrivate(spec);
      } catch (GeneralSecurityException e) {
        // try the next algorithm
      }
    }
    throw new IOException("client key " + file + ": not an RSA, EC or EdDSA private key");
  }

  /** Wraps a PKCS#1 RSAPrivateKey in a PKCS#8 PrivateKeyInfo with the rsaEncryption algorithm. */
  static byte[] rsaPkcs1ToPkcs8(byte[] pkcs1) {
    byte[] version = {0x02, 0x01, 0x00};
    byte[] rsaAlgorithm = {0x30, 0x0d, 0x06, 0x09, 0x2a, (byte) 0x86, 0x48, (byte) 0x86, (byte) 0xf7, 0x0d,
        0x01, 0x01, 0x01, 0x05, 0x00};
    byte[] octets = der(0x04, pkcs1);
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    body.writeBytes(version);
    body.writeBytes(rsaAlgorithm);
    body.writeBytes(octets);
    return der(0x30, body.toByteArray());
  }

  private static byte[] der(int tag, byte[] content) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(content.length + 6);
    out.write(tag);
    int n = content.length;
    if (n < 0x80) {
      out.write(n);
    } else {
      int bytes = n > 0xFFFFFF ? 4 : n > 0xFFFF ? 3 : n > 0xFF ? 2 : 1;
      out.write(0x80 | bytes);
      for (int i = bytes - 1; i >= 0; i--) {
        out.write(n >>> (8 * i));
      }
    }
    out.writeBytes(content);
    return out.toByteArray();
  }

  private static byte[] read(Path file, String what) throws IOException {
    try {
      return Files.readAllBytes(file);
    } catch (java.nio.file.NoSuchFileException e) {
      throw new IOException("cannot read " + what + " " + file + ": no such file", e);
    } catch (java.nio.file.AccessDeniedException e) {
      throw new IOException("cannot read " + what + " " + file + ": permission denied (readable by this user?)", e);
    } catch (IOException e) {
      throw new IOException("cannot read " + what + " " + file + ": " + e.getMessage(), e);
    }
  }
}
