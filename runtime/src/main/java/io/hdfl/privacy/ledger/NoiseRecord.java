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
 */
public record NoiseRecord(
    Kind kind,
    String peer,
    int round,
    long step,
    long samplesNew,
    long samplesTotal,
    double sensitivityScale,
    double requiredVariance,
    double presentBefore,
    double addedVariance,
    double presentAfter,
    Source source,
    List<String> contributors,
    String reason) {

  public NoiseRecord {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(source, "source");
    contributors = List.copyOf(contributors);
    reason = reason == null ? "" : reason;
  }

  /** A peer's or client's update: sensitivity scale 1, no contributors. */
  public static NoiseRecord update(String peer, int round, long step, long samplesNew, long samplesTotal,
      double required, double presentBefore, double added, double presentAfter, Source source, String reason) {
    return new NoiseRecord(Kind.UPDATE, peer, round, step, samplesNew, samplesTotal, 1.0, required, presentBefore,
        added, presentAfter, source, List.of(), reason);
  }

  /** A server's average of {@code contributors.size()} = K client models: sensitivity scale 1/K. */
  public static NoiseRecord aggregate(String peer, int round, long step, long samplesNew, long samplesTotal,
      double required, double presentBefore, double added, double presentAfter, Source source,
      List<String> contributors, String reason) {
    if (contributors.isEmpty()) {
      throw new IllegalArgumentException("an aggregate needs at least one contributor");
    }
    return new NoiseRecord(Kind.AGGREGATE, peer, round, step, samplesNew, samplesTotal, 1.0 / contributors.size(),
        required, presentBefore, added, presentAfter, source, contributors, reason);
  }
}
