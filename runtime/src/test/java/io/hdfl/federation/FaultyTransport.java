package io.hdfl.federation;

import io.hdfl.transport.LoopbackTransport;
import io.hdfl.transport.MessageHandler;
import io.hdfl.transport.MqttTransport;
import io.hdfl.transport.TopicFilter;
import io.hdfl.transport.Transport;
import io.hdfl.transport.TransportException;
import java.util.EnumMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Fault injection on a real connection (MQTT to Mosquitto or the embedded broker, or the loopback):
 * what the broker delivers to this client is dropped, corrupted, duplicated, delayed or reordered as
 * a seeded {@link DeliveryFaults} plan says, and {@link #kill()} ends the client as a crash would (the
 * socket is reset without DISCONNECT, so the broker publishes its last will).
 *
 * <p>Deliveries, faulty or not, are handed to the handlers on one thread of this transport, one at a
 * time, as the {@link Transport} contract requires; only their order and timing change.
 */
class FaultyTransport extends ForwardingTransport {
  enum Fault { DROP, CORRUPT, DUPLICATE, DELAY, REORDER }

  /** Every ring peer's inbox, in every federation: where models are handed over. */
  static final String RING_INBOXES = "hdfl/+/ring/+/in/+";

  private final DeliveryFaults plan;
  /** Guarded by {@code this}: decisions are drawn in delivery order. */
  private final SplittableRandom random;
  private int toDrop;
  private int matching;
  private final Map<Fault, AtomicLong> injected = new EnumMap<>(Fault.class);
  private final ScheduledExecutorService deliveries;
  /** A delivery held back for reordering: released after the next one, or by its timer. */
  private final AtomicReference<Runnable> held = new AtomicReference<>();
  private volatile boolean killed;

  FaultyTransport(Transport inner, DeliveryFaults plan) {
    super(inner);
    this.plan = plan;
    this.random = new SplittableRandom(plan.seed() * 0x9E3779B97F4A7C15L ^ inner.clientId().hashCode());
    this.toDrop = plan.dropFirst();
    for (Fault f : Fault.values()) {
      injected.put(f, new AtomicLong());
    }
    this.deliveries = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "faulty-" + inner.clientId());
      t.setDaemon(true);
      return t;
    });
  }

  /** How many deliveries got {@code fault} so far. */
  long injected(Fault fault) {
    return injected.get(fault).get();
  }

  /** Every fault injected so far, for assertion messages. */
  String summary() {
    StringBuilder b = new StringBuilder(clientId()).append(" (seed ").append(plan.seed()).append("):");
    injected.forEach((f, n) -> b.append(' ').append(f.name().toLowerCase(java.util.Locale.ROOT)).append('=').append(n));
    return b.toString();
  }

  /**
   * Ends this client abruptly: nothing more is delivered or sent, and the connection is reset without
   * DISCONNECT (the broker then publishes the client's last will). The peer using it is left as a
   * killed process leaves it: alive to itself, gone for everyone else.
   */
  void kill() {
    killed = true;
    deliveries.shutdownNow();
    if (inner instanceof MqttTransport m) {
      m.crash();
    } else if (inner instanceof LoopbackTransport l) {
      l.crash();
    } else {
      inner.close();
    }
  }

  boolean killed() {
    return killed;
  }

  @Override
  public void subscribe(String topicFilter, int qos, MessageHandler handler) throws TransportException {
    inner.subscribe(topicFilter, qos, (topic, payload, retained) -> arrive(handler, topic, payload, retained));
  }

  @Override
  public void publish(String topic, byte[] payload, int qos, boolean retained) throws TransportException {
    if (killed) {
      throw new TransportException("transport " + clientId() + " was killed");
    }
    inner.publish(topic, payload, qos, retained);
  }

  @Override
  public boolean isConnected() {
    return !killed && inner.isConnected();
  }

  @Override
  public void close() {
    deliveries.shutdownNow();
    if (!killed) {
      inner.close();
    }
  }

  /** Runs on the inner transport's delivery thread: decides this delivery's faults and schedules it. */
  private void arrive(MessageHandler handler, String topic, byte[] payload, boolean retained) {
    if (killed) {
      return;
    }
    if (!TopicFilter.matches(plan.topics(), topic)) {
      schedule(() -> deliver(handler, topic, payload, retained), 0);
      return;
    }
    byte[] body = payload;
    boolean duplicate;
    long delay = 0;
    boolean hold;
    synchronized (this) {
      if (++matching == plan.killAt()) {
        killed = true; // nothing more in or out from now on; the socket is reset off Paho's thread
        Thread reaper = new Thread(this::kill, "kill-" + clientId());
        reaper.setDaemon(true);
        reaper.start();
        return;
      }
      if (toDrop > 0) {
        toDrop--;
        count(Fault.DROP);
        return;
      }
      if (chance(plan.drop())) {
        count(Fault.DROP);
        return;
      }
      if (chance(plan.corrupt())) {
        body = corrupt(payload);
        count(Fault.CORRUPT);
      }
      duplicate = chance(plan.duplicate());
      if (chance(plan.delay())) {
        delay = plan.delayMinMillis() + random.nextInt(plan.delayMaxMillis() - plan.delayMinMillis() + 1);
        count(Fault.DELAY);
      }
      hold = chance(plan.reorder());
    }
    byte[] first = body;
    Runnable delivery = () -> deliver(handler, topic, first, retained);
    if (duplicate) {
      count(Fault.DUPLICATE);
      Runnable once = delivery;
      byte[] copy = body.clone(); // handlers own their payload
      delivery = () -> {
        once.run();
        deliver(handler, topic, copy, retained);
      };
    }
    if (hold) {
      count(Fault.REORDER);
      Runnable release = delivery;
      Runnable previous = held.getAndSet(release);
      if (previous != null) {
        schedule(previous, 0); // one held back at a time
      }
      ScheduledFuture<?> timer = schedule(() -> {
        if (held.compareAndSet(release, null)) {
          release.run();
        }
      }, delay + plan.reorderHoldMillis());
      if (timer == null) {
        held.compareAndSet(release, null);
      }
      return;
    }
    schedule(delivery, delay);
  }

  private void deliver(MessageHandler handler, String topic, byte[] payload, boolean retained) {
    if (killed) {
      return;
    }
    try {
      handler.onMessage(topic, payload, retained);
    } catch (RuntimeException e) {
      System.getLogger("io.hdfl.federation").log(System.Logger.Level.WARNING,
          "handler on " + clientId() + " threw on a message to " + topic, e);
    }
    Runnable overtaken = held.getAndSet(null);
    if (overtaken != null) {
      overtaken.run(); // the held-back delivery arrives after this one
    }
  }

  private ScheduledFuture<?> schedule(Runnable r, long delayMillis) {
    try {
      return deliveries.schedule(r, delayMillis, TimeUnit.MILLISECONDS);
    } catch (java.util.concurrent.RejectedExecutionException closed) {
      return null;
    }
  }

  private boolean chance(double p) {
    return p > 0 && random.nextDouble() < p;
  }

  private void count(Fault f) {
    injected.get(f).incrementAndGet();
  }

  /** Guarded by {@code this}: a copy with a few bits flipped, cut short, or random bytes instead. */
  private byte[] corrupt(byte[] payload) {
    int mode = payload.length == 0 ? 2 : random.nextInt(3);
    switch (mode) {
      case 0: {
        byte[] out = payload.clone();
        int flips = Math.min(out.length * 8, 1 + random.nextInt(4));
        java.util.Set<Integer> bits = new java.util.HashSet<>();
        while (bits.size() < flips) {
          bits.add(random.nextInt(out.length * 8)); // distinct bits: two flips of one bit would undo each other
        }
        for (int bit : bits) {
          out[bit >>> 3] ^= (byte) (1 << (bit & 7));
        }
        return out;
      }
      case 1:
        return java.util.Arrays.copyOf(payload, random.nextInt(payload.length));
      default: {
        byte[] out = new byte[1 + random.nextInt(Math.max(1, payload.length))];
        random.nextBytes(out);
        return out;
      }
    }
  }
}
