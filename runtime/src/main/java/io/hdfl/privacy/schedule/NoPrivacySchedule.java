package io.hdfl.privacy.schedule;

import io.hdfl.privacy.PrivacyParameters;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Objects;

/** A ring without privacy: every variance, the black-box baseline's included, is 0. */
public final class NoPrivacySchedule extends RingSchedule {
  private NoPrivacySchedule(PrivacyParameters params, RingShape shape) {
    super(params, shape, false);
  }

  /** Same arguments as {@link PrivateDflSchedule#of}; δ0 is not used. */
  public static NoPrivacySchedule of(PrivacyParameters params, int peers, long samplesPerPeer, int rounds) {
    Objects.requireNonNull(params, "params");
    return new NoPrivacySchedule(params, new RingShape(peers, samplesPerPeer, rounds));
  }

  @Override
  public Iterator<ScheduleRow> iterator() {
    return new Iterator<>() {
      private long step;

      @Override
      public boolean hasNext() {
        return step < shape.steps();
      }

      @Override
      public ScheduleRow next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        step++;
        return new ScheduleRow(step, shape.round(step), shape.peer(step), step * shape.samplesPerPeer(),
            0.0, 0.0, 0.0, 0.0, Double.NaN, Double.NaN);
      }
    };
  }

  @Override
  public ScheduleMode mode() {
    return ScheduleMode.NONE;
  }

  @Override
  public String description() {
    return String.format("none (ring): K=%d peers, N=%d samples per peer per step, R=%d rounds (%d steps); no noise",
        shape.peers(), shape.samplesPerPeer(), shape.rounds(), shape.steps());
  }
}
