package io.hdfl.privacy.ledger;

import io.hdfl.privacy.PrivacyParameters;
import io.hdfl.privacy.ledger.LedgerEntry.Schedule;
import io.hdfl.privacy.ledger.LedgerEntry.Topology;
import java.util.Objects;

/**
 * What every entry of one ledger shares: the federation, its topology and schedule, and ε, δ0, D.
 * The verifier rejects a ledger whose entries disagree on any of them.
 */
public record LedgerSettings(String federation, Topology topology, Schedule schedule, PrivacyParameters params) {
  public LedgerSettings {
    if (!LedgerEntry.isValidId(federation)) {
      throw new IllegalArgumentException("federation id must match " + LedgerEntry.ID + ", got '" + federation + "'");
    }
    Objects.requireNonNull(topology, "topology");
    Objects.requireNonNull(schedule, "schedule");
    Objects.requireNonNull(params, "params");
  }

  /** Whether {@code e} was written under these settings. */
  public boolean matches(LedgerEntry e) {
    return federation.equals(e.federation()) && topology == e.topology() && schedule == e.schedule()
        && params.dim() == e.dim() && Double.compare(params.epsilon(), e.epsilon()) == 0
        && Double.compare(params.delta0(), e.delta0()) == 0;
  }
}
