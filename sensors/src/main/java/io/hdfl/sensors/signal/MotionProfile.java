package io.hdfl.sensors.signal;

/**
 * A point-to-point move with a cosine-blended trapezoidal velocity: the speed rises from 0 to the
 * cruise speed V along half a cosine period in {@code ramp} seconds, cruises, and falls the same way,
 * arriving at {@code to} after {@code duration} seconds. V = (to − from) / (duration − ramp). Before
 * the move the position is {@code from}, after it {@code to}, with zero speed.
 */
record MotionProfile(double from, double to, double duration, double ramp) {

  MotionProfile {
    if (!(duration > 0) || !(ramp > 0) || ramp > duration / 2) {
      throw new IllegalArgumentException("need duration > 0 and 0 < ramp ≤ duration/2, got " + duration + ", " + ramp);
    }
  }

  /** A profile that stays at {@code at}. */
  static MotionProfile hold(double at, double duration) {
    return new MotionProfile(at, at, duration, duration / 2);
  }

  private double cruise() {
    return (to - from) / (duration - ramp);
  }

  double position(double t) {
    if (t <= 0) {
      return from;
    }
    if (t >= duration) {
      return to;
    }
    double v = cruise();
    if (t < ramp) {
      return from + v * (t / 2 - ramp / (2 * Math.PI) * StrictMath.sin(Math.PI * t / ramp));
    }
    double s = duration - t;
    if (s < ramp) {
      return to - v * (s / 2 - ramp / (2 * Math.PI) * StrictMath.sin(Math.PI * s / ramp));
    }
    return from + v * (ramp / 2 + t - ramp);
  }

  double velocity(double t) {
    if (t <= 0 || t >= duration) {
      return 0;
    }
    double v = cruise();
    double edge = Math.min(t, duration - t);
    return edge < ramp ? v * (1 - StrictMath.cos(Math.PI * edge / ramp)) / 2 : v;
  }

  double acceleration(double t) {
    if (t <= 0 || t >= duration) {
      return 0;
    }
    double a = cruise() * Math.PI / (2 * ramp);
    if (t < ramp) {
      return a * StrictMath.sin(Math.PI * t / ramp);
    }
    double s = duration - t;
    return s < ramp ? -a * StrictMath.sin(Math.PI * s / ramp) : 0;
  }
}
