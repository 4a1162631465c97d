package io.hdfl.transport;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;

/**
 * How to reach an MQTT broker: {@code tcp://host[:port]} (default port 1883) or {@code
 * ssl://host[:port]} (TLS, default port 8883; {@code mqtt://} and {@code mqtts://} are accepted as
 * aliases), with optional username/password, CA file, client certificate and last will. Build with
 * {@link #builder(String)}; {@link #uri()} is the normalized URL.
 *
 * <p>TLS: the broker's certificate is checked against {@code caFile} (PEM or DER, one or more
 * certificates; the JVM's default trust store when absent) and its host name against the URL (always
 * on). A client certificate is either a PKCS#12 file ({@code .p12}/{@code .pfx}, password in {@code
 * clientKeyPassword}, no {@code clientKey}) or a PEM certificate chain plus a PEM private key
 * (unencrypted PKCS#8 "PRIVATE KEY" or PKCS#1 "RSA PRIVATE KEY").
 *
 * @param uri normalized broker URL, {@code tcp://host:port} or {@code ssl://host:port}
 * @param clientId MQTT client id (default {@code hdfl-} + 12 random hex digits)
 * @param username user name, or null
 * @param password password, or null
 * @param caFile CA certificates to trust for {@code ssl://}, or null for the JVM's trust store
 * @param clientCert client certificate (PEM chain or PKCS#12), or null
 * @param clientKey PEM private key of {@code clientCert}, or null (PKCS#12 or no client certificate)
 * @param clientKeyPassword password of a PKCS#12 client certificate, or null
 * @param keepAlive MQTT keep-alive interval (whole seconds; the broker drops a silent client after 1.5x)
 * @param connectTimeout limit for the TCP connect, TLS handshake and CONNACK
 * @param operationTimeout limit for one publish (QoS 1: until the PUBACK), subscribe or unsubscribe
 * @param maxReconnectDelay upper bound of the automatic reconnect back-off (it starts at 1 s)
 * @param will last will, or null
 * @param maxInflight most QoS 1 publishes awaiting their PUBACK at once
 */
public record MqttSettings(
    String uri,
    String clientId,
    String username,
    String password,
    Path caFile,
    Path clientCert,
    Path clientKey,
    String clientKeyPassword,
    Duration keepAlive,
    Duration connectTimeout,
    Duration operationTimeout,
    Duration maxReconnectDelay,
    LastWill will,
    int maxInflight) {

  public MqttSettings {
    uri = normalizeUri(uri);
    Objects.requireNonNull(clientId, "clientId");
    if (clientId.isEmpty()) {
      throw new IllegalArgumentException("client id must not be empty");
    }
    if (password != null && username == null) {
      throw new IllegalArgumentException("a password needs a username");
    }
    boolean tls = uri.startsWith("ssl://");
    if (!tls && (caFile != null || clientCert != null || clientKey != null)) {
      throw new IllegalArgumentException(
          "caFile, clientCert and clientKey need an ssl:// broker URL, not " + uri);
    }
    if (clientKey != null && clientCert == null) {
      throw new IllegalArgumentException("clientKey given without clientCert");
    }
    positive(keepAlive, "keepAlive");
    positive(connectTimeout, "connectTimeout");
    positive(operationTimeout, "operationTimeout");
    positive(maxReconnectDelay, "maxReconnectDelay");
    if (maxInflight < 1) {
      throw new IllegalArgumentException("maxInflight must be at least 1, got " + maxInflight);
    }
  }

  /** Whether the connection uses TLS ({@code ssl://}). */
  public boolean tls() {
    return uri.startsWith("ssl://");
  }

  /** Starts settings for {@code brokerUrl}; throws {@link IllegalArgumentException} if it is malformed. */
  /**
   * The TLS socket factory these settings describe (trusted CAs, optional client certificate), for
   * another MQTT client of the same broker (e.g. a sensor ingest).
   *
   * @throws java.io.IOException one line naming the file that cannot be used
   */
  public javax.net.ssl.SSLSocketFactory tlsSocketFactory() throws java.io.IOException {
    return ClientTls.socketFactory(this);
  }

  public static Builder builder(String brokerUrl) {
    return new Builder(normalizeUri(brokerUrl));
  }

  /** A copy with another client id. */
  public MqttSettings withClientId(String id) {
    return new MqttSettings(uri, id, username, password, caFile, clientCert, clientKey,
        clientKeyPassword, keepAlive, connectTimeout, operationTimeout, maxReconnectDelay, will,
        maxInflight);
  }

  /** A copy with another last will (nullable). */
  public MqttSettings withWill(LastWill w) {
    return new MqttSettings(uri, clientId, username, password, caFile, clientCert, clientKey,
        clientKeyPassword, keepAlive, connectTimeout, operationTimeout, maxReconnectDelay, w,
        maxInflight);
  }

  /** Never prints the passwords. */
  @Override
  public String toString() {
    return "MqttSettings[uri=" + uri + ", clientId=" + clientId
        + (username == null ? "" : ", username=" + username + ", password=" + (password == null ? "none" : "***"))
        + (caFile == null ? "" : ", caFile=" + caFile)
        + (clientCert == null ? "" : ", clientCert=" + clientCert)
        + (clientKey == null ? "" : ", clientKey=" + clientKey)
        + ", keepAlive=" + keepAlive + ", connectTimeout=" + connectTimeout
        + ", operationTimeout=" + operationTimeout + ", maxReconnectDelay=" + maxReconnectDelay
        + (will == null ? "" : ", will=" + will) + ", maxInflight=" + maxInflight + "]";
  }

  /**
   * Checks and normalizes a broker URL to {@code tcp://host:port} or {@code ssl://host:port}.
   *
   * @throws IllegalArgumentException with a one-line message naming the URL and what is wrong
   */
  public static String normalizeUri(String brokerUrl) {
    if (brokerUrl == null || brokerUrl.isBlank()) {
      throw new IllegalArgumentException("broker URL is empty: expected tcp://host:port or ssl://host:port");
    }
    String expected = "expected tcp://host:port or ssl://host:port";
    URI u;
    try {
      u = new URI(brokerUrl.trim());
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("bad broker URL '" + brokerUrl + "': " + e.getReason() + "; " + expected);
    }
    String scheme = u.getScheme() == null ? null : u.getScheme().toLowerCase(Locale.ROOT);
    String normalScheme;
    int defaultPort;
    if ("tcp".equals(scheme) || "mqtt".equals(scheme)) {
      normalScheme = "tcp";
      defaultPort = 1883;
    } else if ("ssl".equals(scheme) || "mqtts".equals(scheme) || "tls".equals(scheme)) {
      normalScheme = "ssl";
      defaultPort = 8883;
    } else {
      throw new IllegalArgumentException("bad broker URL '" + brokerUrl + "': "
          + (scheme == null ? "no scheme" : "unsupported scheme " + scheme) + "; " + expected);
    }
    String host = u.getHost();
    if (host == null || host.isEmpty()) {
      throw new IllegalArgumentException("bad broker URL '" + brokerUrl + "': no host; " + expected);
    }
    if (u.getUserInfo() != null) {
      throw new IllegalArgumentException("bad broker URL '" + brokerUrl
          + "': give the username and password as settings, not in the URL");
    }
    String path = u.getRawPath();
    if ((path != null && !path.isEmpty() && !path.equals("/")) || u.getRawQuery() != null
        || u.getRawFragment() != null) {
      throw new IllegalArgumentException("bad broker URL '" + brokerUrl + "': unexpected path or query; " + expected);
    }
    int port = u.getPort() < 0 ? defaultPort : u.getPort();
    if (port == 0 || port > 65535) {
      throw new IllegalArgumentException("bad broker URL '" + brokerUrl + "': port must be 1..65535");
    }
    return normalScheme + "://" + host + ":" + port;
  }

  private static void positive(Duration d, String name) {
    Objects.requireNonNull(d, name);
    if (d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException(name + " must be positive, got " + d);
    }
  }

  /** Builder of {@link MqttSettings}. */
  public static final class Builder {
    private final String uri;
    private String clientId;
    private String username;
    private String password;
    private Path caFile;
    private Path clientCert;
    private Path clientKey;
    private String clientKeyPassword;
    private Duration keepAlive = Duration.ofSeconds(30);
    private Duration connectTimeout = Duration.ofSeconds(10);
    private Duration operationTimeout = Duration.ofSeconds(60);
    private Duration maxReconnectDelay = Duration.ofSeconds(8);
    private LastWill will;
    private int maxInflight = 64;

    private Builder(String uri) {
      this.uri = uri;
    }

    /** Client id (default {@code hdfl-} + 12 random hex digits; keep it unique per broker). */
    public Builder clientId(String id) {
      this.clientId = id;
      return this;
    }

    public Builder credentials(String user, String pass) {
      this.username = user;
      this.password = pass;
      return this;
    }

    /** CA certificates (PEM or DER) to trust for {@code ssl://}; default the JVM's trust store. */
    public Builder caFile(Path file) {
      this.caFile = file;
      return this;
    }

    /** PEM client certificate chain and PEM private key. */
    public Builder clientCertificate(Path certPem, Path keyPem) {
      this.clientCert = certPem;
      this.clientKey = keyPem;
      this.clientKeyPassword = null;
      return this;
    }

    /** PKCS#12 client certificate with its key. */
    public Builder clientPkcs12(Path p12, String pass) {
      this.clientCert = p12;
      this.clientKey = null;
      this.clientKeyPassword = pass;
      return this;
    }

    public Builder keepAlive(Duration d) {
      this.keepAlive = d;
      return this;
    }

    public Builder connectTimeout(Duration d) {
      this.connectTimeout = d;
      return this;
    }

    public Builder operationTimeout(Duration d) {
      this.operationTimeout = d;
      return this;
    }

    public Builder maxReconnectDelay(Duration d) {
      this.maxReconnectDelay = d;
      return this;
    }

    public Builder will(LastWill w) {
      this.will = w;
      return this;
    }

    public Builder maxInflight(int n) {
      this.maxInflight = n;
      return this;
    }

    public MqttSettings build() {
      String id = clientId != null ? clientId
          : String.format("hdfl-%012x", ThreadLocalRandom.current().nextLong() & 0xFFFF_FFFF_FFFFL);
      return new MqttSettings(uri, id, username, password, caFile, clientCert, clientKey,
          clientKeyPassword, keepAlive, connectTimeout, operationTimeout, maxReconnectDelay, will,
          maxInflight);
    }
  }
}
