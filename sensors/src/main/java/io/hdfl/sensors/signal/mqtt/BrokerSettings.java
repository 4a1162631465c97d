package io.hdfl.sensors.signal.mqtt;

import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Objects;
import javax.net.SocketFactory;

/**
 * How a broker source connects: the broker URI ({@code tcp://host:1883}, or {@code ssl://host:8883}
 * with a {@link Builder#socketFactory} from an {@code SSLContext}), client id, optional credentials,
 * timeouts and the subscription QoS. MQTT 3.1.1 through Eclipse Paho, clean session, automatic
 * reconnect (subscriptions are restored after a reconnect; messages published while disconnected are
 * not delivered).
 */
public final class BrokerSettings {

  private final String uri;
  private final String clientId;
  private final String username;
  private final String password;
  private final SocketFactory socketFactory;
  private final Duration connectTimeout;
  private final Duration keepAlive;
  private final Duration maxReconnectDelay;
  private final int qos;

  private BrokerSettings(Builder b) {
    this.uri = b.uri;
    this.clientId = b.clientId != null ? b.clientId : randomClientId();
    this.username = b.username;
    this.password = b.password;
    this.socketFactory = b.socketFactory;
    this.connectTimeout = b.connectTimeout;
    this.keepAlive = b.keepAlive;
    this.maxReconnectDelay = b.maxReconnectDelay;
    this.qos = b.qos;
  }

  /** The defaults for {@code uri}: random client id, anonymous, QoS 1. */
  public static BrokerSettings of(String uri) {
    return builder(uri).build();
  }

  public static Builder builder(String uri) {
    return new Builder(uri);
  }

  public String uri() {
    return uri;
  }

  public String clientId() {
    return clientId;
  }

  /** The username, or null for anonymous access. */
  public String username() {
    return username;
  }

  String password() {
    return password;
  }

  /** The socket factory (for TLS), or null for Paho's default. */
  public SocketFactory socketFactory() {
    return socketFactory;
  }

  public Duration connectTimeout() {
    return connectTimeout;
  }

  public Duration keepAlive() {
    return keepAlive;
  }

  public Duration maxReconnectDelay() {
    return maxReconnectDelay;
  }

  /** QoS of the subscriptions (a message arrives at the lower of this and its publish QoS). */
  public int qos() {
    return qos;
  }

  @Override
  public String toString() {
    return "BrokerSettings[" + uri + ", client " + clientId + (username == null ? "" : ", user " + username)
        + ", QoS " + qos + "]";
  }

  private static String randomClientId() {
    byte[] b = new byte[6];
    new SecureRandom().nextBytes(b);
    return "hdfl-in-" + HexFormat.of().formatHex(b);   // 20 characters: within MQTT 3.1.1's guaranteed 23
  }

  /** Options of {@link BrokerSettings}. */
  public static final class Builder {
    private final String uri;
    private String clientId;
    private String username;
    private String password;
    private SocketFactory socketFactory;
    private Duration connectTimeout = Duration.ofSeconds(10);
    private Duration keepAlive = Duration.ofSeconds(30);
    private Duration maxReconnectDelay = Duration.ofSeconds(30);
    private int qos = 1;

    private Builder(String uri) {
      Objects.requireNonNull(uri, "uri");
      if (!uri.startsWith("tcp://") && !uri.startsWith("ssl://")) {
        throw new IllegalArgumentException("broker URI must start with tcp:// or ssl://, got "
            + ThrottledLog.printable(uri, 80));
      }
      this.uri = uri;
    }

    /** Client id (default {@code hdfl-in-} and 12 random hex digits). Must be unique on the broker. */
    public Builder clientId(String id) {
      Objects.requireNonNull(id, "id");
      if (id.isEmpty() || id.length() > 65535) {
        throw new IllegalArgumentException("client id must be 1..65535 characters");
      }
      this.clientId = id;
      return this;
    }

    /** Username and password (default anonymous). */
    public Builder credentials(String user, String pass) {
      this.username = Objects.requireNonNull(user, "user");
      this.password = pass;
      return this;
    }

    /** Socket factory, e.g. {@code sslContext.getSocketFactory()} for {@code ssl://} (default Paho's). */
    public Builder socketFactory(SocketFactory factory) {
      this.socketFactory = Objects.requireNonNull(factory, "factory");
      return this;
    }

    /** How long opening waits for the broker (default 10 s; whole seconds, at least 1). */
    public Builder connectTimeout(Duration d) {
      this.connectTimeout = positive(d, "connect timeout");
      return this;
    }

    /** MQTT keep-alive interval (default 30 s; whole seconds, at least 1). */
    public Builder keepAlive(Duration d) {
      this.keepAlive = positive(d, "keep-alive");
      return this;
    }

    /** Longest wait between reconnect attempts (default 30 s). */
    public Builder maxReconnectDelay(Duration d) {
      this.maxReconnectDelay = positive(d, "max reconnect delay");
      return this;
    }

    /** Subscription QoS, 0 or 1 (default 1). QoS 2 is refused: ingest gains nothing from exactly-once. */
    public Builder qos(int q) {
      if (q != 0 && q != 1) {
        throw new IllegalArgumentException("subscription QoS must be 0 or 1, got " + q);
      }
      this.qos = q;
      return this;
    }

    public BrokerSettings build() {
      return new BrokerSettings(this);
    }

    private static Duration positive(Duration d, String what) {
      Objects.requireNonNull(d, what);
      if (d.toSeconds() < 1 || d.toSeconds() > Integer.MAX_VALUE / 1000) {
        throw new IllegalArgumentException(what + " must be 1 s .. 24 days, got " + d);
      }
      return d;
    }
  }
}
