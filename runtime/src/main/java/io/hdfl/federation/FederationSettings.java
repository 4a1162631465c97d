package io.hdfl.federation;

import io.hdfl.security.HopAead;

import io.hdfl.hd.EncoderSpec;
import io.hdfl.hd.Similarity;
import io.hdfl.privacy.PrivacyParameters;
import io.hdfl.privacy.ledger.LedgerEntry;
import io.hdfl.privacy.ledger.LedgerSettings;
import io.hdfl.privacy.schedule.ScheduleMode;
import java.time.Duration;
import java.util.Objects;

/**
 * What every peer of a federation agrees on. Build with {@link #builder()}.
 *
 * @param federation federation id (topic prefix, ledger field)
 * @param topology ring (PrivateDFL) or star (FedHDPrivacy)
 * @param privacy noise schedule
 * @param params D, ε, δ0 (δ0 = 1 for fedhdp: δ = 1/samples)
 * @param encoder encoder kind, features, D and basis seed
 * @param similarity scoring used by retraining
 * @param rounds R
 * @param retrainEpochs perceptron passes over the local data per round (E)
 * @param perRound star: new samples per client per round (L)
 * @param ackTimeout ring: how long a peer waits for the next peer's acknowledgement before skipping it
 * @param roundDeadline star: how long the aggregator waits for updates once it has a quorum
 * @param quorum star: updates needed to aggregate (0 = all clients)
 * @param seed seed of shuffling and of {@code seeded} noise
 * @param maxPacketBytes the broker's largest payload; larger model frames are chunked (0 = no limit)
 * @param encryption the cipher of end-to-end encrypted hops (ring models and acks, star updates), or
 *     null for unencrypted hops; every peer of a federation must agree (a peer refuses the other kind)
 */
public record FederationSettings(
    String federation,
    Topology topology,
    ScheduleMode privacy,
    PrivacyParameters params,
    EncoderSpec encoder,
    Similarity similarity,
    int rounds,
    int retrainEpochs,
    long perRound,
    Duration ackTimeout,
    Duration roundDeadline,
    int quorum,
    long seed,
    int maxPacketBytes,
    HopAead encryption) {

  public FederationSettings {
    Objects.requireNonNull(topology, "topology");
    Objects.requireNonNull(privacy, "privacy");
    Objects.requireNonNull(params, "params");
    Objects.requireNonNull(encoder, "encoder");
    Objects.requireNonNull(similarity, "similarity");
    if (!LedgerEntry.isValidId(federation)) {
      throw new IllegalArgumentException("federation id must match " + LedgerEntry.ID + ", got '" + federation + "'");
    }
    if (params.dim() != encoder.dim()) {
      throw new IllegalArgumentException("privacy D=" + params.dim() + " but encoder D=" + encoder.dim());
    }
    if (rounds < 1) {
      throw new IllegalArgumentException("--rounds must be >= 1, got " + rounds);
    }
    if (retrainEpochs < 0) {
      throw new IllegalArgumentException("--epochs must be >= 0, got " + retrainEpochs);
    }
    if (topology == Topology.STAR && perRound < 1) {
      throw new IllegalArgumentException("--per-round must be >= 1 for a star, got " + perRound);
    }
    if (topology == Topology.STAR && privacy == ScheduleMode.PRIVATEDFL) {
      throw new IllegalArgumentException("--privacy privatedfl is the ring's schedule; a star uses fedhdp");
    }
    if (topology == Topology.RING && privacy == ScheduleMode.FEDHDP) {
      throw new IllegalArgumentException("--privacy fedhdp is the star's schedule; a ring uses privatedfl");
    }
    FrameChannel.checkMaxPacket(maxPacketBytes); // checked here, before a run connects anything
    if (quorum < 0) {
      throw new IllegalArgumentException("--quorum must be >= 0, got " + quorum);
    }
  }

  /** These settings with the encoder bound to {@code features} input features (what the data has). */
  public FederationSettings withFeatures(int features) {
    EncoderSpec e = encoder;
    return new FederationSettings(federation, topology, privacy, params,
        new EncoderSpec(e.kind(), features, e.dim(), e.basisSeed()), similarity, rounds, retrainEpochs, perRound,
        ackTimeout, roundDeadline, quorum, seed, maxPacketBytes, encryption);
  }

  /** These settings with {@code perRound} new samples per client per round (star). */
  public FederationSettings withPerRound(long perRound) {
    return new FederationSettings(federation, topology, privacy, params, encoder, similarity, rounds, retrainEpochs,
        perRound, ackTimeout, roundDeadline, quorum, seed, maxPacketBytes, encryption);
  }

  /** The ledger settings peers sign under. */
  public LedgerSettings ledgerSettings() {
    LedgerEntry.Schedule schedule = switch (privacy) {
      case PRIVATEDFL -> LedgerEntry.Schedule.PRIVATEDFL;
      case FEDHDP -> LedgerEntry.Schedule.FEDHDP;
      case BLACKBOX -> LedgerEntry.Schedule.BLACKBOX;
      case NONE -> LedgerEntry.Schedule.NONE;
    };
    return new LedgerSettings(federation, topology == Topology.RING ? LedgerEntry.Topology.RING
        : LedgerEntry.Topology.STAR, schedule, params);
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Builder with defaults: ring, privatedfl, 5 rounds, 1 retraining epoch, seed 42. */
  public static final class Builder {
    private String federation = "demo";
    private Topology topology = Topology.RING;
    private ScheduleMode privacy = ScheduleMode.PRIVATEDFL;
    private PrivacyParameters params;
    private EncoderSpec encoder;
    private Similarity similarity = Similarity.COSINE;
    private int rounds = 5;
    private int retrainEpochs = 1;
    private long perRound = 100;
    private Duration ackTimeout = Duration.ofSeconds(10);
    private Duration roundDeadline = Duration.ofSeconds(30);
    private int quorum;
    private long seed = 42;
    private int maxPacketBytes;
    private HopAead encryption;

    public Builder federation(String v) {
      federation = v;
      return this;
    }

    public Builder topology(Topology v) {
      topology = v;
      return this;
    }

    public Builder privacy(ScheduleMode v) {
      privacy = v;
      return this;
    }

    public Builder params(PrivacyParameters v) {
      params = v;
      return this;
    }

    public Builder encoder(EncoderSpec v) {
      encoder = v;
      return this;
    }

    public Builder similarity(Similarity v) {
      similarity = v;
      return this;
    }

    public Builder rounds(int v) {
      rounds = v;
      return this;
    }

    public Builder retrainEpochs(int v) {
      retrainEpochs = v;
      return this;
    }

    public Builder perRound(long v) {
      perRound = v;
      return this;
    }

    public Builder ackTimeout(Duration v) {
      ackTimeout = v;
      return this;
    }

    public Builder roundDeadline(Duration v) {
      roundDeadline = v;
      return this;
    }

    public Builder quorum(int v) {
      quorum = v;
      return this;
    }

    public Builder seed(long v) {
      seed = v;
      return this;
    }

    /** The cipher of end-to-end encrypted hops; null (the default) for unencrypted hops. */
    public Builder encryption(HopAead v) {
      encryption = v;
      return this;
    }

    public Builder maxPacketBytes(int v) {
      maxPacketBytes = v;
      return this;
    }

    public FederationSettings build() {
      return new FederationSettings(federation, topology, privacy, params, encoder, similarity, rounds,
          retrainEpochs, perRound, ackTimeout, roundDeadline, quorum, seed, maxPacketBytes, encryption);
    }
  }
}
