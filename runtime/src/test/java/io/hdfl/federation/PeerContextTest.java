package io.hdfl.federation;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hdfl.privacy.ledger.LedgerEntry;
import io.hdfl.privacy.ledger.NoiseRecord;
import io.hdfl.privacy.ledger.PeerKeys;
import io.hdfl.privacy.ledger.PrivacyLedger;
import io.hdfl.security.HopAead;
import io.hdfl.security.HopCipher;
import io.hdfl.security.HopKeys;
import io.hdfl.security.Roster;
import io.hdfl.transport.LoopbackBroker;
import io.hdfl.transport.Transport;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PeerContextTest {
  /**
   * With encrypted hops the aggregator checks a late update's ledger entry against the roster before
   * it records it (a line ledger verify would refuse is not recorded); without, there is no roster to
   * check against, and verify does it later.
   */
  @Test
  void aLedgerEntryIsCheckedAgainstTheRosterWhenHopsAreEncrypted() throws Exception {
    FederationSettings s = FederationFixture.star(2, 10).encryption(HopAead.CHACHA20_POLY1305).build();
    PeerKeys client = PeerKeys.generate("client-001");
    PeerKeys stranger = PeerKeys.generate("client-001");
    HopKeys hops = HopKeys.generate("aggregator");
    Roster roster = Roster.of(Map.of("aggregator", hops.publicKey()), Map.of("client-001", client.publicKey()));
    Transport t = new LoopbackBroker().connect("aggregator");
    PeerContext ctx = new PeerContext("aggregator", s, t, PeerKeys.generate("aggregator"), null, FederationFixture.K,
        r -> { }, new FrameChannel(t, 0), new HopCipher(s.federation(), hops, roster, s.encryption()));
    String line = line(s, client);
    assertNull(ctx.ledgerSignatureProblem(line, "client-001"));
    assertTrue(ctx.ledgerSignatureProblem(line(s, stranger), "client-001")
        .startsWith("its ledger entry is not signed by 'client-001'"));
    assertTrue(ctx.ledgerSignatureProblem(line, "client-002").startsWith("its ledger entry's signature cannot be checked"));
    PeerContext plain = new PeerContext("aggregator", s, t, PeerKeys.generate("aggregator"), null, FederationFixture.K,
        r -> { }, new FrameChannel(t, 0));
    assertNull(plain.ledgerSignatureProblem(line(s, stranger), "client-001"), "no roster: left to ledger verify");
  }

  /**
   * A reliable publish stops when its thread is interrupted (a peer shut down), also while the
   * transport stays connected and each attempt fails: before, an interrupted publish failed at once
   * and was tried again for ever.
   */
  @Test
  void aReliablePublishEndsWhenItsThreadIsInterrupted() throws Exception {
    FederationSettings s = FederationFixture.ring(io.hdfl.privacy.schedule.ScheduleMode.PRIVATEDFL, 1).build();
    java.util.concurrent.atomic.AtomicInteger attempts = new java.util.concurrent.atomic.AtomicInteger();
    Transport failing = new ForwardingTransport(new LoopbackBroker().connect("peer-0")) {
      @Override
      public void publish(String topic, byte[] payload, int qos, boolean retained)
          throws io.hdfl.transport.TransportException {
        attempts.incrementAndGet();
        throw new io.hdfl.transport.TransportException("publish to " + topic + " not confirmed");
      }
    };
    PeerContext ctx = new PeerContext("peer-0", s, failing, null, null, FederationFixture.K, r -> { },
        new FrameChannel(failing, 0));
    java.util.concurrent.CompletableFuture<Throwable> ended = new java.util.concurrent.CompletableFuture<>();
    Thread publisher = new Thread(() -> {
      Thread.currentThread().interrupt(); // as SerialWorker.stop() does to a peer's worker
      try {
        ctx.publishReliably("hdfl/f/ledger/peer-0", new byte[] {1}, false, false);
        ended.complete(null);
      } catch (Throwable e) {
        ended.complete(e);
      }
    });
    publisher.setDaemon(true);
    publisher.start();
    Throwable e = ended.get(10, java.util.concurrent.TimeUnit.SECONDS);
    assertTrue(e instanceof InterruptedException, String.valueOf(e));
    assertTrue(attempts.get() <= 1, attempts.get() + " attempts");
  }

  /** A round-1 update of client-001 signed with {@code keys}. */
  private static String line(FederationSettings s, PeerKeys keys) {
    return PrivacyLedger.inMemory(s.ledgerSettings()).sign(keys, NoiseRecord.update("client-001", 1, 1, 10, 10, 1.0, 0,
        1.0, 1.0, LedgerEntry.Source.SEEDED, "test"), LedgerEntry.GENESIS_HASH).text();
  }
}
