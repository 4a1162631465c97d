package io.hdfl.privacy.composition;

import io.hdfl.privacy.PrivacyParameters;
import io.hdfl.privacy.noise.SecureNoiseSource;
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
  /**
   * The largest δ a release of the schedule is calibrated at, δ0 over the first update's samples: where
   * the classical calibration is furthest from its headline ({@link HeadlineCalibration}).
   */
  public static double calibrationDelta(NoiseSchedule schedule) {
    return Math.min(0.5, schedule.parameters().delta0() / schedule.samplesPerUpdate());
  }

  public static double reportDelta(NoiseSchedule schedule) {
    PrivacyParameters p = schedule.parameters();
    double samples = (double) schedule.peers() * schedule.samplesPerUpdate() * schedule.rounds();
    return Math.min(0.5, p.delta0() / samples);
  }

  /**
   * Per-observer guarantees, for noise from the secure source (what a device adds): each step's
   * snapping to its grid counts in the record's sensitivity.
   *
   * @param retrainPassesPerRound perceptron passes a peer makes over its data per round (E)
   * @param wireEncrypted whether hop payloads are end-to-end encrypted
   */
  public static List<ObserverGuarantee> observers(NoiseSchedule schedule, int retrainPassesPerRound,
      boolean wireEncrypted) {
    return observers(schedule, retrainPassesPerRound, wireEncrypted, true);
  }

  /**
   * As above; {@code secureNoise} false plans for continuous noise (the seeded source of simulations),
   * with no snapping to count.
   */
  public static List<ObserverGuarantee> observers(NoiseSchedule schedule, int retrainPassesPerRound,
      boolean wireEncrypted, boolean secureNoise) {
    PrivacyParameters p = schedule.parameters();
    RecordInfluence influence = new RecordInfluence(p.dim(), retrainPassesPerRound);
    double delta = reportDelta(schedule);
    if (schedule.mode() == ScheduleMode.FEDHDP) {
      int rounds = schedule.rounds();
      double[] clientAdded = new double[rounds];
      double[] globalPresent = new double[rounds];
      double[] clientGrid = new double[rounds];
      double[] aggregateGrid = new double[rounds];
      int[] averaged = new int[rounds];
      int i = 0;
      for (ScheduleRow r : schedule) {
        double server = Double.isNaN(r.serverAdded()) ? 0 : r.serverAdded();
        clientAdded[i] = r.added();
        globalPresent[i] = r.present() + server;
        clientGrid[i] = secureNoise ? SecureNoiseSource.gridStep(r.added()) : 0;
        aggregateGrid[i] = secureNoise ? SecureNoiseSource.gridStep(server) : 0;
        averaged[i] = schedule.peers();
        i++;
      }
      return StarExposure.observers(averaged, clientAdded, globalPresent, clientGrid, aggregateGrid, influence, delta,
          p.epsilon(), wireEncrypted);
    }
    if (schedule.rowCount() > MAX_STEPS) {
      throw new IllegalArgumentException("the composition report covers rings of up to " + MAX_STEPS
          + " steps; this one has " + schedule.rowCount());
    }
    double[] added = new double[(int) schedule.rowCount()];
    double[] grid = new double[added.length];
    int i = 0;
    for (ScheduleRow r : schedule) {
      grid[i] = secureNoise ? SecureNoiseSource.gridStep(r.added()) : 0;
      added[i++] = r.added();
    }
    boolean[] bundles = new boolean[added.length];
    java.util.Arrays.fill(bundles, 0, Math.min(schedule.peers(), bundles.length), true); // round 1
    return RingExposure.observers(schedule.peers(), schedule.rounds(), added, grid, bundles, influence, delta,
        p.epsilon(), wireEncrypted);
  }
}
