package io.hdfl.privacy.ledger;

import io.hdfl.privacy.PrivacyParameters;
import io.hdfl.privacy.ledger.LedgerEntry.Schedule;
import io.hdfl.privacy.ledger.LedgerEntry.Source;
import io.hdfl.privacy.ledger.LedgerEntry.Topology;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Builds the ledger a correct run would write, with the noise numbers computed directly from
 * {@link PrivacyParameters} by the rule every schedule instantiates (add the required variance minus
 * the variance already present; blackbox re-adds the full requirement; none adds nothing):
 *
 * <pre>{@code
 * LedgerSimulation.Result r = LedgerSimulation.ring(params).peers(10).rounds(30).samplesPerPeer(120).build();
 * LedgerSimulation.Result s = LedgerSimulation.star(params).peers(5).rounds(10).samplesPerPeer(60).build();
 * r.writeTo(dir.resolve("ledger.jsonl"), dir.resolve("keys"));
 * }</pre>
 *
 * <p>Ring: peers {@code peer-001…} take turns, global step t = K(r−1)+k, each absorbing its shard per
 * visit. Star: clients {@code client-001…} start every round from the last aggregate and absorb their
 * shard; the {@code server} averages the round's clients (1/K sensitivity); steps number the entries
 * 1, 2, 3, … in ledger order. {@link Builder#skip} leaves
 * a peer out of a round; {@link Builder#late} makes a star client's update of a round reach the server
 * after it averaged the round (recorded after the round's aggregate, in no average). Used by tests and by simulations; not an accountant for real runs.
 */
public final class LedgerSimulation {
  private LedgerSimulation() {}

  /** A PrivateDFL-style ring (default schedule privatedfl). */
  public static Builder ring(PrivacyParameters params) {
    return new Builder(Topology.RING, params, Schedule.PRIVATEDFL);
  }

  /** A FedHDPrivacy-style star (default schedule fedhdp). */
  public static Builder star(PrivacyParameters params) {
    return new Builder(Topology.STAR, params, Schedule.FEDHDP);
  }

  /** The ledger and every signer's keys. */
  public record Result(PrivacyLedger ledger, Map<String, PeerKeys> keys) {
    /** Writes the ledger (atomically) and publishes every peer's public key into {@code keysDir}. */
    public void writeTo(Path ledgerFile, Path keysDir) throws IOException {
      ledger.writeTo(ledgerFile);
      for (PeerKeys k : keys.values()) {
        k.publish(keysDir);
      }
    }
  }

  /** Configures one simulated run. */
  public static final class Builder {
    private final Topology topology;
    private final PrivacyParameters params;
    private Schedule schedule;
    private String federation = "sim";
    private Source source = Source.SEEDED;
    private int peers = 3;
    private int rounds = 2;
    private long[] shards;
    private long samplesPerPeer = 100;
    private final Set<Long> skipped = new HashSet<>();
    private final Set<Long> late = new HashSet<>();
    private Clock clock = Clock.systemUTC();
    private final Map<String, PeerKeys> keys = new LinkedHashMap<>();

    private Builder(Topology topology, PrivacyParameters params, Schedule schedule) {
      this.topology = topology;
      this.params = Objects.requireNonNull(params, "params");
      this.schedule = schedule;
    }

    public Builder schedule(Schedule s) {
      this.schedule = Objects.requireNonNull(s);
      return this;
    }

    public Builder federation(String id) {
      this.federation = id;
      return this;
    }

    /** Noise source recorded in every entry (default seeded). */
    public Builder source(Source s) {
      this.source = Objects.requireNonNull(s);
      return this;
    }

    /** K: ring peers or star clients (default 3). */
    public Builder peers(int k) {
      if (k < 1) {
        throw new IllegalArgumentException("peers must be >= 1, got " + k);
      }
      this.peers = k;
      return this;
    }

    /** R rounds (default 2). */
    public Builder rounds(int r) {
      if (r < 1) {
        throw new IllegalArgumentException("rounds must be >= 1, got " + r);
      }
      this.rounds = r;
      return this;
    }

    /** Equal shards: N (ring) or L (star) samples absorbed by each peer per round (default 100). */
    public Builder samplesPerPeer(long n) {
      if (n < 1) {
        throw new IllegalArgumentException("samples per peer must be >= 1, got " + n);
      }
      this.samplesPerPeer = n;
      this.shards = null;
      return this;
    }

    /** Unequal shards: samples absorbed per round by peer 1, 2, …; sets K to their count. */
    public Builder shards(long... perPeer) {
      for (long n : perPeer) {
        if (n < 1) {
          throw new IllegalArgumentException("every shard must hold >= 1 sample, got " + Arrays.toString(perPeer));
        }
      }
      this.shards = perPeer.clone();
      this.peers = perPeer.length;
      return this;
    }

    /** Leaves peer {@code peer} (1-based) out of round {@code round}. */
    public Builder skip(int peer, int round) {
      skipped.add(((long) peer << 32) | round);
      return this;
    }

    /**
     * Star: client {@code peer} (1-based) updates in round {@code round}, but the server receives its
     * update after averaging the round: it is recorded right after the round's aggregate, averaged in
     * no round, and named by the next aggregate (so not in the last round, after which the server
     * records nothing).
     */
    public Builder late(int peer, int round) {
      late.add(((long) peer << 32) | round);
      return this;
    }

    public Builder clock(Clock c) {
      this.clock = Objects.requireNonNull(c);
      return this;
    }

    /** Signs with these keys where the id matches instead of generating new ones. */
    public Builder keys(Map<String, PeerKeys> existing) {
      keys.putAll(existing);
      return this;
    }

    /** Runs the simulation. */
    public Result build() {
      try {
        PrivacyLedger ledger = PrivacyLedger.builder(new LedgerSettings(federation, topology, schedule, params))
            .clock(clock).open();
        if (topology == Topology.RING) {
          ring(ledger);
        } else {
          star(ledger);
        }
        return new Result(ledger, Map.copyOf(keys));
      } catch (IOException e) {
        throw new UncheckedIOException(e); // an in-memory ledger does no I/O
      }
    }

    private void ring(PrivacyLedger ledger) throws IOException {
      double present = 0;
      long total = 0;
      for (int r = 1; r <= rounds; r++) {
        for (int k = 1; k <= peers; k++) {
          if (skipped.contains(((long) k << 32) | r)) {
            continue;
          }
          long n = shard(k);
          long newTotal = total + n;
          double[] v = noise(newTotal, 1.0, present);
          String peer = String.format("peer-%03d", k);
          long step = (long) peers * (r - 1) + k;
          ledger.append(signer(peer), NoiseRecord.update(peer, r, step, n, newTotal, v[0], present, v[1], v[2],
              source, "ring step " + step));
          present = v[2];
          total = newTotal;
        }
      }
    }

    private void star(PrivacyLedger ledger) throws IOException {
      for (long key : late) {
        if ((int) key >= rounds) {
          throw new IllegalArgumentException("a late update of round " + (int) key + " would be named by no aggregate: "
              + "the next aggregate names the late updates recorded since the last, and the run has " + rounds + " rounds");
        }
      }
      double base = 0;
      long baseTotal = 0;
      long step = 0;
      List<String> recordedLate = new ArrayList<>(); // since the last aggregate: the next one names them
      for (int r = 1; r <= rounds; r++) {
        List<String> contributors = new ArrayList<>();
        List<String> lateBefore = recordedLate;
        recordedLate = new ArrayList<>();
        List<LedgerLine> arriveLate = new ArrayList<>();
        double sumAfter = 0;
        long absorbed = 0;
        for (int k = 1; k <= peers; k++) {
          if (skipped.contains(((long) k << 32) | r)) {
            continue;
          }
          long n = shard(k);
          double[] v = noise(baseTotal + n, 1.0, base);
          String client = String.format("client-%03d", k);
          // Star steps are the round: clients sign independently and share it.
          NoiseRecord update = NoiseRecord.update(client, r, r, n, baseTotal + n, v[0], base, v[1], v[2], source,
              "client update from aggregate " + (r - 1));
          if (late.contains(((long) k << 32) | r)) {
            arriveLate.add(ledger.sign(signer(client), update, ledger.chainTargetFor(LedgerEntry.Kind.UPDATE, r)));
            continue;
          }
          LedgerLine line = ledger.append(signer(client), update);
          contributors.add(line.hash());
          sumAfter += v[2];
          absorbed += n;
        }
        if (contributors.isEmpty()) {
          recordedLate = lateBefore; // no aggregate this round: the next one names them
          continue;
        }
        int kr = contributors.size();
        double before = sumAfter / ((double) kr * kr);
        long total = baseTotal + absorbed;
        double[] v = noise(total, 1.0 / kr, before);
        ledger.append(signer("server"), NoiseRecord.aggregate("server", r, r, absorbed, total, v[0], before,
            v[1], v[2], source, contributors, lateBefore, "average of " + kr + " clients"));
        for (LedgerLine l : arriveLate) {
          recordedLate.add(ledger.appendLine(l).hash());
        }
        base = v[2];
        baseTotal = total;
      }
    }

    /** {required, added, present after} for a model of {@code total} samples holding {@code present}. */
    private double[] noise(long total, double s, double present) {
      switch (schedule) {
        case NONE:
          return new double[] {0, 0, 0};
        case BLACKBOX: {
          double required = params.requiredVariance(total, s);
          return new double[] {required, required, present + required};
        }
        default: {
          double required = params.requiredVariance(total, s);
          double added = Math.max(0, required - present);
          return new double[] {required, added, present + added};
        }
      }
    }

    private long shard(int k) {
      return shards != null ? shards[k - 1] : samplesPerPeer;
    }

    private PeerKeys signer(String id) {
      return keys.computeIfAbsent(id, PeerKeys::generate);
    }
  }
}
