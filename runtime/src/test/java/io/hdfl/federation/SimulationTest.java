package io.hdfl.federation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hdfl.hd.EncodedSet;
import io.hdfl.privacy.schedule.ScheduleMode;
import io.hdfl.transport.LoopbackBroker;
import io.hdfl.transport.Transport;
import io.hdfl.transport.TransportException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** How a simulation connects its recorder and participants: all at once, and nothing left open on failure. */
class SimulationTest {

  @Test
  void aFailedConnectFailsTheRunAndClosesEveryTransportThatConnected() {
    LoopbackBroker broker = new LoopbackBroker();
    List<Transport> made = Collections.synchronizedList(new ArrayList<>());
    PeerConnector connector = id -> {
      if (id.endsWith("-peer-003")) {
        throw new TransportException("refused by the test broker: " + id);
      }
      Transport t = broker.connect(id);
      made.add(t);
      return t;
    };
    FederationSettings s = FederationFixture.ring(ScheduleMode.PRIVATEDFL, 1).build();
    List<EncodedSet> shards = FederationFixture.shards(5, 12);
    TransportException e = assertThrows(TransportException.class, () -> FederationFixture.run(s, shards, connector));
    assertTrue(e.getMessage().contains("test-peer-003"), e.getMessage());
    assertEquals(5, made.size(), "the recorder and the four other peers connected");
    for (Transport t : made) {
      assertFalse(t.isConnected(), t.clientId() + " left connected");
    }
  }

  @Test
  void participantsConnectAtOnceNotOneAfterAnother() throws Exception {
    // every connect waits until all six (recorder and five peers) are under way: connected one after
    // another, or in waves smaller than six, the first would time out
    int participants = 6;
    CountDownLatch underWay = new CountDownLatch(participants);
    LoopbackBroker broker = new LoopbackBroker();
    PeerConnector connector = id -> {
      underWay.countDown();
      try {
        if (!underWay.await(10, TimeUnit.SECONDS)) {
          throw new TransportException(id + ": the other connects never started");
        }
      } catch (InterruptedException ie) {
        Thread.currentThread().interrupt();
        throw new TransportException("interrupted", ie);
      }
      return broker.connect(id);
    };
    FederationSettings s = FederationFixture.ring(ScheduleMode.PRIVATEDFL, 1).build();
    Simulation.Result r = FederationFixture.run(s, FederationFixture.shards(participants - 1, 12), connector);
    assertEquals(participants - 1, r.ledger().size(), "one round of five peers");
  }
}
