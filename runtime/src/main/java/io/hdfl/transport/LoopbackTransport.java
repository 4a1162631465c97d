package io.hdfl.transport;

import io.hdfl.concurrent.SerialWorker;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A client of a {@link LoopbackBroker}; see the broker for the semantics. Thread-safe.
 */
public final class LoopbackTransport implements Transport {
  private static final System.Logger LOG = System.getLogger("io.hdfl.transport");

  /** One subscription; {@code active} turns false when it is unsubscribed or replaced. */
  static final class Subscription {
    private final String filter;
    private final String literalPrefix;
    private final boolean exact;
    private final MessageHandler handler;
    private final LoopbackTransport owner;
    /** Its place among the owner's subscriptions (a replacement takes the place of the one it replaces). */
    private int rank;
    private volatile boolean active = true;

    Subscription(String filter, MessageHandler handler, LoopbackTransport owner) {
      this.filter = filter;
      this.literalPrefix = TopicFilter.literalPrefix(filter);
      this.exact = literalPrefix.equals(filter);
      this.handler = handler;
      this.owner = owner;
    }

    String filter() {
      return filter;
    }

    /** The filter's levels before its first wildcard ({@link TopicFilter#literalPrefix}): the broker's index key. */
    String literalPrefix() {
      return literalPrefix;
    }

    LoopbackTransport owner() {
      return owner;
    }

    int rank() {
      return rank;
    }

    /** Whether it matches {@code topic}, a topic that starts with its literal prefix. */
    boolean matches(String topic) {
      return exact ? topic.length() == filter.length() : TopicFilter.matches(filter, topic);
    }
  }

  private final LoopbackBroker broker;
  private final String clientId;
  private final LastWill will;
  /** Guarded by the broker's lock. */
  private final Map<String, Subscription> subscriptions = new LinkedHashMap<>();
  /** Guarded by the broker's lock. */
  private int nextRank;
  private final SerialWorker delivery;
  private volatile boolean connected = true;
  private final AtomicLong messagesSent = new AtomicLong();
  private final AtomicLong bytesSent = new AtomicLong();
  private final AtomicLong messagesReceived = new AtomicLong();
  private final AtomicLong bytesReceived = new AtomicLong();

  LoopbackTransport(LoopbackBroker broker, String clientId, LastWill will) {
    this.broker = broker;
    this.clientId = clientId;
    this.will = will;
    this.delivery = new SerialWorker("hdfl-loopback-" + clientId);
  }

  @Override
  public String clientId() {
    return clientId;
  }

  @Override
  public void subscribe(String topicFilter, int qos, MessageHandler handler) throws TransportException {
    TopicFilter.checkSubscription(topicFilter, qos, handler);
    checkConnected();
    broker.subscribe(this, new Subscription(topicFilter, handler, this));
  }

  @Override
  public void unsubscribe(String topicFilter) throws TransportException {
    TopicFilter.checkFilter(topicFilter);
    checkConnected();
    broker.unsubscribe(this, topicFilter);
  }

  @Override
  public void publish(String topic, byte[] payload, int qos, boolean retained) throws TransportException {
    TopicFilter.checkTopic(topic);
    QosLevel.check(qos);
    checkConnected();
    broker.publish(topic, payload, retained);
    messagesSent.incrementAndGet();
    bytesSent.addAndGet(payload.length + utf8Length(topic));
  }

  @Override
  public TransportStats stats() {
    return new TransportStats(messagesSent.get(), bytesSent.get(), messagesReceived.get(),
        bytesReceived.get());
  }

  @Override
  public boolean isConnected() {
    return connected;
  }

  /** Disconnects cleanly: no last will; messages not yet delivered are dropped. Idempotent. */
  @Override
  public void close() {
    disconnect(null);
  }

  /**
   * Simulates a crash (power loss, network cut): disconnects without a clean DISCONNECT, so the broker
   * publishes this client's last will. Idempotent; a no-op after {@link #close()}.
   */
  public void crash() {
    disconnect(will);
  }

  private void disconnect(LastWill willToPublish) {
    List<LoopbackTransport> toWake;
    synchronized (broker.lock()) {
      if (!connected) {
        return;
      }
      connected = false;
      for (Subscription s : subscriptions.values()) {
        s.active = false;
        broker.unindexLocked(s);
      }
      subscriptions.clear();
      toWake = broker.disconnectLocked(this, willToPublish);
    }
    delivery.stop();
    LoopbackBroker.wake(toWake);
  }

  private void checkConnected() throws TransportException {
    if (!connected) {
      throw new TransportException("transport " + clientId + " is closed");
    }
  }

  // --- called by the broker under its lock ---

  /** Adds or replaces the subscription of {@code sub}'s filter; returns the one replaced, or null. */
  Subscription putSubscriptionLocked(Subscription sub) {
    Subscription old = subscriptions.put(sub.filter, sub);
    if (old != null) {
      old.active = false;
      sub.rank = old.rank;
    } else {
      sub.rank = nextRank++;
    }
    return old;
  }

  /** Removes the subscription of {@code filter}; returns it, or null if there was none. */
  Subscription removeSubscriptionLocked(String filter) {
    Subscription old = subscriptions.remove(filter);
    if (old != null) {
      old.active = false;
    }
    return old;
  }

  /**
   * Queues a delivery; the broker wakes the delivery thread ({@link #wake}) once it has released its
   * lock. False if this transport is disconnected (nothing queued).
   */
  boolean enqueueLocked(String topic, byte[] payload, boolean retained, List<Subscription> subs) {
    if (!connected) {
      return false;
    }
    byte[] copy = payload.clone();
    delivery.add(() -> deliver(topic, copy, retained, subs));
    return true;
  }

  /** Wakes the delivery thread for the messages queued for it; called outside the broker's lock. */
  void wake() {
    delivery.wake();
  }

  private void deliver(String topic, byte[] payload, boolean retained, List<Subscription> subs) {
    if (!connected) {
      return;
    }
    messagesReceived.incrementAndGet();
    bytesReceived.addAndGet(payload.length + utf8Length(topic));
    boolean first = true;
    for (Subscription s : subs) {
      if (!s.active || !connected) {
        continue;
      }
      byte[] own = first ? payload : payload.clone();
      first = false;
      try {
        s.handler.onMessage(topic, own, retained);
      } catch (RuntimeException e) {
        LOG.log(System.Logger.Level.WARNING,
            "handler of " + s.filter + " on " + clientId + " threw on a message to " + topic, e);
      }
    }
  }

  static int utf8Length(String s) {
    int n = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        n += 1;
      } else if (c < 0x800) {
        n += 2;
      } else if (Character.isHighSurrogate(c)) {
        n += 4;
        i++;
      } else {
        n += 3;
      }
    }
    return n;
  }

  @Override
  public String toString() {
    return "LoopbackTransport[" + clientId + (connected ? "" : ", closed") + "]";
  }
}
