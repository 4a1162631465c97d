package io.hdfl.federation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hdfl.privacy.schedule.ScheduleMode;
import io.hdfl.transport.MqttSettings;
import io.hdfl.transport.MqttTransport;
import io.hdfl.transport.Transport;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A peer dies in the middle of a run: its connection is reset without DISCONNECT (so the broker, a
 * Mosquitto process the test starts, publishes its last will) and it never sends or receives again.
 * The others finish without it; the ledger verifies and counts exactly the updates that happened.
 */
class PeerKilledMidRunTest {
  /** Four peers, three rounds, hand-offs given up after 500 ms. */
  private static final FederationSettings RING = FederationFixture.ring(ScheduleMode.PRIVATEDFL, 3)
      .ackTimeout(Duration.ofMillis(500)).build();

  @TempDir Path dir;

  /** Peer ids whose last will ("offline") the broker published, seen by an observer of the presence topics. */
  private static Set<String> watchWills(Transport observer, Topics topics) throws Exception {
    Set<String> offline = ConcurrentHashMap.newKeySet();
    observer.subscribe(topics.peer("+"), 1, (topic, payload, retained) -> {
      if (Arrays.equals(payload, FaultyFederation.OFFLINE)) {
        offline.add(topic.substring(topic.lastIndexOf('/') + 1));
      }
    });
    return offline;
  }

  /**
   * peer-003 dies as its round-2 model arrives (before acknowledging it): peer-002 resends once, skips
   * it, and the ring goes on with three peers; peer-003's round-1 update stays in the model and the
   * ledger, and it has no step after.
   */
  @Test
  void aRingPeerKilledAsItsModelArrivesIsSkippedForTheRestOfTheRun() throws Exception {
    Topics topics = new Topics(RING.federation());
    ringWithAPeerKilled("peer-003", DeliveryFaults.seeded(1).on(topics.ringInbox("peer-003")).killingAt(2),
        List.of("1:peer-001", "1:peer-002", "1:peer-003", "1:peer-004", "2:peer-001", "2:peer-002", "2:peer-004",
            "3:peer-001", "3:peer-002", "3:peer-004"));
  }

  /**
   * As above, while another peer's acks for the step peer-002 hands to the dying peer-003 keep
   * arriving (peer-004's name, step 6): only the peer a step was handed to can take it, so peer-002
   * still gives peer-003 up and hands the model to peer-004. Taken, such an ack ended the hand-off
   * with the model nowhere and the ring stalled.
   */
  @Test
  void anAckFromAnotherPeerThanTheOneHandedTheStepIsIgnored() throws Exception {
    Topics topics = new Topics(RING.federation());
    var spec = FederationFixture.spec();
    byte[] forged = io.hdfl.codec.EnvelopeCodec.encode(new io.hdfl.codec.ModelEnvelope(
        io.hdfl.codec.ModelEnvelope.Kind.ACK, RING.federation(), "peer-004", 2, 6, spec.kind().id(), spec.features(),
        spec.basisSeed(), spec.dim(), FederationFixture.CLASSES, 0, 0, List.of(), null, null));
    ringWithAPeerKilled("peer-003", DeliveryFaults.seeded(1).on(topics.ringInbox("peer-003")).killingAt(2),
        List.of("1:peer-001", "1:peer-002", "1:peer-003", "1:peer-004", "2:peer-001", "2:peer-002", "2:peer-004",
            "3:peer-001", "3:peer-002", "3:peer-004"),
        forger -> forger.publish(topics.ringAck("peer-002", "peer-004"), forged, 1, false));
  }

  /**
   * peer-002 dies as the ack for its round-2 model arrives: peer-003 has taken the model and goes on
   * with it, so peer-002's round-2 entry is in the final model's lineage although peer-002 never
   * published it on its ledger topic (and the final model carries only the last four entries). The
   * run's ledger must still have it.
   */
  @Test
  void aRingPeerKilledAfterItsModelWasTakenKeepsItsLastEntryInTheLedger() throws Exception {
    Topics topics = new Topics(RING.federation());
    ringWithAPeerKilled("peer-002", DeliveryFaults.seeded(1).on(topics.ringAcks("peer-002")).killingAt(2),
        List.of("1:peer-001", "1:peer-002", "1:peer-003", "1:peer-004", "2:peer-001", "2:peer-002", "2:peer-003",
            "2:peer-004", "3:peer-001", "3:peer-003", "3:peer-004"));
  }

  /**
   * Runs a ring of four over a Mosquitto process, {@code victim} with the faults {@code dies} (which
   * kill it); asserts the turns taken, the ledger, the final model and that only the victim's last
   * will fired.
   */
  private void ringWithAPeerKilled(String victim, DeliveryFaults dies, List<String> turnsExpected) throws Exception {
    ringWithAPeerKilled(victim, dies, turnsExpected, null);
  }

  /** An action an outsider repeats every 20 ms over the run (null: none), with a connection of its own. */
  interface Meanwhile {
    void act(Transport outsider) throws Exception;
  }

  private void ringWithAPeerKilled(String victim, DeliveryFaults dies, List<String> turnsExpected, Meanwhile meanwhile)
      throws Exception {
    int peers = 4;
    int perPeer = 30;
    Topics topics = new Topics(RING.federation());
    try (TestBroker broker = TestBroker.Kind.MOSQUITTO.start(dir);
        FinalModels finals = FinalModels.watch(broker.uri(), RING);
        Transport observer = MqttTransport.connect(MqttSettings.builder(broker.uri()).clientId("observer").build())) {
      Set<String> wills = watchWills(observer, topics);
      FaultyFederation net = new FaultyFederation(broker.uri(), RING,
          id -> id.equals(victim) ? dies : DeliveryFaults.seeded(1));
      java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();
      Thread outsider = new Thread(() -> {
        try (Transport t = MqttTransport.connect(MqttSettings.builder(broker.uri()).clientId("outsider").build())) {
          while (!done.get()) {
            meanwhile.act(t);
            Thread.sleep(20);
          }
        } catch (Exception e) {
          if (!done.get()) {
            throw new IllegalStateException(e);
          }
        }
      }, "outsider");
      if (meanwhile != null) {
        outsider.start();
      }
      Simulation.Result r;
      try {
        r = FederationFixture.run(RING, FederationFixture.shards(peers, perPeer), net);
      } finally {
        done.set(true);
        outsider.join(5000);
      }
      String context = "ring with " + victim + " killed";
      assertTrue(net.peer(victim).killed(), context);
      List<String> turns = RunAudit.ring(r, RING, perPeer, context);
      assertEquals(turnsExpected, turns, context);
      RunAudit.verifies(r, RING, dir.resolve("verify"), context);
      finals.assertTheFirstCarriesTheLedger(r, context);
      Thread.sleep(300); // a clean close publishes no will; give a wrong one time to show up
      assertEquals(Set.of(victim), wills, "only the killed peer's last will fired");
    }
  }

  /**
   * client-003 dies right after sending its round-1 update: with a quorum of 3 of 4 the aggregator
   * closes rounds 2 and 3 at their deadline with the other three, and the server's noise covers the
   * smaller average exactly.
   */
  @Test
  void aStarClientKilledAfterItsFirstUpdateLeavesAQuorumOfThree() throws Exception {
    int clients = 4;
    int rounds = 3;
    long perRound = 10;
    FederationSettings s = FederationFixture.star(rounds, perRound).quorum(3).roundDeadline(Duration.ofMillis(300))
        .build();
    Topics topics = new Topics(s.federation());
    try (TestBroker broker = TestBroker.Kind.MOSQUITTO.start(dir);
        FinalModels finals = FinalModels.watch(broker.uri(), s);
        Transport observer = MqttTransport.connect(MqttSettings.builder(broker.uri()).clientId("observer").build())) {
      Set<String> wills = watchWills(observer, topics);
      FaultyFederation[] net = new FaultyFederation[1];
      Tripwire death = Tripwire.inline(topics.starUpdate("client-003"), 1, () -> net[0].peer("client-003").kill());
      net[0] = new FaultyFederation(broker.uri(), s, DeliveryFaults.seeded(1)).with(death);
      // the aggregator says whom each round closed at its deadline holds (its log goes to System.err, which
      // slf4j-simple, with logFile=System.err and no cacheOutputStream, looks up at each line)
      java.io.ByteArrayOutputStream log = new java.io.ByteArrayOutputStream();
      java.io.PrintStream err = System.err;
      System.setErr(new java.io.PrintStream(new java.io.OutputStream() {
        @Override
        public void write(int b) {
          err.write(b);
          synchronized (log) {
            log.write(b);
          }
        }

        @Override
        public void write(byte[] b, int off, int len) {
          err.write(b, off, len);
          synchronized (log) {
            log.write(b, off, len);
          }
        }
      }, true));
      Simulation.Result r;
      try {
        r = FederationFixture.run(s, FederationFixture.shards(clients, 60), net[0]);
      } finally {
        System.setErr(err);
      }
      String context = "star with client-003 killed";
      String logged;
      synchronized (log) {
        logged = log.toString(java.nio.charset.StandardCharsets.UTF_8);
      }
      assertTrue(logged.contains("aggregator: round 2 closes at its deadline with 3 of 4 updates (from client-001, "
          + "client-002, client-004); an update of it that comes later is recorded as late"), logged);
      assertTrue(logged.contains("aggregator: round 3 closes at its deadline with 3 of 4 updates (from client-001, "
          + "client-002, client-004); the run ends with it"), logged);
      assertEquals(List.of(4, 3, 3), RunAudit.star(r, s, perRound, context), context);
      assertEquals(1, r.ledger().stream().filter(l -> l.entry().peer().equals("client-003")).count(), context);
      RunAudit.verifies(r, s, dir.resolve("verify"), context);
      finals.assertTheFirstCarriesTheLedger(r, context);
      Thread.sleep(300);
      assertEquals(Set.of("client-003"), wills, "only the killed client's last will fired");
    }
  }
}
