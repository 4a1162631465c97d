package io.hdfl.privacy.composition;

import io.hdfl.privacy.PrivacyParameters;
import io.hdfl.privacy.schedule.NoiseSchedule;
import io.hdfl.privacy.schedule.ScheduleMode;
import io.hdfl.privacy.schedule.ScheduleRow;
import java.util.List;

/**
 * The honest composition report of a whole schedule: per observer, the guarantee a record keeps
 * across everything that observer sees, at the δ the papers attach to the final model (δ0 divided
 * by all samples absorbed, counted with repetition as the schedules count them).
 */
public final class ScheduleExposure {
  /** Largest ring (K·R steps) the report is computed for. */
  public static final long MAX_STEPS = 2_000_000;

  private ScheduleExposure() {}

  /** The report's δ for {@code schedule}. */
  public static double reportDelta(NoiseSchedule schedule) {
    PrivacyParameters p = schedule.parameters();
    double samples = (double) schedule.peers() * schedule.samplesPerUpdate() * schedule.rounds();
    return Math.min(0.5, p.delta0() / samples);
  }

  /**
   * Per-observer guarantees.
   *
   * @param retrainPassesPerRound perceptron passes a peer makes over its data per round (E)
   * @param wireEncrypted whether hop payloads are end-to-end encrypted
   */
  public static List<ObserverGuarantee> observers(NoiseSchedule schedule, int retrainPassesPerRound,
      boolean wireEncrypted) {
    PrivacyParameters p = schedule.parameters();
    RecordInfluence influence = new RecordInfluence(p.dim(), retrainPassesPerRound);
    double delta = reportDelta(schedule);
    if (schedule.mode() == ScheduleMode.FEDHDP) {
      int rounds = schedule.rounds();
      double[] clientAdded = new double[rounds];
      double[] globalPresent = new double[rounds];
      int i = 0;
      for (ScheduleRow r : schedule) {
        clientAdded[i] = r.added();
        globalPresent[i] = r.present() + (Double.isNaN(r.serverAdded()) ? 0 : r.serverAdded());
        i++;
      }
      return StarExposure.observers(schedule.peers(), clientAdded, globalPresent, influence, delta, p.epsilon(),
          wireEncrypted);
    }
    if (schedule.rowCount() > MAX_STEPS) {
      throw new IllegalArgumentException("the composition report covers rings of up to " + MAX_STEPS
          + " steps; this one has " + schedule.rowCount());
    }
    double[] added = new double[(int) schedule.rowCount()];
    int i = 0;
    for (ScheduleRow r : schedule) {
      added[i++] = r.added();
    }
    return RingExposure.observers(schedule.peers(), schedule.rounds(), added, influence, delta, p.epsilon(),
        wireEncrypted);
  }
}
