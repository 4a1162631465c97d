package io.hdfl.federation;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hdfl.codec.EnvelopeCodec;
import io.hdfl.codec.EnvelopeException;
import io.hdfl.codec.Expectations;
import io.hdfl.codec.ModelEnvelope;
import io.hdfl.privacy.ledger.LedgerCodec;
import io.hdfl.privacy.ledger.LedgerEntry;
import io.hdfl.transport.MqttSettings;
import io.hdfl.transport.MqttTransport;
import io.hdfl.transport.Transport;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Every final model published during a run, as a client subscribed before it sees them. Normally
 * one. A ring whose last hand-off was taken but not acknowledged (the ack lost) can have two: the
 * peer that took the turn publishes the final, and the peer that gave up on it publishes one a step
 * shorter (after its ack timeouts) if it has not received the full one by then ({@link
 * RingPeer#finalSeen}). Consumers — the simulation's recorder, {@code hdfl peer} — take the first,
 * the full one; the broker keeps the later one retained (README "Reliability").
 */
final class FinalModels implements AutoCloseable {
  private static final double TOL = 1e-9;

  private final Transport observer;
  private final List<ModelEnvelope> finals = Collections.synchronizedList(new ArrayList<>());

  private FinalModels(Transport observer) {
    this.observer = observer;
  }

  /** Starts watching the final-model topic of {@code s}'s federation on the broker at {@code uri}. */
  static FinalModels watch(String uri, FederationSettings s) throws Exception {
    FinalModels f = new FinalModels(MqttTransport.connect(MqttSettings.builder(uri).build()
        .withClientId("finals-" + Long.toHexString(System.nanoTime()))));
    f.observer.subscribe(new Topics(s.federation()).finalModel(), 1,
        new FrameChannel(f.observer, s.maxPacketBytes()).receiver((topic, payload, retained) -> {
          try {
            f.finals.add(EnvelopeCodec.decode(payload, Expectations.defaults()));
          } catch (EnvelopeException e) {
            throw new IllegalStateException("an unreadable final model was published: " + e.getMessage(), e);
          }
        }));
    return f;
  }

  /**
   * The first final model is the run's: its model, its noise and its sample count are those of the
   * run's last ledger entry. A later one comes from a peer that skipped the peer which then took
   * the last turn: it is shorter, and carries exactly the noise its own ledger tail records.
   */
  void assertTheFirstCarriesTheLedger(Simulation.Result r, String context) throws InterruptedException {
    long deadline = System.nanoTime() + 5_000_000_000L;
    while (finals.isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    List<ModelEnvelope> seen;
    synchronized (finals) {
      seen = List.copyOf(finals);
    }
    assertFalse(seen.isEmpty(), context + ": no final model was published");
    ModelEnvelope first = seen.get(0);
    LedgerEntry last = r.ledger().get(r.ledger().size() - 1).entry();
    assertArrayEquals(r.finalModel().toArray(), first.prototypes(), context + ": the run's final model");
    assertEquals(last.presentAfter(), first.presentVariance(), TOL * last.presentAfter(),
        context + ": noise the final model carries");
    assertEquals(last.samplesTotal(), first.samplesAbsorbed(), context + ": samples the final model absorbed");
    for (ModelEnvelope later : seen.subList(1, seen.size())) {
      String at = context + ": a later final model from " + later.sender() + " (step " + later.step() + ")";
      assertTrue(later.step() < first.step(), at + " after step " + first.step());
      LedgerEntry own = LedgerCodec.parse(later.ledgerLines().get(later.ledgerLines().size() - 1));
      assertEquals(own.presentAfter(), later.presentVariance(), TOL * own.presentAfter(), at);
      assertEquals(own.samplesTotal(), later.samplesAbsorbed(), at);
    }
  }

  /** How many final models were published. */
  int count() {
    return finals.size();
  }

  @Override
  public void close() {
    observer.close();
  }
}
