package io.hdfl.privacy.schedule;

import io.hdfl.privacy.PrivacyParameters;
import java.util.ArrayList;
import java.util.List;

/**
 * The noise a whole federated run adds, row by row, as laid out by the {@link IncrementalAccountant}
 * (or, for the baselines, without it). Iterating computes the rows lazily, so a long schedule needs
 * no memory; {@link #rows()} collects them.
 */
public interface NoiseSchedule extends Iterable<ScheduleRow> {
  /** Most rows a schedule may have. */
  long MAX_ROWS = 10_000_000;

  ScheduleMode mode();

  /** D, ε and δ0 (δ0 = 1 for fedhdp). */
  PrivacyParameters parameters();

  /** Peers of the ring or clients of the star, K. */
  int peers();

  /** Samples per peer per step (ring, N) or per client per round (star, L). */
  long samplesPerUpdate();

  int rounds();

  /** Rows: K·R for a ring, R for a star. */
  long rowCount();

  /** One line naming the schedule and its parameters. */
  String description();

  /** All rows, in order. */
  default List<ScheduleRow> rows() {
    List<ScheduleRow> rows = new ArrayList<>((int) Math.min(rowCount(), 1 << 16));
    for (ScheduleRow r : this) {
      rows.add(r);
    }
    return rows;
  }
}
