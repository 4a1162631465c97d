package io.hdfl.federation;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hdfl.hd.EncodedSet;
import io.hdfl.privacy.schedule.ScheduleMode;
import io.hdfl.transport.LoopbackBroker;
import io.hdfl.transport.MosquittoProcess;
import io.hdfl.transport.MqttSettings;
import io.hdfl.transport.MqttTransport;
import io.hdfl.transport.Transport;
import io.hdfl.transport.TransportException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real Mosquitto, started by the test, is killed (SIGKILL) in the middle of a run and started
 * again 1.5 s later. Peers reconnect, nothing they hold is lost, and the run ends exactly as one
 * without the outage: every step happened once, the ledger verifies, the model is bit-identical.
 */
class BrokerRestartTest {
  static final int PEERS = 4;
  static final int ROUNDS = 6;

  @TempDir Path dir;

  /** Counts model hand-offs across all peers and calls {@code atHop} once when the count reaches {@code n}. */
  private static Transport counting(Transport t, AtomicInteger hops, int n, Runnable atHop) {
    return new ForwardingTransport(t) {
      @Override
      public void publish(String topic, byte[] payload, int qos, boolean retained) throws TransportException {
        inner.publish(topic, payload, qos, retained);
        if (topic.contains("/in/") && hops.incrementAndGet() == n) {
          new Thread(atHop, "kill-broker").start();
        }
      }
    };
  }

  @Test
  void aRingSurvivesABrokerKilledAndRestartedMidRun() throws Exception {
    ringThroughAnOutage(builder -> builder.maxReconnectDelay(Duration.ofSeconds(1)), 1500);
  }

  @Test
  void aRingSurvivesAnOutageLongEnoughThatItsMqttClientsAreReplaced() throws Exception {
    // the watchdog gives a lost connection 1 + 1 + 2 = 4 s before it replaces the Paho client
    List<MqttTransport> clients = ringThroughAnOutage(
        builder -> builder.connectTimeout(Duration.ofSeconds(1)).maxReconnectDelay(Duration.ofSeconds(1)), 6000);
    assertTrue(clients.stream().allMatch(c -> c.clientReplacements() >= 1),
        "every client was replaced during the outage: " + clients.stream().map(MqttTransport::clientReplacements).toList());
  }

  /**
   * Runs a ring over a Mosquitto process that is killed at the 2K+1-th hand-off and restarted
   * {@code downMs} later; asserts the run ends as one over the loopback without an outage. Returns
   * the MQTT clients of the run.
   */
  private List<MqttTransport> ringThroughAnOutage(java.util.function.UnaryOperator<MqttSettings.Builder> settings,
      long downMs) throws Exception {
    Assumptions.assumeTrue(MosquittoProcess.binary().isPresent(), "mosquitto is not installed");
    List<EncodedSet> shards = FederationFixture.shards(PEERS, 30);
    FederationSettings s = FederationFixture.ring(ScheduleMode.PRIVATEDFL, ROUNDS).ackTimeout(Duration.ofSeconds(1))
        .build();
    Simulation.Result reference = FederationFixture.run(s, shards, new LoopbackBroker()::connect);
    try (MosquittoProcess broker = MosquittoProcess.startPlain(dir)) {
      MqttSettings base = settings.apply(MqttSettings.builder(broker.uri())).build();
      List<MqttTransport> clients = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
      AtomicInteger hops = new AtomicInteger();
      AtomicInteger restarts = new AtomicInteger();
      Runnable outage = () -> {
        try {
          broker.kill();
          Thread.sleep(downMs);
          broker.restart();
          restarts.incrementAndGet();
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      };
      Simulation.Result r = FederationFixture.run(s, shards, id -> {
        MqttTransport t = MqttTransport.connect(base.withClientId(id));
        clients.add(t);
        return counting(t, hops, PEERS * 2 + 1, outage);
      });
      assertEquals(1, restarts.get(), "the broker was restarted during the run");
      assertEquals(PEERS * ROUNDS, r.ledger().size(), "every step happened exactly once");
      assertTrue(FederationFixture.verify(r, s, dir.resolve("verify")).ok());
      assertArrayEquals(reference.finalModel().toArray(), r.finalModel().toArray(), "the outage changed nothing");
      return List.copyOf(clients);
    }
  }
}
