package io.hdfl.privacy.ledger;

import io.hdfl.privacy.ledger.LedgerEntry.Kind;
import io.hdfl.privacy.ledger.LedgerEntry.Source;
import java.util.List;
import java.util.Objects;

/**
 * The numbers of one noise decision, as {@link PrivacyLedger#append} records them; the ledger adds
 * the settings, the chain, the timestamp and the signature. Variances are per coordinate.
 *
 * @param contributors for an aggregate, the {@link LedgerLine#hash() hashes} of the client entries
 *     it averaged; empty for an update
 * @param late for a star aggregate, the hashes of the client updates recorded since the previous
 *     aggregate that came after their round was averaged (in no average); empty otherwise
 * @param samplesBundled for an update, the samples that entered the model by bundling (a ring ledger
 *     records it after round 1, see {@link LedgerEntry#samplesBundled()})
 */
public record NoiseRecord(
    Kind kind,
    String peer,
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
    Source source,
    List<String> contributors,
    List<String> late,
    String reason) {

  public NoiseRecord {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(source, "source");
    contributors = List.copyOf(contributors);
    late = List.copyOf(late);
    reason = reason == null ? "" : reason;
    if (samplesBundled < 0 || samplesBundled > samplesNew && kind == Kind.UPDATE) {
      throw new IllegalArgumentException("bundled " + samplesBundled + " of " + samplesNew + " samples");
    }
  }

  /**
   * A peer's or client's update: sensitivity scale 1, no contributors; in round 1 every sample it
   * counts entered by bundling, after it none (a ring peer's retraining; see the overload below).
   */
  public static NoiseRecord update(String peer, int round, long step, long samplesNew, long samplesTotal,
      double required, double presentBefore, double added, double presentAfter, Source source, String reason) {
    return update(peer, round, step, samplesNew, samplesTotal, round == 1 ? samplesNew : 0, required, presentBefore,
        added, presentAfter, source, reason);
  }

  /** As above, of which {@code samplesBundled} samples entered the model by bundling at this update. */
  public static NoiseRecord update(String peer, int round, long step, long samplesNew, long samplesTotal,
      long samplesBundled, double required, double presentBefore, double added, double presentAfter, Source source,
      String reason) {
    return new NoiseRecord(Kind.UPDATE, peer, round, step, samplesNew, samplesTotal, samplesBundled, 1.0, required,
        presentBefore, added, presentAfter, source, List.of(), List.of(), reason);
  }

  /** A server's average of {@code contributors.size()} = K client models: sensitivity scale 1/K. */
  public static NoiseRecord aggregate(String peer, int round, long step, long samplesNew, long samplesTotal,
      double required, double presentBefore, double added, double presentAfter, Source source,
      List<String> contributors, String reason) {
    return aggregate(peer, round, step, samplesNew, samplesTotal, required, presentBefore, added, presentAfter, source,
        contributors, List.of(), reason);
  }

  /**
   * As {@link #aggregate(String, int, long, long, long, double, double, double, double, Source, List,
   * String)}, naming also the {@code late} client updates recorded since the previous aggregate.
   */
  public static NoiseRecord aggregate(String peer, int round, long step, long samplesNew, long samplesTotal,
      double required, double presentBefore, double added, double presentAfter, Source source,
      List<String> contributors, List<String> late, String reason) {
    if (contributors.isEmpty()) {
      throw new IllegalArgumentException("an aggregate needs at least one contributor");
    }
    return new NoiseRecord(Kind.AGGREGATE, peer, round, step, samplesNew, samplesTotal, 0, 1.0 / contributors.size(),
        required, presentBefore, added, presentAfter, source, contributors, late, reason);
  }
}
