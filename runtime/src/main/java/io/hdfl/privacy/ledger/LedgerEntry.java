package io.hdfl.privacy.ledger;

import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * One entry of the privacy ledger: the numbers of one noise decision on one model, who made it and
 * where it sits in the chain. Field meanings (JSON names in brackets, in the order they are written):
 *
 * <ul>
 *   <li>{@code version} [{@code v}]: line format version, {@value #FORMAT_VERSION};
 *   <li>{@code federation}, {@code peer}: who; the peer id also names its public key file
 *       {@code <peer>.pub}, so it is restricted to {@code [A-Za-z0-9][A-Za-z0-9._-]{0,63}};
 *   <li>{@code kind}: {@code update} (a peer or client trained the model and noised it) or
 *       {@code aggregate} (a server averaged K client models, possibly adding noise);
 *   <li>{@code topology}: {@code ring} (the model passes from peer to peer) or {@code star}
 *       (clients and a server); it decides which lineage rule the verifier applies;
 *   <li>{@code round}, {@code step}: where in the protocol (step strictly increases along the ledger);
 *   <li>{@code samplesNew} [{@code samples_new}]: samples this update absorbed (a ring update counts
 *       every sample its peer trained on, as retraining revisits them each round); {@code samplesTotal}
 *       [{@code samples_total}]: samples the model has absorbed in all;
 *   <li>{@code samplesBundled} [{@code samples_bundled}]: on a ring update after round 1, the samples
 *       that entered the model at this step by bundling (live windows that arrived since the peer's
 *       previous turn, or the data of a peer that bundled at this turn after a restart); written only
 *       when not zero, so every other line reads as before; see {@link #bundledSamples()};
 *   <li>{@code sensitivityScale} [{@code sensitivity_scale}]: s, sensitivity s·√D (1 for an update,
 *       1/K for an aggregate of K models);
 *   <li>{@code requiredVariance}, {@code presentBefore}, {@code addedVariance}, {@code presentAfter}
 *       [{@code variance_required}, {@code variance_present_before}, {@code variance_added},
 *       {@code variance_present_after}]: per coordinate, in model units;
 *   <li>{@code epsilon}, {@code delta0}, {@code dim}: ε, δ0 and D of {@link io.hdfl.privacy.PrivacyParameters};
 *   <li>{@code schedule}: {@code privatedfl}, {@code fedhdp}, {@code blackbox} or {@code none};
 *   <li>{@code source} [{@code noise_source}] and {@code notForDeployment} [{@code not_for_deployment}]:
 *       {@code secure} or {@code seeded}; seeded entries carry {@code not_for_deployment: true};
 *   <li>{@code contributors}: for an aggregate, the hashes (see {@link LedgerLine#hash()}) of the
 *       client entries it averaged; empty for an update;
 *   <li>{@code late}: for a star aggregate, the hashes of the client updates recorded since the
 *       previous aggregate that reached the server after their round was averaged (noised and sent,
 *       in no average); written only when not empty, so every other line reads as before;
 *   <li>{@code reason}: a short free text, informational;
 *   <li>{@code prevHash} [{@code prev_hash}]: SHA-256 (hex) of the previous entry's line, 64 zeros for
 *       the first entry;
 *   <li>{@code timestamp}: ISO-8601 UTC, informational (peers' clocks differ, so it is not checked
 *       for order);
 *   <li>{@code signature} [{@code sig}]: Ed25519 by the peer, base64; {@code null} in an entry not yet signed.
 * </ul>
 *
 * <p>An entry is a plain value; its canonical bytes are produced once by {@link LedgerCodec} and kept
 * in a {@link LedgerLine}, which is what hashes and signatures cover.
 */
public record LedgerEntry(
    int version,
    String federation,
    String peer,
    Kind kind,
    Topology topology,
    int round,
    long step,
    long samplesNew,
    long samplesTotal,
    long samplesBundled,
    double sensitivityScale,
    double requiredVariance,
    double presentBefore,
    double addedVariance,
    double presentAfter,
    double epsilon,
    double delta0,
    int dim,
    Schedule schedule,
    Source source,
    boolean notForDeployment,
    List<String> contributors,
    List<String> late,
    String reason,
    String prevHash,
    String timestamp,
    String signature) {

  /** The line format this code writes and reads. */
  public static final int FORMAT_VERSION = 1;
  /** prev_hash of the first entry. */
  public static final String GENESIS_HASH = "0".repeat(64);
  /** Longest reason text. */
  public static final int MAX_REASON = 200;
  /** Most contributors of one aggregate (keeps a line under {@link LedgerReader#MAX_LINE_BYTES}). */
  public static final int MAX_CONTRIBUTORS = 900;

  /** Longest peer or federation id. */
  static final int MAX_ID = 64;
  /** What a peer or federation id must match ({@link #isValidId} checks it without a matcher). */
  public static final Pattern ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0," + (MAX_ID - 1) + "}");

  public LedgerEntry {
    contributors = List.copyOf(contributors);
    late = List.copyOf(late);
  }

  /** An entry without {@code samples_bundled} (every star entry; every ring entry of round 1). */
  public LedgerEntry(int version, String federation, String peer, Kind kind, Topology topology, int round, long step,
      long samplesNew, long samplesTotal, double sensitivityScale, double requiredVariance, double presentBefore,
      double addedVariance, double presentAfter, double epsilon, double delta0, int dim, Schedule schedule,
      Source source, boolean notForDeployment, List<String> contributors, List<String> late, String reason,
      String prevHash, String timestamp, String signature) {
    this(version, federation, peer, kind, topology, round, step, samplesNew, samplesTotal, 0, sensitivityScale,
        requiredVariance, presentBefore, addedVariance, presentAfter, epsilon, delta0, dim, schedule, source,
        notForDeployment, contributors, late, reason, prevHash, timestamp, signature);
  }

  /** An entry that names no late update (every update, and most aggregates). */
  public LedgerEntry(int version, String federation, String peer, Kind kind, Topology topology, int round, long step,
      long samplesNew, long samplesTotal, double sensitivityScale, double requiredVariance, double presentBefore,
      double addedVariance, double presentAfter, double epsilon, double delta0, int dim, Schedule schedule,
      Source source, boolean notForDeployment, List<String> contributors, String reason, String prevHash,
      String timestamp, String signature) {
    this(version, federation, peer, kind, topology, round, step, samplesNew, samplesTotal, 0, sensitivityScale,
        requiredVariance, presentBefore, addedVariance, presentAfter, epsilon, delta0, dim, schedule, source,
        notForDeployment, contributors, List.of(), reason, prevHash, timestamp, signature);
  }

  /**
   * Samples that entered the model at this entry by bundling: none for an aggregate; for a ring update
   * after round 1, {@code samples_bundled} (0 when not written); otherwise every sample it counts (a
   * ring peer bundles its data in round 1, a star client the samples new to its update).
   */
  public long bundledSamples() {
    if (kind == Kind.AGGREGATE) {
      return 0;
    }
    return recordsBundled(kind, topology, round) ? samplesBundled : samplesNew;
  }

  /**
   * Whether an entry of this kind, topology and round says what it bundled in {@code samples_bundled}:
   * only a ring update after round 1 (in round 1 a ring peer bundles all it counts).
   */
  static boolean recordsBundled(Kind kind, Topology topology, int round) {
    return kind == Kind.UPDATE && topology == Topology.RING && round > 1;
  }

  /**
   * Whether {@code h} is a SHA-256 hash as the ledger writes one: 64 lower-case hex digits. (A loop,
   * not a regular expression: a ring peer checks the K lines that travel with every model.)
   */
  public static boolean isHash(String h) {
    if (h == null || h.length() != 64) {
      return false;
    }
    for (int i = 0; i < 64; i++) {
      char c = h.charAt(i);
      if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether {@code id} may be used as a peer or federation id: whether it matches {@link #ID}. (A
   * loop, not the pattern's matcher: every ring hop checks two ids when it signs, and the matcher's
   * code was among the largest the JIT compiled while a ring ran.)
   */
  public static boolean isValidId(String id) {
    if (id == null || id.isEmpty() || id.length() > MAX_ID || !isAsciiAlnum(id.charAt(0))) {
      return false;
    }
    for (int i = 1; i < id.length(); i++) {
      char c = id.charAt(i);
      if (!(isAsciiAlnum(c) || c == '.' || c == '_' || c == '-')) {
        return false;
      }
    }
    return true;
  }

  private static boolean isAsciiAlnum(char c) {
    return c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z';
  }

  /**
   * The same numbers without the names an aggregate carries (contributors, late updates), the reason
   * and the signature: what a check keeps of many aggregates (one of 900 contributors is some 60 KB).
   */
  LedgerEntry numbersOnly() {
    return new LedgerEntry(version, federation, peer, kind, topology, round, step, samplesNew, samplesTotal,
        samplesBundled, sensitivityScale, requiredVariance, presentBefore, addedVariance, presentAfter, epsilon, delta0,
        dim, schedule, source, notForDeployment, List.of(), List.of(), "", prevHash, timestamp, null);
  }

  /** The same entry with its signature set. */
  LedgerEntry withSignature(String sig) {
    return new LedgerEntry(version, federation, peer, kind, topology, round, step, samplesNew, samplesTotal,
        samplesBundled, sensitivityScale, requiredVariance, presentBefore, addedVariance, presentAfter, epsilon, delta0, dim,
        schedule, source, notForDeployment, contributors, late, reason, prevHash, timestamp, sig);
  }

  /** What an entry records. */
  public enum Kind {
    /** A peer or client trained the model and added noise to it. */
    UPDATE,
    /** A server averaged K client models, possibly adding noise. */
    AGGREGATE;

    public String wire() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** How the model travels between entries. */
  public enum Topology {
    /** PrivateDFL: the model passes from peer to peer; each update starts from the previous one. */
    RING,
    /** FedHDPrivacy: clients start from the last aggregate; a server averages them. */
    STAR;

    public String wire() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** The noise schedule the entry claims to follow. */
  public enum Schedule {
    /** Incremental rule (add required minus present), PrivateDFL's ring. */
    PRIVATEDFL,
    /** Incremental rule, FedHDPrivacy's star. */
    FEDHDP,
    /** Baseline that cannot see earlier noise and re-adds the full requirement every time. */
    BLACKBOX,
    /** No noise at all: every variance is zero. */
    NONE;

    public String wire() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** Where the noise came from. */
  public enum Source {
    /** CSPRNG with a sampler that resists floating-point attacks. */
    SECURE,
    /** Reproducible pseudo-random noise for simulations; not for deployment. */
    SEEDED;

    public String wire() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** Parses a lower-case wire name of one of the enums above; null if it is not one. */
  static <E extends Enum<E>> E fromWire(Class<E> type, String wire) {
    for (E e : type.getEnumConstants()) {
      if (e.name().toLowerCase(Locale.ROOT).equals(wire)) {
        return e;
      }
    }
    return null;
  }
}
