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
 * and stayed in the journal); one claiming more noise than its sender's ledger entry records, one
 * whose last line is not its sender's entry (in round 1: no line at all), one whose entry is
 * altered and one of a round its entry does not have (taken before each real model, they made it a
 * duplicate: peer-002 calibrated its noise to the claim). The run must end as one without them, bit
 * for bit.
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
            ForgingTransport.oneClassFewer(u),
            // more noise claimed than its sender's entry records: the next peer would add too little
            ForgingTransport.with(u, u.classes(), u.prototypes(), u.presentVariance() * 2, u.samplesAbsorbed()),
            // without its sender's entry (the line before it last), and without any
            ForgingTransport.withLines(u, u.ledgerLines().subList(0, u.ledgerLines().size() - 1)),
            ForgingTransport.withLines(u, altered(u.ledgerLines())),
            // a round its sender's entry does not have (round 1's step 1 as round 2's)
            ForgingTransport.at(u, u.round() + 1, u.step())),
            forgers));

    assertEquals(ROUNDS * 8, forgers.get(0).sent().size(), "every forgery at each of peer-001's hand-offs: "
        + forgers.get(0).sent());
    Simulation.Result honest = FederationFixture.run(s, SHARDS, new LoopbackBroker()::connect);
    assertArrayEquals(honest.finalModel().toArray(), r.finalModel().toArray(), "the forgeries changed nothing");
    assertEquals(steps, r.ledger().size(), "every step once");
    for (int i = 0; i < r.ledger().size(); i++) {
      assertEquals(i + 1, r.ledger().get(i).entry().step());
      assertEquals(honest.ledger().get(i).entry().addedVariance(), r.ledger().get(i).entry().addedVariance());
    }
  }

  /** {@code lines} whose last entry records one sample more than its model has absorbed. */
  private static List<String> altered(List<String> lines) {
    List<String> out = new java.util.ArrayList<>(lines);
    String last = out.get(out.size() - 1);
    long total = io.hdfl.privacy.ledger.LedgerCodec.parse(last).samplesTotal();
    out.set(out.size() - 1, last.replace("\"samples_total\":" + total + ",", "\"samples_total\":" + (total + 1) + ","));
    return out;
  }
}
