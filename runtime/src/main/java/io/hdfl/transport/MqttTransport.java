package io.hdfl.transport;

import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.Socket;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.time.Duration;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import javax.net.ssl.SSLException;
import org.eclipse.paho.client.mqttv3.IMqttActionListener;
import org.eclipse.paho.client.mqttv3.IMqttDeliveryToken;
import org.eclipse.paho.client.mqttv3.IMqttToken;
import org.eclipse.paho.client.mqttv3.MqttAsyncClient;
import org.eclipse.paho.client.mqttv3.MqttCallbackExtended;
import org.eclipse.paho.client.mqttv3.MqttConnectOptions;
import org.eclipse.paho.client.mqttv3.MqttException;
import org.eclipse.paho.client.mqttv3.MqttMessage;
import org.eclipse.paho.client.mqttv3.TimerPingSender;
import org.eclipse.paho.client.mqttv3.persist.MemoryPersistence;

/**
 * {@link Transport} over MQTT 3.1.1 with Eclipse Paho; works with any MQTT 3.1.1 broker (Mosquitto,
 * EMQX, HiveMQ, the {@link EmbeddedBroker}). Connect with {@link #connect(MqttSettings)}.
 *
 * <ul>
 *   <li>TCP_NODELAY is set on the socket (plain and TLS), and a plain socket buffers a message until
 *       Paho flushes it, see {@link NoDelaySocketFactory}.
 *   <li>Sessions are clean (cleanSession=true) and the connection is re-established automatically by
 *       Paho (back-off from 1 s up to {@link MqttSettings#maxReconnectDelay()}); after a reconnect all
 *       subscriptions of this transport are subscribed again before {@link #isConnected()} turns true.
 *       Chosen over cleanSession=false because a persistent session survives only on brokers that
 *       persist sessions (the embedded broker keeps none across a restart, so re-subscribing is needed
 *       anyway) and because abandoned persistent sessions make brokers queue messages forever. The
 *       price: messages published while this client is disconnected are not delivered to it; the
 *       federation protocols' acks and timeouts cover that.
 *   <li>{@link #publish} fails fast with a {@link TransportException} while disconnected; a {@link
 *       #subscribe} while reconnecting (or cut off by a dropped connection) is kept and made when the
 *       connection is back, with the others.
 *   <li>Handlers run on Paho's callback thread, one message at a time, in arrival order; a handler may
 *       publish (QoS 1 acks are processed on another thread). A message that matches several
 *       subscriptions of this transport is handed to each matching handler once per copy the broker
 *       sends (brokers differ in how many copies they send for overlapping subscriptions).
 *   <li>QoS 1 is at least once: after a reconnect a message may arrive twice.
 * </ul>
 *
 * <p>Costs of Paho 1.2.5 measured here (JDK 17, 2 cores): a connect took ~0.3 s, its three I/O threads
 * each awaited with a 100 ms sleep, until {@link PahoThreads} started them; a received packet is
 * parsed byte by byte through a synchronized {@code ByteArrayInputStream.read()} ({@code
 * CountingInputStream} has no bulk read), about 55 ns per payload byte, so a 1 MB model takes ~60 ms per hop instead of ~3 ms. Paho's
 * automatic-reconnect back-off delay is a static field shared by all clients of the JVM (bounded by
 * {@link MqttSettings#maxReconnectDelay()}).
 *
 * <p>Paho 1.2.5's automatic reconnect can hang for good: its connect thread waits in
 * {@code CommsSender.start} for a sender thread that has already stopped (or was never started
 * because the previous one was still stopping), polling every 100 ms forever, and no later reconnect
 * is attempted (seen after broker restarts under load). A watchdog (one daemon thread for all
 * transports, once a second) replaces a client that has not reconnected within {@code stuckAfter()}
 * with a new Paho client of the same id and options, connects it (retrying with the same back-off,
 * since Paho does not retry a first connect) and subscribes it to everything again. The hung thread
 * of the old client cannot be stopped; it only sleeps.
 */
public final class MqttTransport implements Transport {
  private static final System.Logger LOG = System.getLogger("io.hdfl.transport");
  private static final long CLOSE_QUIESCE_MS = 200;
  private static final String PLAIN_PORT_HINT = " (a plain MQTT port? try tcp://)";
  private static final long WATCHDOG_PERIOD_MS = 1000;
  /** Looks at every transport's connection once a second. */
  private static final ScheduledExecutorService WATCHDOG = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "hdfl-mqtt-watchdog");
    t.setDaemon(true);
    return t;
  });

  private record Subscription(String filter, int qos, MessageHandler handler) {}

  private final java.util.concurrent.atomic.AtomicLong losses = new java.util.concurrent.atomic.AtomicLong();

  private final MqttSettings settings;
  private final MqttConnectOptions options;
  /** The Paho client; replaced by the watchdog when its reconnect hangs. */
  private volatile MqttAsyncClient client;
  /** When the connection was lost (System.nanoTime), 0 while connected. */
  private volatile long lostAt;
  /** The client is a replacement that has not connected yet: Paho does not retry a first connect. */
  private volatile boolean replacement;
  private volatile boolean replacementConnecting;
  private volatile long replacementStartedAt;
  private volatile long replacementRetryAt;
  private volatile long replacementDelayMs;
  private final AtomicLong replacements = new AtomicLong();
  private volatile ScheduledFuture<?> watch;
  private final Supplier<Socket> currentSocket;
  private final Object subLock = new Object();
  /** Guarded by subLock; dispatch reads the volatile snapshot. */
  private final Map<String, Subscription> subscriptions = new LinkedHashMap<>();
  private volatile Subscription[] snapshot = new Subscription[0];
  private final Semaphore inflight;
  private volatile boolean closed;
  private volatile boolean restoring;
  private volatile boolean lostLogged;
  private final AtomicLong messagesSent = new AtomicLong();
  private final AtomicLong bytesSent = new AtomicLong();
  private final AtomicLong messagesReceived = new AtomicLong();
  private final AtomicLong bytesReceived = new AtomicLong();
  private final CopyOnWriteArrayList<Runnable> reconnectListeners = new CopyOnWriteArrayList<>();

  private MqttTransport(MqttSettings settings, MqttConnectOptions options, MqttAsyncClient client,
      Supplier<Socket> currentSocket) {
    this.settings = settings;
    this.options = options;
    this.client = client;
    this.currentSocket = currentSocket;
    this.inflight = new Semaphore(settings.maxInflight());
  }

  /**
   * Connects to the broker; returns once the broker accepted the connection.
   *
   * @throws TransportException with a one-line message if the broker is unreachable, refuses the
   *     credentials, fails the TLS handshake, or does not answer within the connect timeout
   */
  public static MqttTransport connect(MqttSettings settings) throws TransportException {
    String uri = settings.uri();
    MqttConnectOptions options = new MqttConnectOptions();
    options.setMqttVersion(MqttConnectOptions.MQTT_VERSION_3_1_1);
    options.setCleanSession(true);
    options.setAutomaticReconnect(true);
    options.setMaxReconnectDelay(Math.toIntExact(settings.maxReconnectDelay().toMillis()));
    options.setKeepAliveInterval(Math.toIntExact(Math.max(1, settings.keepAlive().toSeconds())));
    options.setConnectionTimeout(Math.toIntExact(Math.max(1, settings.connectTimeout().toSeconds())));
    // Paho frees an in-flight slot only after it has completed the delivery token, so a publisher that
    // waits for its token can already be on its next publish while Paho still counts the previous one
    // ("Too many publishes in progress", seen against Mosquitto). Our semaphore bounds the in-flight
    // messages at maxInflight; Paho's own limit is set above it so that this race cannot trip it.
    options.setMaxInflight(settings.maxInflight() * 2 + 8);
    options.setHttpsHostnameVerificationEnabled(true);
    if (settings.username() != null) {
      options.setUserName(settings.username());
    }
    if (settings.password() != null) {
      options.setPassword(settings.password().toCharArray());
    }
    LastWill will = settings.will();
    if (will != null) {
      options.setWill(will.topic(), will.payload(), will.qos(), will.retained());
    }
    Supplier<Socket> socket;
    if (settings.tls()) {
      NoDelaySslSocketFactory f;
      try {
        f = new NoDelaySslSocketFactory(ClientTls.socketFactory(settings));
      } catch (IOException e) {
        throw new TransportException(e.getMessage(), e);
      }
      options.setSocketFactory(f);
      socket = f::lastSocket;
    } else {
      NoDelaySocketFactory f = new NoDelaySocketFactory();
      options.setSocketFactory(f);
      socket = f::lastSocket;
    }
    MqttAsyncClient client;
    try {
      client = newClient(uri, settings.clientId());
    } catch (MqttException | IllegalArgumentException e) {
      throw new TransportException("bad broker URL " + uri + ": " + e.getMessage(), e);
    }
    MqttTransport t = new MqttTransport(settings, options, client, socket);
    client.setCallback(t.new Callback(client));
    try {
      IMqttToken token = client.connect(options);
      token.waitForCompletion(settings.connectTimeout().toMillis());
    } catch (MqttException e) {
      t.closeQuietly();
      throw new TransportException(describeConnectFailure(uri, settings, e), e);
    }
    t.watch = WATCHDOG.scheduleWithFixedDelay(t::watchdogTick, WATCHDOG_PERIOD_MS, WATCHDOG_PERIOD_MS,
        TimeUnit.MILLISECONDS);
    return t;
  }

  /** A Paho client that starts its threads without sleeping (see {@link PahoThreads}). */
  private static MqttAsyncClient newClient(String uri, String clientId) throws MqttException {
    return new MqttAsyncClient(uri, clientId, new MemoryPersistence(), new TimerPingSender(), new PahoThreads());
  }

  @Override
  public String clientId() {
    return settings.clientId();
  }

  /** The settings this transport connected with. */
  public MqttSettings settings() {
    return settings;
  }

  @Override
  public void subscribe(String topicFilter, int qos, MessageHandler handler) throws TransportException {
    TopicFilter.checkSubscription(topicFilter, qos, handler);
    if (closed) {
      throw closedException();
    }
    Subscription sub = new Subscription(topicFilter, qos, handler);
    Subscription previous;
    synchronized (subLock) {
      previous = subscriptions.put(topicFilter, sub);
      publishSnapshot();
    }
    if (!client.isConnected()) {
      return; // reconnecting: made with the others when the connection is back (restoreSubscriptions)
    }
    try {
      IMqttToken token = client.subscribe(topicFilter, qos);
      token.waitForCompletion(settings.operationTimeout().toMillis());
      int[] granted = token.getGrantedQos();
      if (granted != null && granted.length > 0 && granted[0] == 0x80) {
        throw new TransportException("broker " + settings.uri() + " refused the subscription to " + topicFilter);
      }
    } catch (MqttException | TransportException e) {
      if (e instanceof MqttException me && lostConnection(me)) {
        return; // the connection dropped meanwhile: kept, and made again on reconnect
      }
      synchronized (subLock) {
        if (subscriptions.get(topicFilter) == sub) {
          if (previous != null) {
            subscriptions.put(topicFilter, previous);
          } else {
            subscriptions.remove(topicFilter);
          }
          publishSnapshot();
        }
      }
      if (e instanceof TransportException te) {
        throw te;
      }
      throw failure("subscribe to " + topicFilter, (MqttException) e);
    }
  }

  /**
   * Stops delivery to the handler of {@code topicFilter} at once. While disconnected this only
   * forgets the subscription (a clean session has none at the broker to remove).
   */
  @Override
  public void unsubscribe(String topicFilter) throws TransportException {
    TopicFilter.checkFilter(topicFilter);
    if (closed) {
      throw closedException();
    }
    synchronized (subLock) {
      subscriptions.remove(topicFilter);
      publishSnapshot();
    }
    if (!client.isConnected()) {
      return;
    }
    try {
      client.unsubscribe(topicFilter).waitForCompletion(settings.operationTimeout().toMillis());
    } catch (MqttException e) {
      throw failure("unsubscribe from " + topicFilter, e);
    }
  }

  @Override
  public void publish(String topic, byte[] payload, int qos, boolean retained) throws TransportException {
    TopicFilter.checkTopic(topic);
    QosLevel.check(qos);
    checkUsable();
    boolean permit = false;
    try {
      if (qos > 0) {
        if (!inflight.tryAcquire(settings.operationTimeout().toMillis(), TimeUnit.MILLISECONDS)) {
          throw new TransportException("publish to " + topic + " timed out waiting for an in-flight slot");
        }
        permit = true;
      }
      long lossesBefore = losses.get();
      IMqttDeliveryToken token = client.publish(topic, payload, qos, retained);
      awaitDelivery(token, topic, lossesBefore);
    } catch (MqttException e) {
      throw failure("publish to " + topic, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new TransportException("interrupted while publishing to " + topic, e);
    } finally {
      if (permit) {
        inflight.release();
      }
    }
    messagesSent.incrementAndGet();
    bytesSent.addAndGet(payload.length + LoopbackTransport.utf8Length(topic));
  }

  @Override
  public TransportStats stats() {
    return new TransportStats(messagesSent.get(), bytesSent.get(), messagesReceived.get(),
        bytesReceived.get());
  }

  /** Connected and, after a reconnect, with all subscriptions restored. */
  @Override
  public boolean isConnected() {
    return !closed && !restoring && client.isConnected();
  }

  /** Disconnects cleanly (DISCONNECT sent, so the broker discards the last will); idempotent. */
  @Override
  public void close() {
    if (markClosed()) {
      closeQuietly();
    }
  }

  /**
   * Fault injection: drops the TCP connection abruptly (RST, no DISCONNECT), as a crash or power loss
   * would, so the broker publishes the last will. The transport is closed afterwards. Idempotent.
   */
  public void crash() {
    if (!markClosed()) {
      return;
    }
    Socket s = currentSocket.get();
    if (s != null) {
      try {
        s.setSoLinger(true, 0); // close() then sends RST instead of FIN
      } catch (SocketException e) {
        // already closed
      }
    }
    try {
      // closes the socket without sending DISCONNECT and without triggering automatic reconnect
      client.disconnectForcibly(0, 0, false);
    } catch (MqttException e) {
      // nothing left to drop
    }
    try {
      client.close(true);
    } catch (MqttException e) {
      LOG.log(System.Logger.Level.DEBUG, "closing the Paho client after a crash", e);
    }
  }

  /** The socket of the current connection (for tests and diagnostics), or null. */
  Socket currentSocket() {
    return currentSocket.get();
  }

  private boolean markClosed() {
    synchronized (subLock) {
      if (closed) {
        return false;
      }
      closed = true;
    }
    ScheduledFuture<?> w = watch;
    if (w != null) {
      w.cancel(false);
    }
    return true;
  }

  /**
   * How long a lost connection may stay lost before the client is deemed hung and replaced: one
   * connect attempt and the longest back-off, and 2 s to spare. A client replaced while the broker is
   * merely down costs a new client that goes on trying with the same back-off.
   */
  Duration stuckAfter() {
    return settings.connectTimeout().plus(settings.maxReconnectDelay()).plusSeconds(2);
  }

  /** How many times the watchdog replaced the Paho client (a hung reconnect, or a long outage). */
  public long clientReplacements() {
    return replacements.get();
  }

  private void watchdogTick() {
    try {
      MqttAsyncClient c = client;
      if (closed || c.isConnected()) {
        return;
      }
      long now = System.nanoTime();
      long stuck = stuckAfter().toNanos();
      if (replacement) {
        if (replacementConnecting) {
          if (now - replacementStartedAt > stuck) {
            replaceClient(c, "its connect did not finish within " + stuckAfter().toSeconds() + " s");
          }
        } else if (now - replacementRetryAt >= 0) {
          connectReplacement(c);
        }
        return;
      }
      long lost = lostAt;
      if (lost != 0 && now - lost > stuck) {
        replaceClient(c, "it did not reconnect within " + stuckAfter().toSeconds() + " s");
      }
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.WARNING, "MQTT watchdog of " + settings.clientId() + " failed", e);
    }
  }

  /** Puts a new Paho client in place of {@code old}, which is dropped, and connects it. */
  private void replaceClient(MqttAsyncClient old, String why) {
    MqttAsyncClient next;
    try {
      next = newClient(settings.uri(), settings.clientId());
    } catch (MqttException e) {
      LOG.log(System.Logger.Level.WARNING, "cannot make a new MQTT client for " + settings.uri() + ": " + oneLine(e));
      return;
    }
    next.setCallback(new Callback(next));
    synchronized (subLock) {
      if (closed || client != old) {
        dropInBackground(next);
        return;
      }
      replacement = true;
      replacementConnecting = false;
      replacementDelayMs = 1000;
      restoring = snapshot.length > 0;
      client = next;
    }
    replacements.incrementAndGet();
    LOG.log(System.Logger.Level.WARNING, "no connection to " + settings.uri() + " for " + settings.clientId()
        + ": " + why + " (the broker may still be down, or Paho's reconnect hung); replacing the MQTT client");
    dropInBackground(old);
    connectReplacement(next);
  }

  /** Connects a replacement client; on failure the watchdog tries again after the back-off. */
  private void connectReplacement(MqttAsyncClient c) {
    replacementConnecting = true;
    replacementStartedAt = System.nanoTime();
    try {
      c.connect(options, null, new IMqttActionListener() {
        @Override
        public void onSuccess(IMqttToken token) {
          if (c != client || closed) {
            return;
          }
          replacement = false;
          replacementConnecting = false;
          lostAt = 0;
          lostLogged = false;
          LOG.log(System.Logger.Level.INFO, "connected again to " + settings.uri() + " with a new client");
          restoreSubscriptions();
        }

        @Override
        public void onFailure(IMqttToken token, Throwable e) {
          if (c == client) { // not a client replaced meanwhile (its connect fails when it is dropped)
            retryReplacementLater();
          }
        }
      });
    } catch (MqttException | RuntimeException e) {
      retryReplacementLater();
    }
  }

  private void retryReplacementLater() {
    replacementRetryAt = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(replacementDelayMs);
    replacementDelayMs = Math.min(replacementDelayMs * 2, Math.max(1000, settings.maxReconnectDelay().toMillis()));
    replacementConnecting = false;
  }

  /** Disconnects and closes a client that is no longer this transport's, off the watchdog's thread. */
  private void dropInBackground(MqttAsyncClient old) {
    Thread t = new Thread(() -> {
      try {
        old.disconnectForcibly(0, 0, false);
      } catch (MqttException | RuntimeException e) {
        // already disconnected
      }
      try {
        old.close(true);
      } catch (MqttException | RuntimeException e) {
        LOG.log(System.Logger.Level.DEBUG, "closing a replaced Paho client failed", e);
      }
    }, "hdfl-mqtt-drop-" + settings.clientId());
    t.setDaemon(true);
    t.start();
  }

  private void closeQuietly() {
    try {
      if (client.isConnected()) {
        client.disconnect(CLOSE_QUIESCE_MS).waitForCompletion(settings.operationTimeout().toMillis());
      }
    } catch (MqttException e) {
      LOG.log(System.Logger.Level.DEBUG, "clean disconnect from " + settings.uri() + " failed", e);
    }
    try {
      if (!client.isConnected()) {
        client.disconnectForcibly(0, 0, false);
      }
    } catch (MqttException e) {
      // already disconnected
    }
    try {
      client.close(true);
    } catch (MqttException e) {
      LOG.log(System.Logger.Level.DEBUG, "closing the Paho client failed", e);
    }
  }

  private void publishSnapshot() {
    snapshot = subscriptions.values().toArray(new Subscription[0]);
  }

  private static boolean lostConnection(MqttException e) {
    int code = e.getReasonCode();
    return code == MqttException.REASON_CODE_CONNECTION_LOST || code == MqttException.REASON_CODE_CLIENT_NOT_CONNECTED
        || code == MqttException.REASON_CODE_CLIENT_DISCONNECTING;
  }

  private void checkUsable() throws TransportException {
    if (closed) {
      throw closedException();
    }
    if (!client.isConnected()) {
      throw new TransportException("not connected to " + settings.uri() + " (reconnecting)");
    }
  }

  private TransportException closedException() {
    return new TransportException("transport " + settings.clientId() + " is closed");
  }

  private TransportException failure(String what, MqttException e) {
    if (closed) {
      return new TransportException(what + " failed: transport " + settings.clientId() + " is closed", e);
    }
    String reason = switch (e.getReasonCode()) {
      case MqttException.REASON_CODE_CLIENT_TIMEOUT -> "no answer from " + settings.uri() + " within "
          + settings.operationTimeout().toMillis() + " ms";
      case MqttException.REASON_CODE_CLIENT_NOT_CONNECTED, MqttException.REASON_CODE_CONNECTION_LOST ->
          "not connected to " + settings.uri() + " (reconnecting)";
      default -> oneLine(e);
    };
    return new TransportException(what + " failed: " + reason, e);
  }

  static String describeConnectFailure(String uri, MqttSettings s, MqttException e) {
    Throwable cause = e.getCause();
    Throwable root = cause;
    while (root != null && root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String prefix = "cannot connect to MQTT broker " + uri + ": ";
    switch (e.getReasonCode()) {
      case MqttException.REASON_CODE_FAILED_AUTHENTICATION:
        return prefix + "bad username or password"
            + (s.username() == null ? " (none given)" : " for user '" + s.username() + "'");
      case MqttException.REASON_CODE_NOT_AUTHORIZED:
        return prefix + "not authorized" + (s.username() == null ? " (no username given)"
            : " (user '" + s.username() + "')");
      case MqttException.REASON_CODE_INVALID_CLIENT_ID:
        return prefix + "the broker rejected client id '" + s.clientId() + "'";
      case MqttException.REASON_CODE_BROKER_UNAVAILABLE:
        return prefix + "the broker is unavailable";
      case MqttException.REASON_CODE_INVALID_PROTOCOL_VERSION:
        return prefix + "the broker does not accept MQTT 3.1.1";
      case MqttException.REASON_CODE_CLIENT_TIMEOUT:
        return prefix + "no answer within " + s.connectTimeout().toSeconds() + " s";
      default:
        break;
    }
    if (root instanceof ConnectException) {
      return prefix + "connection refused (is a broker listening there?)";
    }
    if (root instanceof UnknownHostException) {
      return prefix + "unknown host " + root.getMessage();
    }
    if (root instanceof NoRouteToHostException) {
      return prefix + "no route to host";
    }
    if (root instanceof java.net.SocketTimeoutException) {
      return prefix + "no answer within " + s.connectTimeout().toSeconds() + " s";
    }
    for (Throwable t = cause; t != null; t = t.getCause()) {
      if (t instanceof SSLException) {
        String why = firstLine(root.getMessage() != null ? root.getMessage() : t.getMessage());
        String hint = "";
        if (s.clientCert() == null && (why.contains("bad_certificate") || why.contains("certificate_required"))) {
          hint = " (the broker may require a client certificate)";
        } else if (why.contains("certification path")) {
          hint = s.caFile() == null ? " (set caFile to the broker's CA certificate)"
              : " (is " + s.caFile() + " the CA that signed the broker's certificate?)";
        } else if (root instanceof java.io.EOFException || root instanceof SocketException
            || why.contains("terminated the handshake") || why.contains("shut down incorrectly")
            || why.contains("Unsupported or unrecognized SSL message")) {
          hint = PLAIN_PORT_HINT; // the server closed or answered in clear where a handshake was due
        }
        return prefix + "TLS handshake failed: " + why + hint;
      }
      if (t.getCause() == t) {
        break;
      }
    }
    if (s.tls() && e.getReasonCode() == MqttException.REASON_CODE_CLIENT_EXCEPTION && root instanceof SocketException
        && root.getMessage() != null && (root.getMessage().contains("reset") || root.getMessage().contains("Broken pipe"))) {
      // a plain MQTT broker drops a TLS client hello it cannot parse (Mosquitto resets the connection)
      return prefix + "TLS handshake failed: " + firstLine(root.getMessage()) + PLAIN_PORT_HINT;
    }
    if (e.getReasonCode() == MqttException.REASON_CODE_CONNECTION_LOST) {
      return prefix + "the broker closed the connection during the handshake"
          + (s.tls() ? "" : " (a TLS-only port? try ssl://)")
          + (root != null && root.getMessage() != null ? ": " + firstLine(root.getMessage()) : "");
    }
    return prefix + oneLine(e);
  }

  private static String oneLine(MqttException e) {
    Throwable c = e.getCause();
    String msg = e.getMessage();
    if (c != null && c.getMessage() != null && !c.getMessage().equals(msg)) {
      msg = msg + ": " + c.getMessage();
    }
    return firstLine(msg);
  }

  private static String firstLine(String s) {
    if (s == null) {
      return "unknown error";
    }
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }

  /**
   * Waits for a publish to be confirmed, in short slices: if the connection is lost meanwhile, Paho
   * (clean session) may never complete the token, so the wait ends at once with a TransportException
   * ("not confirmed": it may or may not have reached the broker) instead of blocking for the whole
   * operation timeout; the protocols retry after reconnecting and deduplicate.
   */
  private void awaitDelivery(IMqttDeliveryToken token, String topic, long lossesBefore)
      throws MqttException, TransportException {
    // Polls rather than token.waitForCompletion(slice), which records a timed-out wait as the token's
    // exception, and rather than an action listener, which runs on the callback thread (a handler that
    // publishes would wait for itself). The pause doubles from 20 µs to 1 ms: fast hops stay fast.
    // Past 8 ms of waiting it may grow to an eighth of the wait so far (at most 50 ms): hundreds of
    // publishers waiting at once in one process (a simulated 500-client star) would otherwise wake
    // 1000 times a second each and starve the threads that read the acknowledgements.
    long start = System.nanoTime();
    long deadline = start + settings.operationTimeout().toNanos();
    long pause = 20_000;
    while (!token.isComplete()) {
      if (losses.get() != lossesBefore || closed) {
        throw new TransportException("publish to " + topic + " not confirmed: the connection to " + settings.uri()
            + " was lost meanwhile");
      }
      if (System.nanoTime() > deadline) {
        throw new TransportException("publish to " + topic + " not confirmed within " + settings.operationTimeout());
      }
      java.util.concurrent.locks.LockSupport.parkNanos(pause);
      pause = Math.min(pause * 2, Math.min(50_000_000, Math.max(1_000_000, (System.nanoTime() - start) / 8)));
    }
    if (token.getException() != null) {
      throw token.getException();
    }
  }


  @Override
  public void onReconnected(Runnable listener) {
    reconnectListeners.add(Objects.requireNonNull(listener, "listener"));
  }

  /**
   * Runs the reconnect listeners on a thread of their own: Paho's callback thread, where the
   * connection is restored, must not wait for the PUBACK of a listener's publish.
   */
  private void reconnected() {
    if (reconnectListeners.isEmpty() || closed) {
      return;
    }
    Thread t = new Thread(() -> {
      for (Runnable l : reconnectListeners) {
        if (closed) {
          return;
        }
        try {
          l.run();
        } catch (RuntimeException e) {
          LOG.log(System.Logger.Level.WARNING, "a reconnect listener of " + settings.clientId() + " threw", e);
        }
      }
    }, "hdfl-mqtt-reconnected-" + settings.clientId());
    t.setDaemon(true);
    t.start();
  }

  @Override
  public long connectionLosses() {
    return losses.get();
  }

  @Override
  public String toString() {
    return "MqttTransport[" + settings.clientId() + " @ " + settings.uri() + (closed ? ", closed" : "") + "]";
  }

  private final class Callback implements MqttCallbackExtended {
    /** The client this callback was set on: events of a replaced client are ignored. */
    private final MqttAsyncClient owner;

    Callback(MqttAsyncClient owner) {
      this.owner = owner;
    }

    @Override
    public void connectionLost(Throwable cause) {
      if (closed || owner != client) {
        return;
      }
      if (lostAt == 0) {
        lostAt = System.nanoTime();
      }
      losses.incrementAndGet();
      if (snapshot.length > 0) {
        restoring = true; // isConnected() stays false until restoreSubscriptions() is done
      }
      if (!lostLogged) {
        lostLogged = true;
        LOG.log(System.Logger.Level.WARNING, "lost the connection to " + settings.uri() + " ("
            + (cause == null ? "unknown cause" : firstLine(String.valueOf(cause.getMessage())))
            + "); reconnecting");
      }
    }

    @Override
    public void connectComplete(boolean reconnect, String serverUri) {
      if (!reconnect || closed || owner != client) {
        return;
      }
      lostAt = 0;
      lostLogged = false;
      LOG.log(System.Logger.Level.INFO, "reconnected to " + settings.uri());
      restoreSubscriptions();
    }

    @Override
    public void messageArrived(String topic, MqttMessage message) {
      byte[] payload = message.getPayload();
      messagesReceived.incrementAndGet();
      bytesReceived.addAndGet(payload.length + LoopbackTransport.utf8Length(topic));
      boolean first = true;
      for (Subscription s : snapshot) {
        if (!TopicFilter.matches(s.filter(), topic)) {
          continue;
        }
        byte[] own = first ? payload : payload.clone();
        first = false;
        try {
          s.handler().onMessage(topic, own, message.isRetained());
        } catch (RuntimeException e) {
          // never let it reach Paho: an exception from this callback drops the connection
          LOG.log(System.Logger.Level.WARNING,
              "handler of " + s.filter() + " on " + settings.clientId() + " threw on a message to " + topic, e);
        }
      }
    }

    @Override
    public void deliveryComplete(IMqttDeliveryToken token) {}
  }

  /** Subscribes again to everything (asynchronously: this runs on Paho's callback thread). */
  private void restoreSubscriptions() {
    Subscription[] subs = snapshot;
    if (subs.length == 0) {
      restoring = false;
      reconnected();
      return;
    }
    String[] filters = new String[subs.length];
    int[] qos = new int[subs.length];
    for (int i = 0; i < subs.length; i++) {
      filters[i] = subs[i].filter();
      qos[i] = subs[i].qos();
    }
    try {
      client.subscribe(filters, qos, null, new IMqttActionListener() {
        @Override
        public void onSuccess(IMqttToken token) {
          restoring = false;
          LOG.log(System.Logger.Level.INFO, "restored " + filters.length + " subscription(s) on " + settings.uri());
          reconnected();
        }

        @Override
        public void onFailure(IMqttToken token, Throwable e) {
          restoring = false; // a lost connection restores again on the next reconnect
          LOG.log(System.Logger.Level.WARNING, "restoring subscriptions on " + settings.uri() + " failed: "
              + firstLine(String.valueOf(e)));
        }
      });
    } catch (MqttException e) {
      restoring = false;
      LOG.log(System.Logger.Level.WARNING, "restoring subscriptions on " + settings.uri() + " failed: "
          + firstLine(String.valueOf(e)));
    }
  }
}
