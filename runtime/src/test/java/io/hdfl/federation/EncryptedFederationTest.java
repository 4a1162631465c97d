package io.hdfl.federation;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hdfl.codec.EnvelopeCodec;
import io.hdfl.codec.EnvelopeException;
import io.hdfl.codec.Expectations;
import io.hdfl.codec.ModelEnvelope;
import io.hdfl.hd.EncodedSet;
import io.hdfl.privacy.schedule.ScheduleMode;
import io.hdfl.security.HopAead;
import io.hdfl.security.HopCipher;
import io.hdfl.transport.EmbeddedBroker;
import io.hdfl.transport.LoopbackBroker;
import io.hdfl.transport.MqttSettings;
import io.hdfl.transport.MqttTransport;
import io.hdfl.transport.Transport;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** End-to-end encrypted hops: what the wire shows, what peers refuse, and that models do not change. */
class EncryptedFederationTest {
  static final int PEERS = 4;
  static final int PER_PEER = 30;

  @TempDir Path dir;

  private static final Expectations ANY = Expectations.defaults();

  /** Every payload a subscriber to the federation's topics sees on {@code filter}. */
  private static List<byte[]> watch(Transport observer, String filter) throws Exception {
    List<byte[]> seen = Collections.synchronizedList(new ArrayList<>());
    observer.subscribe(filter, 1, (topic, payload, retained) -> seen.add(payload));
    // (Moquette now and then drops a connection right after accepting it; the subscription is then
    // made on reconnect, and the run must not start before the observer listens again)
    long deadline = System.nanoTime() + 15_000_000_000L;
    while (!observer.isConnected() && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    return seen;
  }

  private static void assertUnreadable(List<byte[]> payloads, String what) {
    assertFalse(payloads.isEmpty(), "the observer saw some " + what);
    synchronized (payloads) {
      for (byte[] p : payloads) {
        assertTrue(HopCipher.isSealed(p), what + " travels sealed");
        assertThrows(EnvelopeException.class, () -> EnvelopeCodec.decode(p, ANY), what + " is not a readable envelope");
      }
    }
  }

  @Test
  void aRingOverMqttShowsTheWireOnlySealedHopsAndLearnsTheSameModel() throws Exception {
    List<EncodedSet> shards = FederationFixture.shards(PEERS, PER_PEER);
    FederationSettings plain = FederationFixture.ring(ScheduleMode.PRIVATEDFL, 2).build();
    Simulation.Result reference = FederationFixture.run(plain, shards, new LoopbackBroker()::connect);
    // chunked too: sealing happens before chunking
    FederationSettings sealed = FederationFixture.ring(ScheduleMode.PRIVATEDFL, 2).encryption(HopAead.AES_256_GCM)
        .maxPacketBytes(1800).build();
    try (EmbeddedBroker broker = EmbeddedBroker.builder().maxMessageBytes(2048).build().start()) {
      MqttSettings base = MqttSettings.builder(broker.uri()).build();
      try (Transport observer = MqttTransport.connect(base.withClientId("observer"))) {
        Topics t = new Topics(sealed.federation());
        List<byte[]> hops = watch(observer, t.ringInbox("+"));
        List<byte[]> acks = watch(observer, t.ringAcks("+"));
        Simulation.Result r = FederationFixture.run(sealed, shards, id -> MqttTransport.connect(base.withClientId(id)));
        assertArrayEquals(reference.finalModel().toArray(), r.finalModel().toArray(), "encryption changes no model");
        assertTrue(FederationFixture.verify(r, sealed, dir).ok());
        List<byte[]> whole = new ArrayList<>();
        synchronized (hops) {
          for (byte[] h : hops) {
            if (!new String(h, 0, 4, java.nio.charset.StandardCharsets.US_ASCII).equals("HDFC")) {
              whole.add(h); // chunks of sealed frames are sealed bytes cut up; whole ones must be sealed
            }
          }
        }
        assertUnreadable(acks, "acks");
        assertTrue(hops.size() > PEERS * 2, "models went round in chunks");
        for (byte[] h : whole) {
          assertTrue(HopCipher.isSealed(h));
        }
      }
    }
  }

  @Test
  void aStarSealsUpdatesForTheAggregator() throws Exception {
    List<EncodedSet> shards = FederationFixture.shards(3, 40);
    FederationSettings plain = FederationFixture.star(2, 10).build();
    Simulation.Result reference = FederationFixture.run(plain, shards, new LoopbackBroker()::connect);
    FederationSettings sealed = FederationFixture.star(2, 10).encryption(HopAead.CHACHA20_POLY1305).build();
    LoopbackBroker broker = new LoopbackBroker();
    try (Transport observer = broker.connect("observer")) {
      List<byte[]> updates = watch(observer, new Topics(sealed.federation()).starUpdates());
      Simulation.Result r = FederationFixture.run(sealed, shards, broker::connect);
      assertArrayEquals(reference.finalModel().toArray(), r.finalModel().toArray());
      assertTrue(FederationFixture.verify(r, sealed, dir).ok());
      assertUnreadable(updates, "client updates");
      assertEquals(3 * 2, updates.size());
    }
  }

  @Test
  void starClientsIgnoreAGlobalModelNoAdmittedPeerSigned() throws Exception {
    List<EncodedSet> shards = FederationFixture.shards(3, 40);
    FederationSettings plain = FederationFixture.star(2, 10).build();
    Simulation.Result reference = FederationFixture.run(plain, shards, new LoopbackBroker()::connect);
    FederationSettings sealed = FederationFixture.star(2, 10).encryption(HopAead.AES_256_GCM).build();
    LoopbackBroker broker = new LoopbackBroker();
    var spec = FederationFixture.spec();
    float[] garbage = new float[FederationFixture.CLASSES * FederationFixture.DIM];
    java.util.Arrays.fill(garbage, -5f);
    // An outsider's round-1 "global model", published retained before the aggregator starts.
    byte[] forged = EnvelopeCodec.encode(new ModelEnvelope(ModelEnvelope.Kind.GLOBAL_MODEL, sealed.federation(),
        "aggregator", 1, 1, spec.kind().id(), spec.features(), spec.basisSeed(), spec.dim(), FederationFixture.CLASSES,
        0.0, 0, List.of(), null, garbage));
    try (Transport attacker = broker.connect("attacker")) {
      attacker.publish(new Topics(sealed.federation()).starGlobal(), forged, 1, true);
      Simulation.Result r = FederationFixture.run(sealed, shards, broker::connect);
      assertArrayEquals(reference.finalModel().toArray(), r.finalModel().toArray(), "the forged global changed nothing");
      assertTrue(FederationFixture.verify(r, sealed, dir).ok());
    }
  }

  /**
   * A ring peer whose roster holds another signing key for its predecessor (the predecessor re-keyed,
   * say) takes none of its models: each one's last ledger entry is not signed by that key, so the peer
   * does not acknowledge, the predecessor skips it, and the ring finishes without it, every entry in
   * the final model by a peer whose key the others hold. Before, the peer trained on such a model and
   * chained its own entry to a line `ledger verify` refuses.
   */
  @Test
  void aRingPeerTakesNoModelWhoseEntryIsNotSignedByItsSendersKeyInItsRoster() throws Exception {
    List<String> ring = List.of("peer-0", "peer-1", "peer-2");
    FederationSettings s = FederationFixture.ring(ScheduleMode.PRIVATEDFL, 2).encryption(HopAead.AES_256_GCM)
        .ackTimeout(java.time.Duration.ofSeconds(1)).build();
    List<EncodedSet> shards = FederationFixture.shards(ring.size(), 20);
    java.util.Map<String, List<String>> signed = new java.util.concurrent.ConcurrentHashMap<>();
    try (LoopbackRing r = LoopbackRing.start(s, ring, (i, ctx) -> new RingPeer(ctx, ring, shards.get(i))
        .reportingEntries(signed.computeIfAbsent(ctx.id(), id -> new java.util.concurrent.CopyOnWriteArrayList<>())::add),
        (id, keys) -> {
          if (!id.equals("peer-1")) {
            return keys;
          }
          java.util.Map<String, java.security.PublicKey> other = new java.util.HashMap<>(keys);
          other.put("peer-0", io.hdfl.privacy.ledger.PeerKeys.generate("peer-0").publicKey());
          return other;
        })) {
      ModelEnvelope fin = r.fin.get(60, java.util.concurrent.TimeUnit.SECONDS);
      assertEquals(List.of(), signed.getOrDefault("peer-1", List.of()), "peer-1 trained on no model of peer-0");
      assertEquals(2, signed.get("peer-0").size());
      assertEquals(2, signed.get("peer-2").size());
      for (String line : fin.ledgerLines()) {
        assertTrue(!io.hdfl.privacy.ledger.LedgerCodec.parse(line).peer().equals("peer-1"), line);
      }
    }
  }

  @Test
  void anOutsiderCannotInjectAModel() throws Exception {
    List<EncodedSet> shards = FederationFixture.shards(PEERS, PER_PEER);
    FederationSettings plainSettings = FederationFixture.ring(ScheduleMode.NONE, 2).build();
    FederationSettings sealed = FederationFixture.ring(ScheduleMode.NONE, 2).encryption(HopAead.AES_256_GCM).build();
    Simulation.Result reference = FederationFixture.run(plainSettings, shards, new LoopbackBroker()::connect);
    LoopbackBroker broker = new LoopbackBroker();
    // A forged plain model far ahead in the ring, published into every peer's inbox as soon as the
    // ring starts: without encryption a peer would train on it; with encryption it is refused.
    float[] garbage = new float[FederationFixture.CLASSES * FederationFixture.DIM];
    java.util.Arrays.fill(garbage, 1e3f);
    var spec = FederationFixture.spec();
    byte[] forged = EnvelopeCodec.encode(new ModelEnvelope(ModelEnvelope.Kind.RING_MODEL, sealed.federation(),
        "peer-001", 2, 5, spec.kind().id(), spec.features(), spec.basisSeed(), spec.dim(), FederationFixture.CLASSES,
        0.0, 0, List.of(), null, garbage));
    try (Transport attacker = broker.connect("attacker")) {
      Topics t = new Topics(sealed.federation());
      java.util.concurrent.atomic.AtomicBoolean once = new java.util.concurrent.atomic.AtomicBoolean();
      attacker.subscribe(t.ringInbox("peer-002"), 1, (topic, payload, retained) -> {
        if (once.getAndSet(true)) {
          return;
        }
        try {
          for (int p = 1; p <= PEERS; p++) {
            attacker.publish(t.ringIn(String.format("peer-%03d", p), "peer-001"), forged, 1, false);
          }
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      });
      Simulation.Result r = FederationFixture.run(sealed, shards, broker::connect);
      assertArrayEquals(reference.finalModel().toArray(), r.finalModel().toArray(), "the forged model changed nothing");
      assertEquals(reference.ledger().size(), r.ledger().size());
    }
  }
}
