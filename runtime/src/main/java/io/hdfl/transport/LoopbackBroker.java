package io.hdfl.transport;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An in-process MQTT-like broker for fast unit tests and single-JVM simulations: {@link
 * #connect(String, LastWill)} gives a {@link LoopbackTransport} that behaves like an MQTT 3.1.1 client
 * with a clean session.
 *
 * <p>Semantics (the ones the conformance suite checks for both this and MQTT):
 *
 * <ul>
 *   <li>Topic filters with {@code +} and {@code #}, per {@link TopicFilter}.
 *   <li>Retained messages: the last retained message of a topic is kept and delivered (flagged
 *       retained) to each later subscription whose filter matches; a retained publish with an empty
 *       payload clears it (and is itself delivered to current subscribers, like MQTT).
 *   <li>Ordering: all publishes are put in one total order; every subscription receives the messages
 *       it matches in that order, so messages from one publisher arrive in the order published.
 *   <li>QoS: nothing is ever lost in process, so QoS 0 and QoS 1 both mean "exactly once, in order,
 *       while the subscriber is connected"; {@link LoopbackTransport#publish} returns when the message
 *       is queued for every matching subscriber (and stored, if retained). As with a clean MQTT
 *       session, messages still queued for a transport that closes or crashes are dropped, and none
 *       are kept for a disconnected client.
 *   <li>Each transport delivers on its own thread, one message at a time, in arrival order. A message
 *       matching several subscriptions of one transport arrives once and is handed to each matching
 *       handler (each gets its own copy of the payload).
 *   <li>Last will: published when a transport {@link LoopbackTransport#crash() crashes}, not when it
 *       closes. A second connection with the same client id takes over: the old transport is
 *       disconnected (without its will).
 * </ul>
 */
public final class LoopbackBroker {
  private final Object lock = new Object();
  private final Map<String, LoopbackTransport> clients = new LinkedHashMap<>();
  private final Map<String, byte[]> retained = new HashMap<>();
  /**
   * Every subscription, by its filter's literal prefix ({@link TopicFilter#literalPrefix}: whole
   * levels, empty for a filter that starts with a wildcard). A topic can only be matched by filters
   * whose literal prefix is one of its own level prefixes, so a publish looks up a handful of keys
   * instead of testing every subscription of every client (a simulation has hundreds).
   */
  private final Map<String, List<LoopbackTransport.Subscription>> byPrefix = new HashMap<>();

  /** Connects a client without a last will. */
  public LoopbackTransport connect(String clientId) {
    return connect(clientId, null);
  }

  /** Connects a client; {@code will} (nullable) is published if it {@link LoopbackTransport#crash() crashes}. */
  public LoopbackTransport connect(String clientId, LastWill will) {
    if (clientId == null || clientId.isEmpty()) {
      throw new IllegalArgumentException("client id must not be empty");
    }
    LoopbackTransport fresh = new LoopbackTransport(this, clientId, will);
    LoopbackTransport old;
    synchronized (lock) {
      old = clients.put(clientId, fresh);
    }
    if (old != null) {
      old.close(); // takeover, as an MQTT broker does with a duplicate client id
    }
    return fresh;
  }

  /** Client ids connected now. */
  public List<String> clientIds() {
    synchronized (lock) {
      return List.copyOf(clients.keySet());
    }
  }

  /** Number of topics holding a retained message now. */
  public int retainedCount() {
    synchronized (lock) {
      return retained.size();
    }
  }

  void publish(String topic, byte[] payload, boolean retain) {
    List<LoopbackTransport> toWake = new ArrayList<>(2);
    synchronized (lock) {
      publishLocked(topic, payload, retain, toWake);
    }
    wake(toWake);
  }

  /**
   * Stores and queues a publish in the total order; the receivers to wake once the lock is released
   * are added to {@code toWake} (waking inside the lock held every other publisher up behind a thread
   * switch, see {@link io.hdfl.concurrent.SerialWorker}).
   */
  private void publishLocked(String topic, byte[] payload, boolean retain, List<LoopbackTransport> toWake) {
    if (retain) {
      if (payload.length == 0) {
        retained.remove(topic);
      } else {
        retained.put(topic, payload.clone());
      }
    }
    List<LoopbackTransport.Subscription> hits = matchingLocked(topic);
    // one delivery per client, with its matching subscriptions in its own order
    for (int i = 0; i < hits.size(); i++) {
      LoopbackTransport.Subscription first = hits.get(i);
      if (first == null) {
        continue;
      }
      LoopbackTransport client = first.owner();
      List<LoopbackTransport.Subscription> mine = new ArrayList<>(1);
      mine.add(first);
      for (int j = i + 1; j < hits.size(); j++) {
        LoopbackTransport.Subscription other = hits.get(j);
        if (other != null && other.owner() == client) {
          mine.add(other);
          hits.set(j, null);
        }
      }
      if (mine.size() > 1) {
        mine.sort(java.util.Comparator.comparingInt(LoopbackTransport.Subscription::rank));
      }
      if (client.enqueueLocked(topic, payload, false, mine)) {
        toWake.add(client);
      }
    }
  }

  /** The subscriptions matching {@code topic}: those indexed under each of its level prefixes. */
  private List<LoopbackTransport.Subscription> matchingLocked(String topic) {
    List<LoopbackTransport.Subscription> out = new ArrayList<>(2);
    collect(byPrefix.get(""), topic, out);
    for (int end = topic.indexOf('/'); ; end = topic.indexOf('/', end + 1)) {
      int len = end < 0 ? topic.length() : end;
      if (len > 0) { // a leading "/" gives the empty prefix, looked up already
        collect(byPrefix.get(topic.substring(0, len)), topic, out);
      }
      if (end < 0) {
        return out;
      }
    }
  }

  private static void collect(List<LoopbackTransport.Subscription> candidates, String topic,
      List<LoopbackTransport.Subscription> out) {
    if (candidates == null) {
      return;
    }
    for (LoopbackTransport.Subscription s : candidates) {
      if (s.matches(topic)) {
        out.add(s);
      }
    }
  }

  private void indexLocked(LoopbackTransport.Subscription sub) {
    byPrefix.computeIfAbsent(sub.literalPrefix(), k -> new ArrayList<>(1)).add(sub);
  }

  /** Takes {@code sub} out of the index (a no-op for null or a subscription not in it). */
  void unindexLocked(LoopbackTransport.Subscription sub) {
    if (sub == null) {
      return;
    }
    List<LoopbackTransport.Subscription> list = byPrefix.get(sub.literalPrefix());
    if (list == null) {
      return;
    }
    for (int i = 0; i < list.size(); i++) {
      if (list.get(i) == sub) {
        list.remove(i);
        break;
      }
    }
    if (list.isEmpty()) {
      byPrefix.remove(sub.literalPrefix());
    }
  }

  /** Wakes the delivery threads of {@code clients}; called outside the lock. */
  static void wake(List<LoopbackTransport> clients) {
    for (LoopbackTransport c : clients) {
      c.wake();
    }
  }

  /** Registers the subscription and queues the retained messages it matches, atomically. */
  void subscribe(LoopbackTransport client, LoopbackTransport.Subscription sub) {
    boolean queued = false;
    synchronized (lock) {
      if (!client.isConnected()) {
        return; // closed meanwhile: nothing to register or deliver
      }
      unindexLocked(client.putSubscriptionLocked(sub));
      indexLocked(sub);
      List<LoopbackTransport.Subscription> only = List.of(sub);
      List<Map.Entry<String, byte[]>> hits = new ArrayList<>();
      for (Map.Entry<String, byte[]> e : retained.entrySet()) {
        if (TopicFilter.matches(sub.filter(), e.getKey())) {
          hits.add(e);
        }
      }
      hits.sort(Map.Entry.comparingByKey());
      for (Map.Entry<String, byte[]> e : hits) {
        queued |= client.enqueueLocked(e.getKey(), e.getValue(), true, only);
      }
    }
    if (queued) {
      client.wake();
    }
  }

  void unsubscribe(LoopbackTransport client, String filter) {
    synchronized (lock) {
      unindexLocked(client.removeSubscriptionLocked(filter));
    }
  }

  /**
   * Removes the client and, if it crashed, publishes its will (outside the client's own queue); the
   * caller holds the lock and wakes the returned receivers of the will after releasing it.
   */
  List<LoopbackTransport> disconnectLocked(LoopbackTransport client, LastWill will) {
    if (clients.get(client.clientId()) == client) {
      clients.remove(client.clientId());
    }
    List<LoopbackTransport> toWake = new ArrayList<>(0);
    if (will != null) {
      publishLocked(will.topic(), will.payload(), will.retained(), toWake);
    }
    return toWake;
  }

  Object lock() {
    return lock;
  }

  /** How many subscriptions the index holds now (every connected client's, no more: tests check it). */
  int indexedSubscriptions() {
    synchronized (lock) {
      int n = 0;
      for (List<LoopbackTransport.Subscription> list : byPrefix.values()) {
        n += list.size();
      }
      return n;
    }
  }
}
