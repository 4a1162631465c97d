package io.hdfl.run;

import io.hdfl.hd.Evaluation;
import java.nio.file.Path;
import java.util.List;

/** What a federated run produced: per-round rows, the final evaluation, wall time and the run folder. */
public record RunResult(List<RoundRow> rounds, Evaluation finalEvaluation, double wallSeconds, Path out,
    String energyReason, long ledgerEntries, long perRound) {
  /** The final model's file in the run folder. */
  public Path modelFile() {
    return new RunFolder(out).modelFile();
  }

  /** The signed privacy ledger in the run folder. */
  public Path ledgerFile() {
    return new RunFolder(out).ledgerFile();
  }
}
