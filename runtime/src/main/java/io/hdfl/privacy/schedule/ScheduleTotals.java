package io.hdfl.privacy.schedule;

import java.util.Objects;

/**
 * A schedule's summary.
 *
 * @param rows rows of the schedule
 * @param samples samples absorbed at the end
 * @param required variance required at the end
 * @param present variance present at the end (for fedhdp: in the clients' average, before the server)
 * @param added total variance added (for fedhdp: by one client over all rounds)
 * @param blackbox variance the black-box baseline would have added by the end
 * @param serverAdded total variance the server added (fedhdp), NaN otherwise
 * @param serverAddedRounds rounds in which the server had to add (fedhdp), 0 otherwise
 * @param minGamma smallest γ over the rounds (fedhdp), NaN otherwise
 */
public record ScheduleTotals(long rows, long samples, double required, double present, double added,
    double blackbox, double serverAdded, long serverAddedRounds, double minGamma) {

  /** Black-box variance over incrementally added variance: how much noise the accountant saves. */
  public double blackboxOverAdded() {
    return added > 0 ? blackbox / added : Double.NaN;
  }

  /** Runs through the schedule once. */
  public static ScheduleTotals of(NoiseSchedule schedule) {
    Objects.requireNonNull(schedule, "schedule");
    CompensatedSum added = new CompensatedSum();
    CompensatedSum serverAdded = new CompensatedSum();
    long rows = 0;
    long serverAddedRounds = 0;
    double minGamma = Double.NaN;
    ScheduleRow last = null;
    for (ScheduleRow r : schedule) {
      rows++;
      added.add(r.added());
      if (r.hasServer()) {
        serverAdded.add(r.serverAdded());
        if (r.serverAdded() > 0) {
          serverAddedRounds++;
        }
        minGamma = Double.isNaN(minGamma) ? r.gamma() : Math.min(minGamma, r.gamma());
      }
      last = r;
    }
    if (last == null) {
      throw new IllegalStateException("empty schedule");
    }
    boolean star = last.hasServer();
    return new ScheduleTotals(rows, last.samples(), last.required(), last.present(), added.value(),
        last.blackbox(), star ? serverAdded.value() : Double.NaN, serverAddedRounds, minGamma);
  }
}
