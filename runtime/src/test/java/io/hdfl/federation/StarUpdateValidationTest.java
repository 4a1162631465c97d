package io.hdfl.federation;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hdfl.codec.ModelEnvelope;
import io.hdfl.hd.EncodedSet;
import io.hdfl.privacy.ledger.LedgerCodec;
import io.hdfl.privacy.ledger.LedgerEntry;
import io.hdfl.transport.LoopbackBroker;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The aggregator takes into a round's average only updates it can average: each forged update below
 * passes the envelope's checks and carries a ledger entry that parses, names its sender, has the
 * round and chains to the last aggregate (hops are not encrypted: no roster, no signature check), yet is not what an
 * honest client sends. Every one is published just before client-001's real update of each round,
 * under client-001's name (or, for the last, client-002's): were one taken, the real one would be
 * dropped as a duplicate and the run would change, or the aggregation would throw and stop the
 * aggregator. The run must end as one without them, bit for bit.
 */
class StarUpdateValidationTest {
  static final int CLIENTS = 3;
  static final int ROUNDS = 2;
  static final long PER_ROUND = 10;
  private static final List<EncodedSet> SHARDS = FederationFixture.shards(CLIENTS, 40);

  @Test
  void updatesThatCannotBeAveragedAreRejectedAndTheRoundGoesOn() throws Exception {
    FederationSettings s = FederationFixture.star(ROUNDS, PER_ROUND).build();
    String ownTopic = new Topics(s.federation()).starUpdate("client-001");
    List<ForgingTransport.Forge> forgeries = List.of(
        u -> List.of(ForgingTransport.oneClassFewer(u)),
        // less noise than its entry records
        u -> List.of(ForgingTransport.with(u, u.classes(), u.prototypes(), u.presentVariance() / 2,
            u.samplesAbsorbed())),
        // a value the average of three would overflow on
        u -> {
          float[] p = u.prototypes().clone();
          p[0] = Float.MAX_VALUE / 2;
          return List.of(ForgingTransport.with(u, u.classes(), p, u.presentVariance(), u.samplesAbsorbed()));
        },
        // entry and model agree, but on one sample fewer than the round's global model plus the new ones
        u -> {
          LedgerEntry e = LedgerCodec.parse(u.ledgerLines().get(0));
          return List.of(withEntry(ForgingTransport.with(u, u.classes(), u.prototypes(), u.presentVariance(),
              e.samplesTotal() - 1), entry(e, e.peer(), e.samplesTotal() - 1)));
        },
        // client-002's update on client-001's topic
        u -> {
          LedgerEntry e = LedgerCodec.parse(u.ledgerLines().get(0));
          ModelEnvelope as2 = new ModelEnvelope(u.kind(), u.federation(), "client-002", u.round(), u.step(),
              u.encoder(), u.features(), u.basisSeed(), u.dim(), u.classes(), u.presentVariance(),
              u.samplesAbsorbed(), u.ledgerLines(), null, u.prototypes());
          return List.of(withEntry(as2, entry(e, "client-002", e.samplesTotal())));
        });
    List<ForgingTransport> forgers = new CopyOnWriteArrayList<>();
    Simulation.Result r = FederationFixture.run(s, SHARDS, ForgingTransport.forging(new LoopbackBroker(), s,
        "client-001", ownTopic, u -> {
          List<ModelEnvelope> all = new ArrayList<>();
          for (ForgingTransport.Forge forge : forgeries) {
            all.addAll(forge.of(u));
          }
          return all;
        }, forgers));

    assertEquals(ROUNDS * forgeries.size(), forgers.get(0).sent().size(), "every forgery in every round: "
        + forgers.get(0).sent());
    assertEquals(Collections.nCopies(ROUNDS, CLIENTS), RunAudit.star(r, s, PER_ROUND, "forged"), "forged");
    Simulation.Result honest = FederationFixture.run(s, SHARDS, new LoopbackBroker()::connect);
    assertArrayEquals(honest.finalModel().toArray(), r.finalModel().toArray(), "the forgeries changed nothing");
    assertEquals(noiseRecords(honest), noiseRecords(r), "the same updates averaged, with the same noise");
  }

  /**
   * A global model of a round beyond the run (sent just before each real one, as anyone on the broker
   * could without encryption) is ignored by the clients: answered, it made them ignore every real
   * round as older, and the star stalled.
   */
  @Test
  void aGlobalModelOfARoundBeyondTheRunIsIgnored() throws Exception {
    FederationSettings s = FederationFixture.star(ROUNDS, PER_ROUND).build();
    String global = new Topics(s.federation()).starGlobal();
    List<ForgingTransport> forgers = new CopyOnWriteArrayList<>();
    Simulation.Result r = FederationFixture.run(s, SHARDS, ForgingTransport.forging(new LoopbackBroker(), s,
        "aggregator", global, u -> u.kind() == ModelEnvelope.Kind.GLOBAL_MODEL
            ? List.of(ForgingTransport.at(u, ROUNDS + 1, ROUNDS + 1)) : List.of(), forgers));
    assertEquals(ROUNDS, forgers.get(0).sent().size(), "a forgery before each round's global model: "
        + forgers.get(0).sent());
    Simulation.Result honest = FederationFixture.run(s, SHARDS, new LoopbackBroker()::connect);
    assertArrayEquals(honest.finalModel().toArray(), r.finalModel().toArray(), "the forgeries changed nothing");
  }

  /** Who recorded what noise on how many samples, entry by entry (timestamps, and so hashes, differ between runs). */
  private static List<String> noiseRecords(Simulation.Result r) {
    return r.ledger().stream().map(l -> l.entry()).map(e -> e.peer() + " " + e.kind() + " round " + e.round() + ": "
        + e.samplesNew() + "/" + e.samplesTotal() + " samples, added " + e.addedVariance() + ", present "
        + e.presentAfter() + ", " + e.contributors().size() + " contributors").toList();
  }

  private static ModelEnvelope withEntry(ModelEnvelope u, String line) {
    return ForgingTransport.withLines(u, List.of(line));
  }

  /** {@code e} as {@code peer}'s with {@code samplesTotal}, keeping its (now wrong) signature. */
  private static String entry(LedgerEntry e, String peer, long samplesTotal) {
    LedgerEntry f = new LedgerEntry(e.version(), e.federation(), peer, e.kind(), e.topology(), e.round(), e.step(),
        e.samplesNew(), samplesTotal, e.sensitivityScale(), e.requiredVariance(), e.presentBefore(),
        e.addedVariance(), e.presentAfter(), e.epsilon(), e.delta0(), e.dim(), e.schedule(), e.source(),
        e.notForDeployment(), e.contributors(), e.reason(), e.prevHash(), e.timestamp(), e.signature());
    return LedgerCodec.line(LedgerCodec.body(f), e.signature());
  }
}
