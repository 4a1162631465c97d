package io.hdfl.federation;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hdfl.codec.ModelEnvelope;
import io.hdfl.hd.EncodedSet;
import io.hdfl.privacy.PrivacyParameters;
import io.hdfl.privacy.ledger.LedgerLine;
import io.hdfl.privacy.ledger.Verification;
import io.hdfl.privacy.schedule.PrivateDflSchedule;
import io.hdfl.privacy.schedule.ScheduleMode;
import io.hdfl.transport.EmbeddedBroker;
import io.hdfl.transport.LoopbackBroker;
import io.hdfl.transport.MessageHandler;
import io.hdfl.transport.MqttSettings;
import io.hdfl.transport.MqttTransport;
import io.hdfl.transport.TopicFilter;
import io.hdfl.transport.Transport;
import io.hdfl.transport.TransportException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RingFederationTest {
  static final int PEERS = 4;
  static final int ROUNDS = 3;
  static final int PER_PEER = 30;

  @TempDir Path dir;

  @Test
  void noiseFollowsThePrivateDflClosedFormsAndTheLedgerVerifies() throws Exception {
    FederationSettings s = FederationFixture.ring(ScheduleMode.PRIVATEDFL, ROUNDS).build();
    LoopbackBroker broker = new LoopbackBroker();
    Simulation.Result r = FederationFixture.run(s, FederationFixture.shards(PEERS, PER_PEER), broker::connect);
    List<LedgerLine> ledger = r.ledger();
    assertEquals(PEERS * ROUNDS, ledger.size());
    PrivacyParameters p = s.params();
    for (int t = 1; t <= PEERS * ROUNDS; t++) {
      var e = ledger.get(t - 1).entry();
      assertEquals(t, e.step());
      assertEquals(String.format("peer-%03d", (t - 1) % PEERS + 1), e.peer());
      double required = PrivateDflSchedule.required(p, PER_PEER, t);
      double added = PrivateDflSchedule.added(p, PER_PEER, t);
      assertEquals(required, e.requiredVariance(), 1e-12 * required, "ξ(" + t + ")");
      assertEquals(added, e.addedVariance(), 1e-9 * added, "Γ(" + t + ")");
      assertEquals((long) t * PER_PEER, e.samplesTotal());
    }
    Verification v = FederationFixture.verify(r, s, dir);
    assertTrue(v.ok(), v.summary());
    assertEquals(PEERS, r.keys().size());
    // Every peer reported every round.
    assertEquals(PEERS * ROUNDS, r.reports().size());
  }

  @Test
  void withoutNoiseTheFederatedModelLearnsTheData() throws Exception {
    FederationSettings s = FederationFixture.ring(ScheduleMode.NONE, 2).build();
    List<EncodedSet> shards = FederationFixture.shards(PEERS, PER_PEER);
    Simulation.Result r = FederationFixture.run(s, shards, new LoopbackBroker()::connect);
    var classifier = new io.hdfl.hd.Classifier(FederationFixture.K, s.similarity());
    for (EncodedSet shard : shards) {
      var e = io.hdfl.hd.Evaluation.of(shard.labels(), classifier.predict(r.finalModel(), shard, 1),
          FederationFixture.CLASSES);
      assertTrue(e.accuracy() > 0.95, "accuracy " + e.accuracy());
    }
    assertTrue(r.ledger().stream().allMatch(l -> l.entry().addedVariance() == 0));
  }

  @Test
  void aRecorderWhoseSubscriptionsTakeLateStillEvaluatesEveryRoundAndGetsTheWholeLedger() throws Exception {
    // the recorder's subscriptions take only when it is back (its first publish, at most 5 s), as after
    // an embedded broker dropped its new connection: the run must wait for them, or the first rounds'
    // models never reach the recorder to be evaluated
    FederationSettings s = FederationFixture.ring(ScheduleMode.PRIVATEDFL, 3).build();
    LoopbackBroker broker = new LoopbackBroker();
    PeerConnector connector = id -> id.endsWith("-recorder")
        ? new LateSubscribingTransport(broker.connect(id), 5000) : broker.connect(id);
    List<Integer> evaluated = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
    Simulation.Result r = FederationFixture.run(s, FederationFixture.shards(PEERS, PER_PEER), connector,
        (round, model) -> evaluated.add(round));
    assertEquals(List.of(1, 2, 3), evaluated, "the recorder evaluated every round's model once, in order");
    assertEquals(PEERS * 3, r.ledger().size());
    for (int t = 1; t <= PEERS * 3; t++) {
      assertEquals(t, r.ledger().get(t - 1).entry().step());
    }
  }

  @Test
  void theLedgerDoesNotDependOnWhatTheRecorderReceives() throws Exception {
    // A broker restart once took from the recorder both a peer's ledger line and the one model that
    // carried the line on to it, and the run failed with a broken chain. Here the recorder gets
    // nothing but its probe and the final model: the ledger is still every step, verified.
    FederationSettings s = FederationFixture.ring(ScheduleMode.PRIVATEDFL, ROUNDS).build();
    Topics topics = new Topics(s.federation());
    Set<String> passed = Set.of(topics.ledger(Simulation.RECORDER_PROBE), topics.finalModel());
    LoopbackBroker broker = new LoopbackBroker();
    PeerConnector connector = id -> !id.endsWith("-recorder") ? broker.connect(id)
        : delivering(broker.connect(id), passed::contains);
    Simulation.Result r = FederationFixture.run(s, FederationFixture.shards(PEERS, PER_PEER), connector);
    assertEquals(PEERS * ROUNDS, r.ledger().size());
    for (int t = 1; t <= PEERS * ROUNDS; t++) {
      assertEquals(t, r.ledger().get(t - 1).entry().step());
    }
    Verification v = FederationFixture.verify(r, s, dir);
    assertTrue(v.ok(), v.summary());
  }

  @Test
  void aLostLastAckLeavesOneFinalModelTheFullOne() throws Exception {
    // peer-003 hands its last step to peer-004, which takes it and publishes the final model, but
    // peer-003 never hears the ack: it resends, gives up, publishes its entry and would then publish a
    // final model of its own, a step shorter, which the broker would keep retained
    FederationSettings s = FederationFixture.ring(ScheduleMode.PRIVATEDFL, 2).ackTimeout(Duration.ofMillis(300))
        .build();
    Topics topics = new Topics(s.federation());
    LoopbackBroker broker = new LoopbackBroker();
    List<Long> finals = new java.util.concurrent.CopyOnWriteArrayList<>();
    List<Long> gaveUp = new java.util.concurrent.CopyOnWriteArrayList<>();
    try (Transport observer = broker.connect("observer"); Transport late = broker.connect("late")) {
      observer.subscribe(topics.finalModel(), 1, new FrameChannel(observer, s.maxPacketBytes()).receiver(
          (topic, payload, retained) -> finals.add(finalStep(payload))));
      observer.subscribe(topics.ledger("peer-003"), 1, (topic, payload, retained) ->
          gaveUp.add(io.hdfl.privacy.ledger.LedgerCodec.parse(
              new String(payload, java.nio.charset.StandardCharsets.US_ASCII)).step()));
      java.util.concurrent.atomic.AtomicInteger acks = new java.util.concurrent.atomic.AtomicInteger();
      PeerConnector connector = id -> !id.endsWith("-peer-003") ? broker.connect(id)
          : delivering(broker.connect(id),
              topic -> !(TopicFilter.matches(topics.ringAcks("peer-003"), topic) && acks.incrementAndGet() > 1));
      Simulation.Result r = FederationFixture.run(s, FederationFixture.shards(PEERS, PER_PEER), connector);
      assertEquals(PEERS * 2, r.ledger().size(), "peer-004 took the last turn");
      // peer-003 publishes its step-7 entry only when it gives up the hand-off, just before it decides
      // on a final model of its own (the run waits for its round report, which comes after)
      assertTrue(FederationFixture.waitFor(() -> gaveUp.contains(7L), 10_000),
          "peer-003 gave its last hand-off up: " + gaveUp);
      Thread.sleep(300); // a final model of its own would follow its entry at once
      assertEquals(List.of((long) PEERS * 2), finals, "one final model was published, the full one");
      List<Long> kept = new java.util.concurrent.CopyOnWriteArrayList<>();
      late.subscribe(topics.finalModel(), 1, new FrameChannel(late, s.maxPacketBytes()).receiver(
          (topic, payload, retained) -> {
            if (retained) {
              kept.add(finalStep(payload));
            }
          }));
      FederationFixture.waitFor(() -> !kept.isEmpty(), 5_000);
      assertEquals(List.of((long) PEERS * 2), kept, "the broker keeps the full final model");
    }
  }

  /** {@code t}, whose subscriptions deliver only the messages whose topic {@code delivered} accepts. */
  private static Transport delivering(Transport t, java.util.function.Predicate<String> delivered) {
    return new ForwardingTransport(t) {
      @Override
      public void subscribe(String filter, int qos, MessageHandler handler) throws TransportException {
        inner.subscribe(filter, qos, (topic, payload, retained) -> {
          if (delivered.test(topic)) {
            handler.onMessage(topic, payload, retained);
          }
        });
      }
    };
  }

  /** The step of the final model in {@code frame}. */
  private static long finalStep(byte[] frame) {
    try {
      return io.hdfl.codec.EnvelopeCodec.decode(frame, io.hdfl.codec.Expectations.defaults()).step();
    } catch (io.hdfl.codec.EnvelopeException e) {
      throw new IllegalStateException(e);
    }
  }

  @Test
  void mqttAndLoopbackGiveBitIdenticalModels() throws Exception {
    List<EncodedSet> shards = FederationFixture.shards(PEERS, PER_PEER);
    List<EncodedSet> int8 = shards.stream().map(EncodedSet::quantize).toList();
    float[] floatModel = null;
    try (EmbeddedBroker broker = new EmbeddedBroker().start()) {
      MqttSettings base = MqttSettings.builder(broker.uri()).build();
      for (List<EncodedSet> data : List.of(shards, int8)) {
        // a federation of its own each (the broker keeps the first one's final model retained)
        FederationSettings s = FederationFixture.ring(ScheduleMode.PRIVATEDFL, 2)
            .federation(data == int8 ? "bits-int8" : "bits-float32").build();
        Simulation.Result loop = FederationFixture.run(s, data, new LoopbackBroker()::connect);
        Simulation.Result mqtt = FederationFixture.run(s, data, id -> MqttTransport.connect(base.withClientId(id)));
        assertArrayEquals(loop.finalModel().toArray(), mqtt.finalModel().toArray());
        assertEquals(loop.ledger().size(), mqtt.ledger().size());
        if (floatModel == null) {
          floatModel = loop.finalModel().toArray();
        } else {
          assertFalse(java.util.Arrays.equals(floatModel, loop.finalModel().toArray()),
              "peers with int8 encodings learn from the codes, not from the float32 values");
        }
      }
    }
  }

  @Test
  void anExternalBrokerGivesTheSameModelAsTheLoopback() throws Exception {
    List<EncodedSet> shards = FederationFixture.shards(PEERS, PER_PEER);
    String external = System.getenv("HDFL_TEST_BROKER");
    Assumptions.assumeTrue(external != null && !external.isBlank(), "HDFL_TEST_BROKER not set");
    FederationSettings other = FederationFixture.ring(ScheduleMode.PRIVATEDFL, 2)
        .federation("test-" + Long.toHexString(System.nanoTime())).build();
    Simulation.Result loop2 = FederationFixture.run(other, shards, new LoopbackBroker()::connect);
    MqttSettings ext = MqttSettings.builder(external).build();
    Simulation.Result mosquitto = FederationFixture.run(other, shards, id -> MqttTransport.connect(ext.withClientId(id)));
    assertArrayEquals(loop2.finalModel().toArray(), mosquitto.finalModel().toArray());
  }

  @Test
  void aBrokerWithASmallPacketLimitWorksThroughChunking() throws Exception {
    List<EncodedSet> shards = FederationFixture.shards(PEERS, PER_PEER);
    FederationSettings plain = FederationFixture.ring(ScheduleMode.PRIVATEDFL, 2).build();
    Simulation.Result loop = FederationFixture.run(plain, shards, new LoopbackBroker()::connect);
    // 3 x 256 float32 prototypes plus ledger lines make frames of several KB; the broker takes 2 KB.
    FederationSettings chunked = FederationFixture.ring(ScheduleMode.PRIVATEDFL, 2).maxPacketBytes(1800).build();
    try (EmbeddedBroker broker = EmbeddedBroker.builder().maxMessageBytes(2048).build().start()) {
      MqttSettings base = MqttSettings.builder(broker.uri()).build();
      Simulation.Result mqtt = FederationFixture.run(chunked, shards, id -> MqttTransport.connect(base.withClientId(id)));
      assertArrayEquals(loop.finalModel().toArray(), mqtt.finalModel().toArray());
      assertTrue(FederationFixture.verify(mqtt, chunked, dir).ok());
      assertTrue(mqtt.reports().stream().mapToLong(RoundReport::bytesSent).max().orElse(0) > 2048,
          "frames larger than the broker's limit were sent (in chunks)");
      // the final model, chunked, is kept all the same: a device that (re)starts after it went out takes it
      try (Transport late = MqttTransport.connect(base.withClientId("late"))) {
        List<ModelEnvelope> kept = new java.util.concurrent.CopyOnWriteArrayList<>();
        new FrameChannel(late, chunked.maxPacketBytes()).subscribeKept(new Topics(chunked.federation()).finalModel(), 1,
            (topic, payload, retained) -> {
              try {
                kept.add(io.hdfl.codec.EnvelopeCodec.decode(payload, io.hdfl.codec.Expectations.defaults()));
              } catch (io.hdfl.codec.EnvelopeException e) {
                throw new AssertionError(e);
              }
            });
        assertTrue(FederationFixture.waitFor(() -> !kept.isEmpty(), 5_000), "the final model is kept on the broker");
        assertArrayEquals(mqtt.finalModel().toArray(), kept.get(0).prototypes(), "the run's final model");
      }
    }
  }

  @Test
  void aSlowPeerThatWasSkippedCannotForkTheChain() throws Exception {
    FederationSettings s = FederationFixture.ring(ScheduleMode.PRIVATEDFL, 2).ackTimeout(Duration.ofMillis(200)).build();
    LoopbackBroker broker = new LoopbackBroker();
    // peer-003 gets every model 700 ms late: it is skipped, then processes and forwards its stale copy.
    Simulation.Result r = FederationFixture.run(s, FederationFixture.shards(PEERS, PER_PEER),
        id -> id.endsWith("peer-003") ? new DelayingTransport(broker.connect(id), 700) : broker.connect(id));
    Verification v = FederationFixture.verify(r, s, dir);
    assertTrue(v.ok(), v.summary());
    // One linear history: every step once, consecutive, and the accountant exact for it.
    for (int i = 0; i < r.ledger().size(); i++) {
      assertEquals(i + 1, r.ledger().get(i).entry().step());
    }
    var last = r.ledger().get(r.ledger().size() - 1).entry();
    assertEquals(s.params().requiredVariance(last.samplesTotal(), 1.0), last.presentAfter(), 1e-9 * last.presentAfter());
    // peer-003 may train on a stale copy before the run ends (a step off the final model's lineage),
    // but no one takes a step after it: the copy it forwards is dropped
    java.util.Set<String> lineage = new java.util.HashSet<>();
    r.ledger().forEach(l -> lineage.add(l.entry().peer() + "@" + l.entry().step()));
    List<String> offLineage = r.reports().stream().map(x -> x.peer() + "@" + x.step()).filter(k -> !lineage.contains(k))
        .toList();
    assertTrue(offLineage.stream().allMatch(k -> k.startsWith("peer-003@")),
        "steps off the lineage: " + offLineage);
  }

  @Test
  void duplicateDeliveriesNeverAddNoiseTwice() throws Exception {
    FederationSettings s = FederationFixture.ring(ScheduleMode.PRIVATEDFL, 2).build();
    List<EncodedSet> shards = FederationFixture.shards(PEERS, PER_PEER);
    Simulation.Result once = FederationFixture.run(s, shards, new LoopbackBroker()::connect);
    LoopbackBroker broker = new LoopbackBroker();
    Simulation.Result twice = FederationFixture.run(s, shards, id -> new DuplicatingTransport(broker.connect(id)));
    assertArrayEquals(once.finalModel().toArray(), twice.finalModel().toArray());
    assertEquals(once.ledger().size(), twice.ledger().size());
    assertTrue(FederationFixture.verify(twice, s, dir).ok());
  }

  @Test
  void aPeerThatNeverAcknowledgesIsSkippedAndTheAccountantStaysExact() throws Exception {
    FederationSettings s = FederationFixture.ring(ScheduleMode.PRIVATEDFL, 2).ackTimeout(Duration.ofMillis(300)).build();
    LoopbackBroker broker = new LoopbackBroker();
    Simulation.Result r = FederationFixture.run(s, FederationFixture.shards(PEERS, PER_PEER),
        id -> id.endsWith("peer-003") ? new DeafTransport(broker.connect(id)) : broker.connect(id));
    assertEquals((PEERS - 1) * 2, r.ledger().size(), "peer-003's steps never happened");
    assertTrue(r.ledger().stream().noneMatch(l -> l.entry().peer().equals("peer-003")));
    // The accountant counted the samples really absorbed: the last entry requires ξ for 6 updates.
    var last = r.ledger().get(r.ledger().size() - 1).entry();
    assertEquals(6L * PER_PEER, last.samplesTotal());
    assertEquals(s.params().requiredVariance(6L * PER_PEER, 1.0), last.presentAfter(), 1e-9 * last.presentAfter());
    Verification v = FederationFixture.verify(r, s, dir);
    assertTrue(v.ok(), v.summary());
  }

  @Test
  void aPeerThatMissedATurnRejoinsAtTheNextRound() throws Exception {
    FederationSettings s = FederationFixture.ring(ScheduleMode.PRIVATEDFL, 3).ackTimeout(Duration.ofMillis(300)).build();
    LoopbackBroker broker = new LoopbackBroker();
    // peer-003 misses both attempts of its round-1 hand-off, so it is skipped once; then it is back
    Simulation.Result r = FederationFixture.run(s, FederationFixture.shards(PEERS, PER_PEER),
        id -> id.endsWith("peer-003") ? new DozingTransport(broker.connect(id), 2) : broker.connect(id));
    assertEquals(PEERS * 3 - 1, r.ledger().size(), "one step of peer-003 did not happen");
    var rounds = r.ledger().stream().filter(l -> l.entry().peer().equals("peer-003")).map(l -> l.entry().round())
        .toList();
    assertEquals(List.of(2, 3), rounds, "peer-003 rejoined at the next round");
    var last = r.ledger().get(r.ledger().size() - 1).entry();
    assertEquals((PEERS * 3L - 1) * PER_PEER, last.samplesTotal(), "the accountant counts the updates that happened");
    assertTrue(FederationFixture.verify(r, s, dir).ok());
    // its data were bundled at the first turn it took: without noise or retraining, the model is then
    // every peer's class sums, as if it had never missed a turn
    FederationSettings plain = FederationFixture.ring(ScheduleMode.NONE, 2).retrainEpochs(0)
        .ackTimeout(Duration.ofMillis(300)).build();
    LoopbackBroker b2 = new LoopbackBroker();
    List<EncodedSet> shards = FederationFixture.shards(PEERS, PER_PEER);
    Simulation.Result late = FederationFixture.run(plain, shards,
        id -> id.endsWith("peer-003") ? new DozingTransport(b2.connect(id), 2) : b2.connect(id));
    Simulation.Result all = FederationFixture.run(plain, shards, new LoopbackBroker()::connect);
    float[] a = late.finalModel().toArray();
    float[] c = all.finalModel().toArray();
    double norm = 0;
    double diff = 0;
    for (int i = 0; i < a.length; i++) {
      norm += c[i] * (double) c[i];
      diff += (a[i] - c[i]) * (double) (a[i] - c[i]);
    }
    assertTrue(diff < 1e-10 * norm, "the late peer's data are in the model: relative difference " + Math.sqrt(diff / norm));
  }
}
