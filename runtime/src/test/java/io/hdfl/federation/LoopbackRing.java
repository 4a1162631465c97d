package io.hdfl.federation;

import io.hdfl.codec.EnvelopeCodec;
import io.hdfl.codec.ModelEnvelope;
import io.hdfl.privacy.ledger.LedgerCodec;
import io.hdfl.privacy.ledger.PeerKeys;
import io.hdfl.privacy.noise.SeededNoiseSource;
import io.hdfl.security.HopCipher;
import io.hdfl.security.HopKeys;
import io.hdfl.security.Roster;
import io.hdfl.transport.LoopbackBroker;
import io.hdfl.transport.Transport;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiFunction;

/**
 * A ring of {@link RingPeer}s made by the test itself over a loopback broker (no {@link Simulation}),
 * with an observer of the final model and of the steps of the entries published on the ledger topics.
 */
final class LoopbackRing implements AutoCloseable {
  final List<RingPeer> peers = new ArrayList<>();
  /** The step of each entry published on a ledger topic, in arrival order. */
  final List<Long> ledgerSteps = new CopyOnWriteArrayList<>();
  final CompletableFuture<ModelEnvelope> fin = new CompletableFuture<>();
  /** The broker the ring talks through (for a test's own observers). */
  final LoopbackBroker broker;
  private final Transport observer;

  private LoopbackRing(LoopbackBroker broker, Transport observer) {
    this.broker = broker;
    this.observer = observer;
  }

  /**
   * Starts the ring {@code ids}, peer i made by {@code peer} from its index and context, and kicks it
   * off at the first peer.
   */
  static LoopbackRing start(FederationSettings s, List<String> ids, BiFunction<Integer, PeerContext, RingPeer> peer)
      throws Exception {
    return start(s, ids, peer, (id, keys) -> keys);
  }

  /**
   * As {@link #start(FederationSettings, List, BiFunction)}; with encrypted hops ({@code s.encryption()})
   * every peer gets fresh keys, and peer {@code id} a roster with the signing keys {@code view} makes of
   * the true ones.
   */
  static LoopbackRing start(FederationSettings s, List<String> ids, BiFunction<Integer, PeerContext, RingPeer> peer,
      BiFunction<String, Map<String, java.security.PublicKey>, Map<String, java.security.PublicKey>> view)
      throws Exception {
    return start(s, ids, peer, view, (id, t) -> t);
  }

  /**
   * As {@link #start(FederationSettings, List, BiFunction, BiFunction)}, peer {@code id} talking through
   * the transport {@code wrap} makes of its connection (a fault-injecting one, say).
   */
  static LoopbackRing start(FederationSettings s, List<String> ids, BiFunction<Integer, PeerContext, RingPeer> peer,
      BiFunction<String, Map<String, java.security.PublicKey>, Map<String, java.security.PublicKey>> view,
      BiFunction<String, Transport, Transport> wrap) throws Exception {
    LoopbackBroker broker = new LoopbackBroker();
    Topics topics = new Topics(s.federation());
    Map<String, PeerKeys> signing = new LinkedHashMap<>();
    Map<String, HopKeys> hops = new LinkedHashMap<>();
    Map<String, java.security.PublicKey> agreement = new LinkedHashMap<>();
    Map<String, java.security.PublicKey> verifying = new LinkedHashMap<>();
    for (String id : ids) {
      signing.put(id, PeerKeys.generate(id));
      hops.put(id, HopKeys.generate(id));
      agreement.put(id, hops.get(id).publicKey());
      verifying.put(id, signing.get(id).publicKey());
    }
    List<PeerContext> contexts = new ArrayList<>();
    for (String id : ids) {
      Transport t = wrap.apply(id, broker.connect(id));
      HopCipher cipher = s.encryption() == null ? null
          : new HopCipher(s.federation(), hops.get(id),
          Roster.of(agreement, view.apply(id, Map.copyOf(verifying))), s.encryption());
      contexts.add(new PeerContext(id, s, t, signing.get(id),
          new SeededNoiseSource(s.seed() * 31 + id.hashCode(), FederationFixture.K), FederationFixture.K,
          new MetricsPublisher(t, topics, id), new FrameChannel(t, 0), cipher));
    }
    LoopbackRing ring = new LoopbackRing(broker, broker.connect("observer"));
    ring.observer.subscribe(topics.finalModel(), 1, (t, p, r) -> {
      try {
        ring.fin.complete(EnvelopeCodec.decode(p, contexts.get(0).expectations()));
      } catch (Exception e) {
        ring.fin.completeExceptionally(e);
      }
    });
    for (String id : ids) {
      ring.observer.subscribe(topics.ledger(id), 1, (t, p, r) ->
          ring.ledgerSteps.add(LedgerCodec.parse(new String(p, StandardCharsets.US_ASCII)).step()));
    }
    for (int i = 0; i < ids.size(); i++) {
      RingPeer p = peer.apply(i, contexts.get(i));
      ring.peers.add(p);
      p.start();
    }
    ring.peers.get(0).kickOff();
    return ring;
  }

  @Override
  public void close() {
    peers.forEach(RingPeer::close);
    observer.close();
  }
}
