package io.hdfl.device;

import io.hdfl.federation.FederationException;
import io.hdfl.federation.Topics;
import io.hdfl.transport.Transport;
import io.hdfl.transport.TransportException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * The federation's retained peer announcements ({@code hdfl/F/peers/<id>}: "online", or the
 * "offline" last will): who is online, and a notice each time a peer announces itself online — after
 * a restart, which is when a model or update in flight to it must be sent again.
 */
final class PeerAnnouncements {
  private static final System.Logger LOG = System.getLogger("io.hdfl.device");
  static final String ONLINE = "online";
  static final String OFFLINE = "offline";

  /**
   * How long {@link #awaitAll} waits before it subscribes to the announcements again, so that the
   * broker sends the retained ones once more (MQTT 3.1.1 §3.8.4: a repeated SUBSCRIBE re-sends them).
   * The embedded Moquette has been seen to lose a retained announcement that arrived while another
   * peer was subscribing: the publisher had its PUBACK, the subscriber never got the message, and the
   * ring's first peer waited out its start timeout (a `PeerCommandTest` run in CI).
   */
  static final Duration RESUBSCRIBE_EVERY = Duration.ofSeconds(3);

  private final Set<String> online = ConcurrentHashMap.newKeySet();
  private final CopyOnWriteArrayList<Consumer<String>> listeners = new CopyOnWriteArrayList<>();
  private final Transport transport;
  private final Topics topics;

  private PeerAnnouncements(Transport transport, Topics topics) {
    this.transport = transport;
    this.topics = topics;
  }

  /**
   * Announces {@code peerId} online (retained), and again each time its transport reconnects: a lost
   * connection made the broker publish the peer's "offline" last will, which would otherwise stay the
   * retained word on the peer while it runs (and a ring's first peer, restarting, would wait for it in
   * vain). Called once the peer's role has subscribed to everything it receives, so that whatever a
   * peer sends it on seeing the announcement arrives; the transport re-announces only after it has
   * subscribed again.
   *
   * @param startTimeout how long to retry the first announcement while a fresh connection is dropped
   *     (the embedded Moquette drops one when a SUBSCRIBE races the CONNECT under load)
   */
  static void announce(Transport t, Topics topics, String peerId, Duration startTimeout)
      throws TransportException, InterruptedException {
    String topic = topics.peer(peerId);
    byte[] online = ONLINE.getBytes(StandardCharsets.UTF_8);
    long deadline = System.nanoTime() + startTimeout.toNanos();
    while (true) {
      try {
        t.publish(topic, online, 1, true);
        break;
      } catch (TransportException e) {
        if (System.nanoTime() > deadline) {
          throw e;
        }
        do {
          Thread.sleep(50);
        } while (!t.isConnected() && System.nanoTime() < deadline);
      }
    }
    t.onReconnected(() -> {
      try {
        t.publish(topic, online, 1, true);
        LOG.log(System.Logger.Level.INFO, "peer " + peerId + ": reconnected; announced online again");
      } catch (TransportException e) {
        // lost again meanwhile: the next reconnect announces it
        LOG.log(System.Logger.Level.WARNING, "peer " + peerId + ": could not announce itself online again after a"
            + " reconnect (" + e.getMessage() + "); trying at the next one");
      }
    });
  }

  /** Subscribes to every announcement of the federation. */
  static PeerAnnouncements follow(Transport t, Topics topics) throws TransportException {
    PeerAnnouncements a = new PeerAnnouncements(t, topics);
    t.subscribe(topics.peers(), 1, a::onAnnouncement);
    return a;
  }

  private void onAnnouncement(String topic, byte[] payload, boolean retained) {
    String id = topics.announcedPeer(topic);
    if (id == null) {
      return;
    }
    if (ONLINE.equals(new String(payload, StandardCharsets.UTF_8))) {
      online.add(id);
      synchronized (this) {
        notifyAll();
      }
      for (Consumer<String> l : listeners) {
        l.accept(id);
      }
    } else {
      online.remove(id);
    }
  }

  /**
   * Peers online under an id near a missing one (within two edits, and nearer to it than to any other
   * expected id: {@code press-2} for {@code press-02}), as a sentence to add: an id mistyped in the
   * order or in a device's {@code peer.id} otherwise showed only as a peer that never came.
   */
  private String lookalikes(Set<String> missing, Set<String> expected) {
    Set<String> others = new TreeSet<>(online);
    others.removeAll(expected);
    StringBuilder b = new StringBuilder();
    for (String other : others) {
      KeySuggestion.nearest(other, expected).filter(missing::contains).ifPresent(meant -> b.append(b.length() == 0
          ? "; " : ", ").append("'").append(other).append("' is online, not '").append(meant).append("'"));
    }
    return b.length() == 0 ? "" : b.append(": does the order or that device's 'peer.id' have a typo?").toString();
  }

  /** The peers whose last announcement the broker delivered says online, sorted. */
  Set<String> onlineNow() {
    return new TreeSet<>(online);
  }

  /** Calls {@code listener} with the id of each peer that announces itself online from now on. */
  void onOnline(Consumer<String> listener) {
    listeners.add(listener);
  }

  /**
   * Blocks until every peer in {@code ids} is online.
   *
   * @throws FederationException naming the missing peers after {@code timeout}
   */
  void awaitAll(Set<String> ids, Duration timeout) throws InterruptedException {
    awaitAll(ids, timeout, new java.util.concurrent.CompletableFuture<>());
  }

  /**
   * As {@link #awaitAll(Set, Duration)}, giving up at once with {@code abort}'s reason if it fails
   * meanwhile (another device under this peer's id, say).
   */
  void awaitAll(Set<String> ids, Duration timeout, java.util.concurrent.CompletableFuture<?> abort)
      throws InterruptedException {
    abort.whenComplete((v, e) -> {
      synchronized (this) {
        notifyAll();
      }
    });
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      long resubscribeAt = System.nanoTime() + RESUBSCRIBE_EVERY.toNanos();
      synchronized (this) {
        while (!online.containsAll(ids)) {
          if (abort.isCompletedExceptionally()) {
            Throwable why = abort.handle((v, e) -> e).join();
            throw why instanceof FederationException f ? f : new FederationException(String.valueOf(why));
          }
          long now = System.nanoTime();
          long left = deadline - now;
          if (left <= 0) {
            Set<String> missing = new TreeSet<>(ids);
            missing.removeAll(online);
            throw new FederationException("peers " + missing + " did not come online within " + timeout.toSeconds()
                + " s ('start.timeout.seconds')" + lookalikes(missing, ids));
          }
          if (now >= resubscribeAt) {
            break;
          }
          wait(Math.max(1, Math.min(left, resubscribeAt - now) / 1_000_000));
        }
        if (online.containsAll(ids)) {
          return;
        }
      }
      resubscribe(); // outside the lock: the handler takes it to notify
    }
  }

  /** Subscribes again, for the broker to send the retained announcements again; a failure waits for the next try. */
  private void resubscribe() {
    try {
      transport.subscribe(topics.peers(), 1, this::onAnnouncement);
    } catch (TransportException | RuntimeException e) {
      // disconnected: the transport subscribes again itself once it is back
    }
  }
}
