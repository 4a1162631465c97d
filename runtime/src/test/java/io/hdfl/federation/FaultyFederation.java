package io.hdfl.federation;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hdfl.transport.LastWill;
import io.hdfl.transport.MqttSettings;
import io.hdfl.transport.MqttTransport;
import io.hdfl.transport.Transport;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Connects a simulation's peers to a real broker, each through a {@link FaultyTransport} with one
 * fault plan (the recorder, the operator's view, connects cleanly), with a last will "offline" on
 * the peer's presence topic; keeps the transports so a test can count faults or kill a peer.
 */
final class FaultyFederation implements PeerConnector {
  static final byte[] OFFLINE = "offline".getBytes(StandardCharsets.US_ASCII);

  private final MqttSettings base;
  private final Topics topics;
  private final String federation;
  private final java.util.function.Function<String, DeliveryFaults> plans;
  private final Map<String, FaultyTransport> peers = new ConcurrentHashMap<>();
  private Tripwire tripwire;

  /** @param plans the fault plan of each peer id ({@code peer-001}, {@code client-001}, {@code aggregator}) */
  FaultyFederation(String uri, FederationSettings s, java.util.function.Function<String, DeliveryFaults> plans) {
    this.base = MqttSettings.builder(uri).maxReconnectDelay(Duration.ofSeconds(1)).build();
    this.topics = new Topics(s.federation());
    this.federation = s.federation();
    this.plans = plans;
  }

  /** Every peer with the same plan. */
  FaultyFederation(String uri, FederationSettings s, DeliveryFaults plan) {
    this(uri, s, id -> plan);
  }

  @Override
  public Transport connect(String clientId) throws io.hdfl.transport.TransportException {
    String id = clientId.substring(federation.length() + 1);
    if (id.equals("recorder")) {
      return MqttTransport.connect(base.withClientId(clientId));
    }
    MqttSettings s = base.withClientId(clientId).withWill(new LastWill(topics.peer(id), OFFLINE, 1, false));
    FaultyTransport t = new FaultyTransport(MqttTransport.connect(s), plans.apply(id));
    peers.put(id, t);
    return tripwire == null ? t : tripwire.wrap(t);
  }

  /** Counts the peers' publishes towards {@code t} (set before the run). Returns this. */
  FaultyFederation with(Tripwire t) {
    this.tripwire = t;
    return this;
  }

  /** The transport of peer {@code id} (once connected). */
  FaultyTransport peer(String id) {
    return peers.get(id);
  }

  /** How many deliveries got {@code fault}, over all peers. */
  long injected(FaultyTransport.Fault fault) {
    return peers.values().stream().mapToLong(t -> t.injected(fault)).sum();
  }

  /** Every peer's injected faults, for assertion messages. */
  String summary() {
    StringBuilder b = new StringBuilder();
    new java.util.TreeMap<>(peers).values().forEach(t -> b.append("\n  ").append(t.summary()));
    return b.toString();
  }

  /** Asserts that the plan really injected {@code fault} somewhere (else the test proved nothing). */
  void assertInjected(FaultyTransport.Fault... faults) {
    for (FaultyTransport.Fault f : faults) {
      assertTrue(injected(f) > 0, "no " + f + " was injected:" + summary());
    }
  }
}
