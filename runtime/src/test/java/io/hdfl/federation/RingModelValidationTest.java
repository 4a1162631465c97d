package io.hdfl.federation;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hdfl.hd.EncodedSet;
import io.hdfl.privacy.schedule.ScheduleMode;
import io.hdfl.transport.LoopbackBroker;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * A ring peer takes from its inbox only models of this run it can train on. Before each real
 * hand-off from peer-001 to peer-002, peer-002 gets forgeries of it that pass the envelope's checks:
 * one at the run's last step and one beyond it (taken, they would have made every real model look
 * like a duplicate of a step already taken, and left a journal entry a device's restart refuses),
 * one of round 0 and one with a class fewer than the peers' data (its training threw on the worker
 * and stayed in the journal). The run must end as one without them, bit for bit.
 */
class RingModelValidationTest {
  private static final int PEERS = 3;
  private static final int ROUNDS = 2;
  private static final List<EncodedSet> SHARDS = FederationFixture.shards(PEERS, 20);

  @Test
  void modelsThatAreNoHopOfThisRunOrCannotBeTrainedOnAreDropped() throws Exception {
    FederationSettings s = FederationFixture.ring(ScheduleMode.PRIVATEDFL, ROUNDS).build();
    String inbox = new Topics(s.federation()).ringIn("peer-002", "peer-001");
    long steps = (long) PEERS * ROUNDS;
    List<ForgingTransport> forgers = new CopyOnWriteArrayList<>();
    Simulation.Result r = FederationFixture.run(s, SHARDS, ForgingTransport.forging(new LoopbackBroker(), s,
        "peer-001", inbox, u -> List.of(
            ForgingTransport.at(u, ROUNDS, steps),
            ForgingTransport.at(u, ROUNDS, 1_000_000_000_000_000_000L),
            ForgingTransport.at(u, 0, u.step()),
            ForgingTransport.oneClassFewer(u)), forgers));

    assertEquals(ROUNDS * 4, forgers.get(0).sent().size(), "every forgery at each of peer-001's hand-offs: "
        + forgers.get(0).sent());
    Simulation.Result honest = FederationFixture.run(s, SHARDS, new LoopbackBroker()::connect);
    assertArrayEquals(honest.finalModel().toArray(), r.finalModel().toArray(), "the forgeries changed nothing");
    assertEquals(steps, r.ledger().size(), "every step once");
    for (int i = 0; i < r.ledger().size(); i++) {
      assertEquals(i + 1, r.ledger().get(i).entry().step());
      assertEquals(honest.ledger().get(i).entry().addedVariance(), r.ledger().get(i).entry().addedVariance());
    }
  }
}
