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

  /** A round-1 update of client-001 signed with {@code keys}. */
  private static String line(FederationSettings s, PeerKeys keys) {
    return PrivacyLedger.inMemory(s.ledgerSettings()).sign(keys, NoiseRecord.update("client-001", 1, 1, 10, 10, 1.0, 0,
        1.0, 1.0, LedgerEntry.Source.SEEDED, "test"), LedgerEntry.GENESIS_HASH).text();
  }
}
