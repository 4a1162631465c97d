package io.hdfl.federation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hdfl.privacy.PrivacyParameters;
import io.hdfl.privacy.ledger.LedgerEntry;
import io.hdfl.privacy.ledger.LedgerLine;
import io.hdfl.privacy.ledger.Verification;
import io.hdfl.privacy.schedule.PrivateDflSchedule;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What a run that met faults must still show: its ledger verifies, every step happened exactly once
 * in one linear history, and the noise recorded is what the schedule requires for the updates that
 * really happened (the final model carries it: {@link FinalModels}) (recomputed here from {@link
 * PrivacyParameters}, not taken from the accountant that produced it).
 */
final class RunAudit {
  private static final double TOL = 1e-9;

  private RunAudit() {}

  /** The ledger verifies as {@code hdfl ledger verify} would. */
  static void verifies(Simulation.Result r, FederationSettings s, Path dir, String context) throws Exception {
    Verification v = FederationFixture.verify(r, s, dir);
    assertTrue(v.ok(), context + ": " + v.summary());
  }

  /**
   * A PrivateDFL ring with equal shards of {@code perPeer}: steps 1..n once each; within a round peers
   * in ring order, each at most once; rounds never go back; after step t the model holds t·N samples
   * with ξ(t) required and present, Γ(t) added. Returns the (round, peer) of every step.
   */
  static List<String> ring(Simulation.Result r, FederationSettings s, long perPeer, String context) {
    PrivacyParameters p = s.params();
    List<String> turns = new ArrayList<>();
    int round = 0;
    int lastIndex = -1;
    Set<String> inRound = new HashSet<>();
    List<LedgerLine> ledger = r.ledger();
    for (int t = 1; t <= ledger.size(); t++) {
      LedgerEntry e = ledger.get(t - 1).entry();
      String at = context + ", step " + t;
      assertEquals(LedgerEntry.Kind.UPDATE, e.kind(), at);
      assertEquals(t, e.step(), at + ": every step once, consecutive");
      assertTrue(e.round() >= round && e.round() <= s.rounds(), at + ": round " + e.round() + " after " + round);
      if (e.round() != round) {
        round = e.round();
        lastIndex = -1;
        inRound.clear();
      }
      int index = Integer.parseInt(e.peer().substring(e.peer().indexOf('-') + 1));
      assertTrue(index > lastIndex && inRound.add(e.peer()), at + ": " + e.peer() + " out of ring order in round " + round);
      lastIndex = index;
      assertEquals(t * perPeer, e.samplesTotal(), at + ": samples absorbed");
      double xi = PrivateDflSchedule.required(p, perPeer, t);
      assertEquals(xi, e.requiredVariance(), TOL * xi, at + ": ξ(t) required");
      assertEquals(xi, e.presentAfter(), TOL * xi, at + ": ξ(t) present");
      double gamma = PrivateDflSchedule.added(p, perPeer, t);
      assertEquals(gamma, e.addedVariance(), TOL * Math.max(gamma, xi), at + ": Γ(t) added");
      turns.add(e.round() + ":" + e.peer());
    }
    return turns;
  }

  /**
   * A FedHDPrivacy star of L samples a round: every aggregate averages exactly the client updates of
   * its round that precede it (distinct clients); each client update starts from the previous
   * aggregate and holds max(present, required(total)) for its L new samples; an aggregate of k holds
   * Σ present / k² and the server tops up to required(total, 1/k). An update of a round already
   * averaged (it came late) starts from the aggregate before its round, is averaged nowhere and is one
   * of its client in that round too. Returns the contributors per round.
   */
  static List<Integer> star(Simulation.Result r, FederationSettings s, long perRound, String context) {
    PrivacyParameters p = s.params();
    List<Integer> contributors = new ArrayList<>();
    List<LedgerEntry> updates = new ArrayList<>();
    List<String> updateHashes = new ArrayList<>();
    double present = 0;
    long total = 0;
    int round = 1;
    List<double[]> models = new ArrayList<>(); // the model (present, total) each round trained on
    Set<String> answered = new HashSet<>();
    for (LedgerLine line : r.ledger()) {
      LedgerEntry e = line.entry();
      String at = context + ", " + e.kind() + " of " + e.peer() + " in round " + e.round();
      if (e.kind() == LedgerEntry.Kind.UPDATE) {
        assertTrue(answered.add(e.peer() + " " + e.round()), at + ": one update per client and round");
      }
      if (e.kind() == LedgerEntry.Kind.UPDATE && e.round() < round) {
        assertTrue(updates.isEmpty(), at + ": a late update is recorded before the next round's updates");
        double[] from = models.get(e.round() - 1);
        assertEquals(perRound, e.samplesNew(), at);
        assertEquals((long) from[1] + perRound, e.samplesTotal(), at + ": late, it starts from the model of its round");
        assertEquals(from[0], e.presentBefore(), TOL * Math.max(1, from[0]), at + ": carries that model's noise");
        continue;
      }
      assertEquals(round, e.round(), at + ": rounds in order, none skipped");
      if (e.kind() == LedgerEntry.Kind.UPDATE) {
        if (updates.isEmpty()) {
          models.add(new double[] {present, total});
        }
        assertEquals(perRound, e.samplesNew(), at);
        assertEquals(total + perRound, e.samplesTotal(), at + ": starts from the last aggregate");
        assertEquals(present, e.presentBefore(), TOL * Math.max(1, present), at + ": carries the global model's noise");
        double required = p.requiredVariance(total + perRound, 1.0);
        assertEquals(required, e.requiredVariance(), TOL * required, at);
        assertEquals(Math.max(present, required), e.presentAfter(), TOL * required, at + ": present after");
        assertTrue(updates.stream().noneMatch(u -> u.peer().equals(e.peer())), at + ": one update per client and round");
        updates.add(e);
        updateHashes.add(line.hash());
      } else {
        int k = updates.size();
        assertTrue(k >= 1, at + ": an aggregate of nothing");
        assertEquals(updateHashes, e.contributors(), at + ": averages exactly this round's updates");
        double sum = 0;
        long absorbed = total;
        for (LedgerEntry u : updates) {
          sum += u.presentAfter();
          absorbed += u.samplesTotal() - total;
        }
        double before = sum / ((double) k * k);
        assertEquals(before, e.presentBefore(), TOL * before, at + ": Σ present / k²");
        assertEquals(absorbed, e.samplesTotal(), at + ": samples of the contributors");
        double required = p.requiredVariance(absorbed, 1.0 / k);
        assertEquals(required, e.requiredVariance(), TOL * required, at);
        assertEquals(Math.max(before, required), e.presentAfter(), TOL * Math.max(before, required), at);
        present = e.presentAfter();
        total = absorbed;
        contributors.add(k);
        updates.clear();
        updateHashes.clear();
        round++;
      }
    }
    assertTrue(updates.isEmpty(), context + ": updates after the last aggregate");
    assertEquals(s.rounds(), contributors.size(), context + ": one aggregate per round");
    return contributors;
  }
}
