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
  static final String ONLINE = "online";
  static final String OFFLINE = "offline";

  private final Set<String> online = ConcurrentHashMap.newKeySet();
  private final CopyOnWriteArrayList<Consumer<String>> listeners = new CopyOnWriteArrayList<>();

  /** Subscribes to every announcement of the federation. */
  static PeerAnnouncements follow(Transport t, Topics topics) throws TransportException {
    PeerAnnouncements a = new PeerAnnouncements();
    t.subscribe(topics.peers(), 1, (topic, payload, retained) -> {
      String id = topics.announcedPeer(topic);
      if (id == null) {
        return;
      }
      if (ONLINE.equals(new String(payload, StandardCharsets.UTF_8))) {
        a.online.add(id);
        synchronized (a) {
          a.notifyAll();
        }
        for (Consumer<String> l : a.listeners) {
          l.accept(id);
        }
      } else {
        a.online.remove(id);
      }
    });
    return a;
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
    long deadline = System.nanoTime() + timeout.toNanos();
    synchronized (this) {
      while (!online.containsAll(ids)) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          Set<String> missing = new TreeSet<>(ids);
          missing.removeAll(online);
          throw new FederationException("peers " + missing + " did not come online within " + timeout.toSeconds()
              + " s ('start.timeout.seconds')");
        }
        wait(Math.max(1, left / 1_000_000));
      }
    }
  }
}
