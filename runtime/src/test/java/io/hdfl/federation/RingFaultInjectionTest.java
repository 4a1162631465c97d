package io.hdfl.federation;

import static io.hdfl.federation.FaultyTransport.Fault.CORRUPT;
import static io.hdfl.federation.FaultyTransport.Fault.DELAY;
import static io.hdfl.federation.FaultyTransport.Fault.DROP;
import static io.hdfl.federation.FaultyTransport.Fault.DUPLICATE;
import static io.hdfl.federation.FaultyTransport.Fault.REORDER;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hdfl.hd.EncodedSet;
import io.hdfl.privacy.schedule.ScheduleMode;
import io.hdfl.security.HopAead;
import io.hdfl.transport.LoopbackBroker;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * A PrivateDFL ring over a real broker (a Mosquitto process the test starts, or the embedded one)
 * whose peers' deliveries are dropped, corrupted, duplicated, delayed and reordered by a seeded
 * {@link FaultyTransport}. Whatever happens, the run ends, its ledger verifies, every step happens
 * once in one linear history, and the noise recorded and carried is exactly the schedule's for the
 * updates that happened.
 */
class RingFaultInjectionTest {
  static final int PEERS = 4;
  static final int ROUNDS = 2;
  static final int PER_PEER = 30;

  @TempDir Path dir;

  private static final List<EncodedSet> SHARDS = FederationFixture.shards(PEERS, PER_PEER);

  private static Simulation.Result reference(FederationSettings s) throws Exception {
    return FederationFixture.run(s, SHARDS, new LoopbackBroker()::connect);
  }

  /**
   * Faults that lose nothing — duplicates, 50-500 ms delays, deliveries held back behind the next one —
   * change nothing: the model is bit-identical to a run without them (acks wait long enough).
   */
  @ParameterizedTest
  @EnumSource(TestBroker.Kind.class)
  void duplicatedDelayedAndReorderedDeliveriesChangeNothing(TestBroker.Kind kind) throws Exception {
    FederationSettings s = FederationFixture.ring(ScheduleMode.PRIVATEDFL, ROUNDS).ackTimeout(Duration.ofMillis(2500))
        .build();
    DeliveryFaults plan = DeliveryFaults.seeded(5).duplicating(0.3).delaying(0.3, 50, 500).reordering(0.3, 300);
    try (TestBroker broker = kind.start(dir);
        FinalModels finals = FinalModels.watch(broker.uri(), s)) {
      FaultyFederation net = new FaultyFederation(broker.uri(), s, plan);
      Simulation.Result r = FederationFixture.run(s, SHARDS, net);
      String context = kind + " with" + net.summary();
      net.assertInjected(DUPLICATE, DELAY, REORDER);
      assertEquals(PEERS * ROUNDS, r.ledger().size(), context + ": every step, once");
      RunAudit.ring(r, s, PER_PEER, context);
      RunAudit.verifies(r, s, dir.resolve("verify"), context);
      finals.assertTheFirstCarriesTheLedger(r, context);
      assertEquals(1, finals.count(), context + ": one final model");
      assertArrayEquals(reference(s).finalModel().toArray(), r.finalModel().toArray(), context + ": changed nothing");
    }
  }

  /**
   * Lost and corrupted models and acks (bit flips, truncation, garbage): a corrupted frame is refused,
   * an unanswered hand-off is resent, a peer is skipped only after two unanswered attempts, and the
   * accountant counts exactly the updates that happened.
   */
  @Test
  void lostAndCorruptedDeliveriesLeaveOneExactHistory() throws Exception {
    FederationSettings s = FederationFixture.ring(ScheduleMode.PRIVATEDFL, ROUNDS).ackTimeout(Duration.ofMillis(400))
        .build();
    lossy(TestBroker.Kind.MOSQUITTO, s, DeliveryFaults.seeded(17).dropping(0.15).corrupting(0.2));
  }

  /**
   * The same with end-to-end encrypted hops over the embedded broker, duplicates included: a corrupted
   * sealed frame fails authentication, a duplicate is refused as a replay.
   */
  @Test
  void lostAndCorruptedSealedDeliveriesLeaveOneExactHistory() throws Exception {
    FederationSettings s = FederationFixture.ring(ScheduleMode.PRIVATEDFL, ROUNDS).ackTimeout(Duration.ofMillis(400))
        .encryption(HopAead.AES_256_GCM).build();
    lossy(TestBroker.Kind.EMBEDDED, s, DeliveryFaults.seeded(29).dropping(0.15).corrupting(0.2).duplicating(0.2));
  }

  /**
   * The embedded broker is stopped mid-run (which takes it 2 s) and started again 0.5 s later
   * (BrokerRestartTest does it to
   * a Mosquitto process), under duplicated and reordered deliveries: peers reconnect and resend, and
   * the run ends as one without outage or faults.
   */
  @Test
  void aBrokerRestartedMidRunUnderFaultsChangesNothing() throws Exception {
    FederationSettings s = FederationFixture.ring(ScheduleMode.PRIVATEDFL, ROUNDS).ackTimeout(Duration.ofMillis(1000))
        .build();
    DeliveryFaults plan = DeliveryFaults.seeded(13).duplicating(0.3).reordering(0.3, 300);
    try (TestBroker broker = TestBroker.Kind.EMBEDDED.start(dir);
        FinalModels finals = FinalModels.watch(broker.uri(), s)) {
      java.util.concurrent.atomic.AtomicBoolean restarted = new java.util.concurrent.atomic.AtomicBoolean();
      Tripwire outage = new Tripwire(new Topics(s.federation()).ringInbox("+"), PEERS + 2, () -> {
        try {
          broker.outage(500);
          restarted.set(true);
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      });
      FaultyFederation net = new FaultyFederation(broker.uri(), s, plan).with(outage);
      Simulation.Result r = FederationFixture.run(s, SHARDS, net);
      String context = "ring with a broker restart and" + net.summary();
      assertTrue(restarted.get(), "the broker was restarted during the run");
      assertEquals(PEERS * ROUNDS, r.ledger().size(), context + ": every step, once");
      RunAudit.ring(r, s, PER_PEER, context);
      RunAudit.verifies(r, s, dir.resolve("verify"), context);
      finals.assertTheFirstCarriesTheLedger(r, context);
      assertEquals(1, finals.count(), context + ": one final model");
      assertArrayEquals(reference(s).finalModel().toArray(), r.finalModel().toArray(), context + ": changed nothing");
    }
  }

  private void lossy(TestBroker.Kind kind, FederationSettings s, DeliveryFaults plan) throws Exception {
    try (TestBroker broker = kind.start(dir);
        FinalModels finals = FinalModels.watch(broker.uri(), s)) {
      FaultyFederation net = new FaultyFederation(broker.uri(), s, plan);
      Simulation.Result r = FederationFixture.run(s, SHARDS, net);
      String context = kind + (s.encryption() == null ? "" : " encrypted") + " with" + net.summary();
      net.assertInjected(DROP, CORRUPT);
      List<String> turns = RunAudit.ring(r, s, PER_PEER, context);
      assertTrue(turns.size() >= PEERS, context + ": most steps happened: " + turns);
      RunAudit.verifies(r, s, dir.resolve("verify"), context);
      finals.assertTheFirstCarriesTheLedger(r, context);
    }
  }
}
