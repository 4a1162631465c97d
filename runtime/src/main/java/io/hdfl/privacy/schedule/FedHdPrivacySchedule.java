package io.hdfl.privacy.schedule;

import io.hdfl.privacy.PrivacyParameters;
import java.util.Collections;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Objects;

/**
 * FedHDPrivacy's star schedule (DESIGN §4): in round r each of K clients takes the global model
 * (absorbed (r−1)KL samples), trains on L new samples and adds the variance its {@link
 * IncrementalAccountant} decides (sensitivity √D, δ = 1/samples); the server averages the K models
 * ({@link ModelNoiseState#average}) and checks the average against its own requirement (sensitivity
 * √D/K), adding the difference when the variance present falls short.
 *
 * <p>While the server never has to add (γ > 1 in every earlier round, true for K ≥ 2 and all but tiny
 * L) the rows equal the paper's closed forms, given by the static methods: client Γ_k^1 = c·ln(1.25L),
 * Γ_k^r = (c/K)[K·ln(1.25(r−1)KL+1.25L) − ln(1.25(r−2)KL+1.25L)]; server ξ_g^r = (c/K²)·ln(1.25KLr),
 * Ψ_g^r = (c/K)·ln(1.25(r−1)KL+1.25L), γ = Ψ_g/ξ_g. Outside that range (for example L = 1) the
 * server adds ξ_g − Ψ_g, the row records it, and later rounds follow the accountant, not the closed
 * forms. With K = 1 the average is the client's model and γ = 1 exactly: nothing to add.
 */
public final class FedHdPrivacySchedule implements NoiseSchedule {
  private final PrivacyParameters params;
  private final int clients;
  private final long samplesPerRound;
  private final int rounds;

  private FedHdPrivacySchedule(PrivacyParameters params, int clients, long samplesPerRound, int rounds) {
    this.params = params;
    this.clients = clients;
    this.samplesPerRound = samplesPerRound;
    this.rounds = rounds;
  }

  /**
   * @param params D and ε with δ0 = 1 ({@link PrivacyParameters#perSampleDelta})
   * @param clients K ≥ 1
   * @param samplesPerRound L ≥ 1, new samples per client per round
   * @param rounds R ≥ 1
   */
  public static FedHdPrivacySchedule of(PrivacyParameters params, int clients, long samplesPerRound, int rounds) {
    Objects.requireNonNull(params, "params");
    if (params.delta0() != 1) {
      throw new IllegalArgumentException("fedhdp uses δ = 1/samples (δ0 = 1), got δ0 = " + params.delta0()
          + "; build its parameters with PrivacyParameters.perSampleDelta");
    }
    if (clients < 1) {
      throw new IllegalArgumentException("--peers (K, clients) must be >= 1, got " + clients);
    }
    if (samplesPerRound < 1) {
      throw new IllegalArgumentException("--per-round (L, samples per client per round) must be >= 1, got "
          + samplesPerRound);
    }
    if (rounds < 1) {
      throw new IllegalArgumentException("--rounds (R) must be >= 1, got " + rounds);
    }
    if (rounds > MAX_ROWS) {
      throw new IllegalArgumentException("--rounds " + rounds + " is more than the " + MAX_ROWS
          + " rows a schedule can lay out");
    }
    if (samplesPerRound > RingShape.MAX_SAMPLES / ((long) clients * rounds)) {
      throw new IllegalArgumentException("--per-round x --peers x --rounds is more than 2^53 samples");
    }
    return new FedHdPrivacySchedule(params, clients, samplesPerRound, rounds);
  }

  /** Closed form Γ_k^r: variance a client adds in round r (while the server has never added). */
  public static double clientAdded(PrivacyParameters p, int clients, long samplesPerRound, int round) {
    requireRound(round);
    double c = p.c();
    double kl = (double) clients * samplesPerRound;
    if (round == 1) {
      return c * Math.log(1.25 * samplesPerRound);
    }
    return c / clients * (clients * Math.log(1.25 * (round - 1) * kl + 1.25 * samplesPerRound)
        - Math.log(1.25 * (round - 2) * kl + 1.25 * samplesPerRound));
  }

  /** Closed form ξ_g^r = (c/K²)·ln(1.25KLr): variance the averaged model requires after round r. */
  public static double serverRequired(PrivacyParameters p, int clients, long samplesPerRound, int round) {
    requireRound(round);
    return p.c() / ((double) clients * clients) * Math.log(1.25 * clients * samplesPerRound * round);
  }

  /** Closed form Ψ_g^r = (c/K)·ln(1.25(r−1)KL+1.25L): variance present in the average after round r. */
  public static double serverPresent(PrivacyParameters p, int clients, long samplesPerRound, int round) {
    requireRound(round);
    return p.c() / clients * Math.log(1.25 * (round - 1) * clients * samplesPerRound + 1.25 * samplesPerRound);
  }

  /** Closed form γ = Ψ_g^r / ξ_g^r; above 1 the server adds nothing. */
  public static double gamma(PrivacyParameters p, int clients, long samplesPerRound, int round) {
    return serverPresent(p, clients, samplesPerRound, round) / serverRequired(p, clients, samplesPerRound, round);
  }

  /**
   * Closed form of the black-box baseline per client: a client that cannot see the global model's
   * noise re-adds its full requirement c·ln(1.25((i−1)KL+L)) in every round i, in total
   * c·Σ_{i=1..r} ln(1.25((i−1)KL+L)) = c·[r·ln(1.25KL) + ln Γ(r+1/K) − ln Γ(1/K)].
   */
  public static double blindClientCumulative(PrivacyParameters p, int clients, long samplesPerRound, int round) {
    requireRound(round);
    double k = clients;
    return p.c() * (round * Math.log(1.25 * k * samplesPerRound)
        + LogGamma.lnGamma(round + 1 / k) - LogGamma.lnGamma(1 / k));
  }

  private static void requireRound(int round) {
    if (round < 1) {
      throw new IllegalArgumentException("round must be >= 1, got " + round);
    }
  }

  @Override
  public Iterator<ScheduleRow> iterator() {
    return new Iterator<>() {
      private final IncrementalAccountant client = new IncrementalAccountant(params, 1.0);
      private final IncrementalAccountant server = new IncrementalAccountant(params, 1.0 / clients);
      private ModelNoiseState global = ModelNoiseState.EMPTY;
      private int round;

      @Override
      public boolean hasNext() {
        return round < rounds;
      }

      @Override
      public ScheduleRow next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        round++;
        long base = global.samplesAbsorbed();
        NoiseDecision local = client.decide(global, samplesPerRound);
        ModelNoiseState average = ModelNoiseState.average(base, Collections.nCopies(clients, local.after()));
        NoiseDecision aggregate = server.decide(average, 0);
        global = aggregate.after();
        double gamma = average.presentVariance() / aggregate.required();
        return new ScheduleRow(round, round, 1, average.samplesAbsorbed(), aggregate.required(),
            average.presentVariance(), local.added(), blindClientCumulative(params, clients, samplesPerRound, round),
            gamma, aggregate.added());
      }
    };
  }

  @Override
  public ScheduleMode mode() {
    return ScheduleMode.FEDHDP;
  }

  @Override
  public PrivacyParameters parameters() {
    return params;
  }

  @Override
  public int peers() {
    return clients;
  }

  @Override
  public long samplesPerUpdate() {
    return samplesPerRound;
  }

  @Override
  public int rounds() {
    return rounds;
  }

  @Override
  public long rowCount() {
    return rounds;
  }

  @Override
  public String description() {
    return String.format("fedhdp (star): K=%d clients, L=%d samples per client per round, R=%d rounds; %s",
        clients, samplesPerRound, rounds, RingShape.parameters(params, false));
  }
}
