package io.hdfl.sensors.signal.mqtt;

import java.io.IOException;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.util.List;
import org.eclipse.paho.client.mqttv3.IMqttActionListener;
import org.eclipse.paho.client.mqttv3.IMqttDeliveryToken;
import org.eclipse.paho.client.mqttv3.IMqttToken;
import org.eclipse.paho.client.mqttv3.MqttAsyncClient;
import org.eclipse.paho.client.mqttv3.MqttCallbackExtended;
import org.eclipse.paho.client.mqttv3.MqttConnectOptions;
import org.eclipse.paho.client.mqttv3.MqttException;
import org.eclipse.paho.client.mqttv3.MqttMessage;
import org.eclipse.paho.client.mqttv3.persist.MemoryPersistence;

/**
 * The Paho client under a broker source: connects, subscribes to a fixed list of topic filters,
 * re-subscribes after every automatic reconnect, and hands each message to a {@link Listener} on
 * Paho's callback thread (one at a time, in arrival order). A listener exception never reaches Paho
 * (it would drop the connection).
 */
final class MqttSubscriber implements AutoCloseable {

  /** Receives messages and connection events on Paho's threads. */
  interface Listener {
    void onMessage(String topic, byte[] payload);

    void onConnectionLost(String reason);

    void onReconnected();
  }

  private static final long CLOSE_QUIESCE_MS = 100;

  private final BrokerSettings settings;
  private final List<String> filters;
  private final Listener listener;
  private final ThrottledLog log;
  private final MqttAsyncClient client;
  private volatile boolean closed;

  private MqttSubscriber(BrokerSettings settings, List<String> filters, Listener listener, ThrottledLog log,
      MqttAsyncClient client) {
    this.settings = settings;
    this.filters = filters;
    this.listener = listener;
    this.log = log;
    this.client = client;
  }

  /**
   * Connects and subscribes; returns once the broker acknowledged every subscription.
   *
   * @throws IOException with a one-line reason if the broker is unreachable, refuses the client or a
   *     subscription, or does not answer within the connect timeout
   */
  static MqttSubscriber connect(BrokerSettings s, List<String> filters, Listener listener, ThrottledLog log)
      throws IOException {
    MqttConnectOptions options = new MqttConnectOptions();
    options.setMqttVersion(MqttConnectOptions.MQTT_VERSION_3_1_1);
    options.setCleanSession(true);
    options.setAutomaticReconnect(true);
    options.setMaxReconnectDelay(Math.toIntExact(s.maxReconnectDelay().toMillis()));
    options.setKeepAliveInterval(Math.toIntExact(s.keepAlive().toSeconds()));
    options.setConnectionTimeout(Math.toIntExact(s.connectTimeout().toSeconds()));
    options.setHttpsHostnameVerificationEnabled(true);
    if (s.username() != null) {
      options.setUserName(s.username());
    }
    if (s.password() != null) {
      options.setPassword(s.password().toCharArray());
    }
    if (s.socketFactory() != null) {
      options.setSocketFactory(s.socketFactory());
    }
    MqttAsyncClient client;
    try {
      client = new MqttAsyncClient(s.uri(), s.clientId(), new MemoryPersistence());
    } catch (MqttException | IllegalArgumentException e) {
      throw new IOException("bad broker URI " + s.uri() + ": " + e.getMessage(), e);
    }
    MqttSubscriber sub = new MqttSubscriber(s, List.copyOf(filters), listener, log, client);
    client.setCallback(sub.new Callback());
    long timeoutMs = s.connectTimeout().toMillis();
    try {
      client.connect(options).waitForCompletion(timeoutMs);
    } catch (MqttException e) {
      sub.close();
      throw new IOException("cannot connect to MQTT broker " + s.uri() + ": " + describe(e), e);
    }
    try {
      for (String f : sub.filters) {
        IMqttToken t = client.subscribe(f, s.qos());
        t.waitForCompletion(timeoutMs);
        int[] granted = t.getGrantedQos();
        if (granted != null && granted.length > 0 && granted[0] == 0x80) {
          throw new IOException("MQTT broker " + s.uri() + " refused the subscription to " + f
              + " (not authorized?)");
        }
      }
    } catch (MqttException e) {
      int code = e.getReasonCode();
      if (code == MqttException.REASON_CODE_CONNECTION_LOST || code == MqttException.REASON_CODE_CLIENT_NOT_CONNECTED) {
        // The connection dropped right after it was made (brokers do this now and then, e.g. Moquette
        // under load): Paho reconnects on its own and the callback subscribes again; open() returns
        // once that is done, so a source it returns is subscribed.
        log.warn("the connection to " + s.uri() + " dropped while subscribing; waiting to reconnect");
        try {
          if (sub.awaitResubscribed(Math.max(timeoutMs, s.maxReconnectDelay().toMillis() * 3))) {
            return sub;
          }
        } catch (InterruptedException ie) {
          Thread.currentThread().interrupt();
        }
      }
      sub.close();
      throw new IOException("subscribing at MQTT broker " + s.uri() + " failed: " + describe(e), e);
    } catch (IOException e) {
      sub.close();
      throw e;
    }
    return sub;
  }

  /** Publishes without waiting (QoS 0, not retained); a failure is logged and returned as false. */
  boolean publish(String topic, byte[] payload) {
    if (closed) {
      return false;
    }
    try {
      client.publish(topic, payload, 0, false);
      return true;
    } catch (MqttException e) {
      log.warn("publishing to " + ThrottledLog.printable(topic, 200) + " failed: " + describe(e));
      return false;
    }
  }

  /** Completed re-subscriptions after reconnects (all filters acknowledged). */
  private int resubscriptions;

  private synchronized boolean awaitResubscribed(long timeoutMs) throws InterruptedException {
    long deadline = System.currentTimeMillis() + timeoutMs;
    while (resubscriptions == 0) {
      long left = deadline - System.currentTimeMillis();
      if (left <= 0) {
        return false;
      }
      wait(left);
    }
    return true;
  }

  boolean isConnected() {
    return !closed && client.isConnected();
  }

  /** Disconnects cleanly (or drops the connection if the broker does not answer); idempotent. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      if (client.isConnected()) {
        client.disconnect(CLOSE_QUIESCE_MS).waitForCompletion(settings.connectTimeout().toMillis());
      }
    } catch (MqttException e) {
      // fall through to the forced close
    }
    try {
      if (client.isConnected()) {
        client.disconnectForcibly(0, 0, false);
      }
    } catch (MqttException e) {
      // already gone
    }
    try {
      client.close(true);
    } catch (MqttException e) {
      ThrottledLog.LOG.log(System.Logger.Level.DEBUG, "closing the Paho client of " + settings.uri() + " failed", e);
    }
  }

  static String describe(MqttException e) {
    switch (e.getReasonCode()) {
      case MqttException.REASON_CODE_FAILED_AUTHENTICATION:
        return "bad username or password";
      case MqttException.REASON_CODE_NOT_AUTHORIZED:
        return "not authorized";
      case MqttException.REASON_CODE_INVALID_CLIENT_ID:
        return "client id rejected";
      case MqttException.REASON_CODE_BROKER_UNAVAILABLE:
        return "broker unavailable";
      case MqttException.REASON_CODE_CLIENT_TIMEOUT:
        return "no answer in time";
      case MqttException.REASON_CODE_CLIENT_NOT_CONNECTED:
        return "not connected (reconnecting)";
      default:
        break;
    }
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    if (root instanceof ConnectException) {
      return "connection refused (is a broker listening there?)";
    }
    if (root instanceof UnknownHostException) {
      return "unknown host " + root.getMessage();
    }
    String msg = root == e ? e.getMessage() : e.getMessage() + ": " + root;
    int nl = msg == null ? -1 : msg.indexOf('\n');
    return msg == null ? "reason code " + e.getReasonCode() : nl < 0 ? msg : msg.substring(0, nl);
  }

  private final class Callback implements MqttCallbackExtended {
    @Override
    public void connectionLost(Throwable cause) {
      if (closed) {
        return;
      }
      String reason = cause == null ? "unknown cause" : cause instanceof MqttException me ? describe(me)
          : String.valueOf(cause.getMessage());
      log.info("lost the connection to " + settings.uri() + " (" + reason + "); reconnecting");
      try {
        listener.onConnectionLost(reason);
      } catch (RuntimeException e) {
        ThrottledLog.LOG.log(System.Logger.Level.WARNING, "connection-lost handler failed", e);
      }
    }

    @Override
    public void connectComplete(boolean reconnect, String serverUri) {
      if (!reconnect || closed) {
        return;
      }
      log.info("reconnected to " + settings.uri() + "; subscribing again");
      // asynchronously: this runs on a Paho thread that must not wait for its own acknowledgements
      java.util.concurrent.atomic.AtomicInteger acked = new java.util.concurrent.atomic.AtomicInteger();
      for (String f : filters) {
        try {
          client.subscribe(f, settings.qos(), null, new IMqttActionListener() {
            @Override
            public void onSuccess(IMqttToken token) {
              if (acked.incrementAndGet() == filters.size()) {
                synchronized (MqttSubscriber.this) {
                  resubscriptions++;
                  MqttSubscriber.this.notifyAll();
                }
              }
            }

            @Override
            public void onFailure(IMqttToken token, Throwable e) {
              log.warn("subscribing again to " + f + " failed: " + e.getMessage());
            }
          });
        } catch (MqttException e) {
          log.warn("subscribing again to " + f + " failed: " + describe(e));
        }
      }
      try {
        listener.onReconnected();
      } catch (RuntimeException e) {
        ThrottledLog.LOG.log(System.Logger.Level.WARNING, "reconnect handler failed", e);
      }
    }

    @Override
    public void messageArrived(String topic, MqttMessage message) {
      if (closed) {
        return;
      }
      try {
        listener.onMessage(topic, message.getPayload());
      } catch (RuntimeException | StackOverflowError e) {
        // never let it reach Paho: an exception from this callback drops the connection
        log.warn("message to " + ThrottledLog.printable(topic, 200) + " could not be handled: " + e);
      }
    }

    @Override
    public void deliveryComplete(IMqttDeliveryToken token) {}
  }
}
